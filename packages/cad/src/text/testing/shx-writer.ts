/**
 * Writes small but valid SHX files for tests (no SHX font ships in the samples or in any registry package we
 * may use): a shapes font ("AutoCAD-86 shapes 1.0") and a big font ("AutoCAD-86 bigfont 1.0"), in the layout
 * AutoCAD's compiler produces and @mlightcad/shx-parser reads. Bytecode: 1 pen down, 2 pen up, 8 dx dy move,
 * 0xLD a vector of length L in direction D (0 east, 4 north, 8 west, C south), 0 end.
 */
const latin1 = (s: string) => Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function u16(n: number) {
  return [n & 0xff, (n >> 8) & 0xff];
}
function u32(n: number) {
  return [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
}

export interface ShxShapeDef {
  code: number;
  name?: string;
  /** bytecode without the final 0 */
  bytes: number[];
}

/** A shapes font: `above`/`below` are the font's cap height and descender in shape units. */
export function writeShapesFont(name: string, above: number, below: number, shapes: ShxShapeDef[]): Uint8Array {
  const all: ShxShapeDef[] = [{ code: 0, name, bytes: [above, below, 0] }, ...shapes];
  const blobs = all.map((s) => [...latin1(s.name ?? ''), 0, ...s.bytes, 0]);
  const codes = all.map((s) => s.code);
  const out = [...latin1('AutoCAD-86 shapes 1.0\r\n\x1a'), ...u16(Math.min(...codes)), ...u16(Math.max(...codes)), ...u16(all.length)];
  all.forEach((s, i) => out.push(...u16(s.code), ...u16(blobs[i].length)));
  for (const b of blobs) out.push(...b);
  return new Uint8Array(out);
}

/** A big font whose glyphs are keyed by double-byte code page values (e.g. GBK 0xD6D0 for 中). */
export function writeBigFont(name: string, above: number, below: number, shapes: ShxShapeDef[]): Uint8Array {
  const info = [...latin1(name), 0, above, below, 0, 0];
  const glyphs = shapes.map((s) => [(s.code >> 8) & 0xff, s.code & 0xff, 0, ...s.bytes, 0]);
  const entries = [{ code: 0, data: info }, ...shapes.map((s, i) => ({ code: s.code, data: glyphs[i] }))];
  const header = [...latin1('AutoCAD-86 bigfont 1.0\r\n\x1a')];
  const ranges = [[0x81, 0xfe]];
  const fixed = header.length + 6 + ranges.length * 4 + entries.length * 8;
  const out = [...header, ...u16(entries.length * 8), ...u16(entries.length), ...u16(ranges.length)];
  for (const [a, b] of ranges) out.push(...u16(a), ...u16(b));
  let offset = fixed;
  for (const e of entries) {
    out.push(...u16(e.code), ...u16(e.data.length), ...u32(offset));
    offset += e.data.length;
  }
  for (const e of entries) out.push(...e.data);
  return new Uint8Array(out);
}

/** signed byte for 8 dx dy moves */
export const sb = (n: number) => n & 0xff;

/** A Unicode SHX font ("AutoCAD-86 unifont 1.0"): glyphs keyed by Unicode code points. */
export function writeUnifont(name: string, above: number, below: number, shapes: ShxShapeDef[]): Uint8Array {
  const info = [...latin1(name), 0, above, below, 0, 0];
  const out = [...latin1('AutoCAD-86 unifont 1.0\r\n\x1a'), ...u32(shapes.length + 1), ...u16(info.length), ...info];
  for (const s of shapes) {
    const blob = [...latin1(s.name ?? ''), 0, ...s.bytes, 0];
    out.push(...u16(s.code), ...u16(blob.length), ...blob);
  }
  return new Uint8Array(out);
}
