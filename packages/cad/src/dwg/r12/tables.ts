import type { Layer, Linetype, TextStyle } from '../../model/drawing.ts';
import { ByteReader } from './byte-reader.ts';
import { checkTable, type FileHeader, type TableDescriptor } from './file-header.ts';

/**
 * The symbol tables. Each is `number` entries of `size` bytes at `address`: flag byte, 32-byte name, (R11+: a
 * 16-bit "used" count), the table's own fields, (R11+: a CRC). Entities refer to entries by their index, so
 * every entry keeps its place, even an unnamed (purged) one.
 */
export interface BlockEntry {
  name: string;
  flags: number;
  /** where its BLOCK entity lies in the blocks section (relative to its start) */
  offset: number;
}

export interface Tables {
  blocks: BlockEntry[];
  layers: Layer[];
  styles: TextStyle[];
  linetypes: Linetype[];
  /** APPID names, for the application of extended entity data */
  appIds: string[];
  /** DIMSTYLE names, for the style of dimensions */
  dimStyles: string[];
}

function entries<T>(bytes: Uint8Array, h: FileHeader, decoder: TextDecoder, name: string, t: TableDescriptor | undefined, read: (r: ByteReader, flags: number, name: string) => T): T[] {
  const out: T[] = [];
  if (!t || t.number === 0) return out;
  checkTable(name, t, bytes.length);
  for (let i = 0; i < t.number; i++) {
    const r = new ByteReader(bytes, t.address + i * t.size, t.address + (i + 1) * t.size - (h.r11 ? 2 : 0));
    const flags = r.u8();
    const entry = r.fixedText(32, decoder);
    if (h.r11) r.u16(); // used
    out.push(read(r, flags, entry));
  }
  return out;
}

/** Linetype index → name in entities and layers: 0x7fff is BYLAYER, 0x7ffe BYBLOCK (also as bytes in R10). */
export function linetypeName(index: number, linetypes: Linetype[]): string | undefined {
  if (index === 0x7fff || index === 0xff) return 'BYLAYER';
  if (index === 0x7ffe || index === 0xfe) return 'BYBLOCK';
  return linetypes[index]?.name || undefined;
}

export function readTables(bytes: Uint8Array, h: FileHeader, later: Record<string, TableDescriptor>, decoder: TextDecoder): Tables {
  const t = h.tables;
  const linetypes = entries(bytes, h, decoder, 'LTYPE', t.ltype, (r, _flags, name): Linetype => {
    const description = r.fixedText(48, decoder);
    r.u8(); // alignment, always 'A'
    const n = Math.min(12, r.u8());
    r.f64(); // pattern length
    const pattern: number[] = [];
    for (let i = 0; i < n; i++) pattern.push(r.f64());
    return { name, description, pattern };
  });
  const layers = entries(bytes, h, decoder, 'LAYER', t.layer, (r, flags, name): Layer => {
    // a negative colour is a layer switched off
    const color = r.i16();
    const lt = r.i16();
    return { name, color: Math.abs(color) || 7, linetype: linetypeName(lt, linetypes) ?? 'CONTINUOUS', lineweight: -3, on: color >= 0, frozen: (flags & 1) !== 0, locked: (flags & 4) !== 0 };
  });
  const styles = entries(bytes, h, decoder, 'STYLE', t.style, (r, _flags, name): TextStyle => {
    r.f64(); // fixed height
    const widthFactor = r.f64();
    const oblique = (r.f64() * 180) / Math.PI;
    r.u8(); // generation (mirrored texts)
    r.f64(); // last height used
    const font = r.fixedText(64, decoder);
    // the big font name follows where the entry has room for it (R11/R12)
    const bigFont = r.left >= 64 ? r.fixedText(64, decoder) : '';
    return { name, font, bigFont, widthFactor: widthFactor || 1, oblique };
  });
  const blocks = entries(bytes, h, decoder, 'BLOCK', t.block, (r, flags, name): BlockEntry => ({ name, flags, offset: r.u32() & 0x3fffffff }));
  // names only, and optional: a damaged descriptor of these costs the xdata application names or dimension style names, not the drawing
  const namesOf = (name: string) => {
    try {
      return entries(bytes, h, decoder, name, later[name], (_r, _flags, n) => n);
    } catch {
      return [];
    }
  };
  return { blocks, layers, styles, linetypes, appIds: namesOf('APPID'), dimStyles: namesOf('DIMSTYLE') };
}
