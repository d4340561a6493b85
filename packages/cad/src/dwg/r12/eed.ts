import type { Pair } from '../../model/drawing.ts';
import type { ByteReader } from './byte-reader.ts';

/**
 * Extended entity data of a pre-R13 entity as the DXF xdata pairs an R12 DXF carries (1001 application, 1000
 * strings, 1002 braces, 1010 points, 1040 reals, 1070 integers …). Dimension style overrides ("DSTYLE") and the
 * view of a paper-space viewport ("MVIEW") live here. Each item is a code byte and its value; strings have a
 * one-byte length, the application and layer items are table indexes. An item of an unknown code ends the
 * reading (its size is unknown) with what was read so far: the entity itself is still fine.
 */
export function readEed(r: ByteReader, decoder: TextDecoder, appIds: string[], layerNames: string[]): Pair[] {
  const pairs: Pair[] = [];
  try {
    readItems(r, decoder, appIds, layerNames, pairs);
  } catch {
    // an item cut by the end of the data: keep the items before it
  }
  return pairs;
}

function readItems(r: ByteReader, decoder: TextDecoder, appIds: string[], layerNames: string[], pairs: Pair[]) {
  while (r.left > 0) {
    const code = r.u8();
    if (code === 0) pairs.push([1000, decoder.decode(r.raw(Math.min(r.u8(), r.left)))]);
    else if (code === 1) {
      const i = r.u16();
      pairs.push([1001, appIds[i] ?? 'ACAD']);
    } else if (code === 2) pairs.push([1002, r.u8() ? '}' : '{']);
    else if (code === 3) pairs.push([1003, layerNames[r.u16()] ?? '0']);
    else if (code === 4) pairs.push([1004, hex(r.raw(Math.min(r.u8(), r.left)))]);
    else if (code === 5) pairs.push([1005, hex(r.raw(8)).replace(/^0+(?=.)/, '')]);
    else if (code >= 10 && code <= 13) pairs.push([1000 + code, r.f64()], [1010 + code, r.f64()], [1020 + code, r.f64()]);
    else if (code >= 40 && code <= 42) pairs.push([1000 + code, r.f64()]);
    else if (code === 70) pairs.push([1070, r.i16()]);
    else if (code === 71) pairs.push([1071, r.u32() | 0]);
    else break;
  }
}

export function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s.toUpperCase();
}
