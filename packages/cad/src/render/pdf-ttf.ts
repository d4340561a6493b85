/**
 * TrueType (glyf) fonts embedded in a PDF without fontkit: the font's few tables read here, a subset of the glyphs
 * used written as a new sfnt (glyphs renumbered in order of first use, .notdef first, the components of composite
 * glyphs included), and the PDF objects PDFKit writes for an embedded font (Type0 / CIDFontType2, Identity-H, W
 * widths, ToUnicode). fontkit and its Unicode tables took ~70 ms of every command-line PDF's start-up, for what a
 * drawing's PDF needs of it: a glyph id per character, its advance, and a subset. CFF (OpenType 'OTTO') fonts and
 * anything this reader does not understand go through PDFKit and fontkit as before (`readTtf` returns null).
 */

interface Table {
  offset: number;
  length: number;
}

/** What an embedded font needs of a glyf font: glyph ids by code point, advances, metrics for the descriptor. */
export interface TtfFont {
  bytes: Uint8Array;
  view: DataView;
  tables: Map<string, Table>;
  unitsPerEm: number;
  numGlyphs: number;
  numberOfHMetrics: number;
  longLoca: boolean;
  /** code point → glyph id (0: none) */
  glyphForCodePoint(cp: number): number;
  advanceWidth(gid: number): number;
  postscriptName: string;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  italicAngle: number;
  fixedPitch: boolean;
  familyClass: number;
  italic: boolean;
}

const REQUIRED = ['head', 'hhea', 'maxp', 'hmtx', 'loca', 'glyf', 'cmap'];

/** A TrueType-outline sfnt read for embedding, or null (CFF outlines, a collection, or tables missing or broken). */
export function readTtf(sfnt: ArrayBuffer): TtfFont | null {
  try {
    return parse(new Uint8Array(sfnt));
  } catch {
    return null;
  }
}

function parse(bytes: Uint8Array): TtfFont | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565) return null; // 'OTTO' (CFF) and 'ttcf' are not ours
  const tables = new Map<string, Table>();
  const n = v.getUint16(4);
  for (let i = 0; i < n; i++) {
    const e = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[e], bytes[e + 1], bytes[e + 2], bytes[e + 3]);
    const offset = v.getUint32(e + 8), length = v.getUint32(e + 12);
    if (offset + length > bytes.byteLength) return null;
    tables.set(tag, { offset, length });
  }
  if (!REQUIRED.every((t) => tables.has(t))) return null;
  const head = tables.get('head')!.offset, hhea = tables.get('hhea')!.offset, maxp = tables.get('maxp')!.offset;
  const unitsPerEm = v.getUint16(head + 18);
  const numGlyphs = v.getUint16(maxp + 4);
  const numberOfHMetrics = v.getUint16(hhea + 34);
  const hmtx = tables.get('hmtx')!.offset;
  const cmap = cmapLookup(v, tables.get('cmap')!.offset);
  if (!cmap || !numberOfHMetrics) return null;
  const os2 = tables.get('OS/2')?.offset, post = tables.get('post')?.offset;
  const os2Version = os2 !== undefined ? v.getUint16(os2) : -1;
  return {
    bytes,
    view: v,
    tables,
    unitsPerEm,
    numGlyphs,
    numberOfHMetrics,
    longLoca: v.getInt16(head + 50) === 1,
    glyphForCodePoint: (cp) => {
      const g = cmap(cp);
      return g < numGlyphs ? g : 0;
    },
    advanceWidth: (gid) => v.getUint16(hmtx + 4 * Math.min(gid, numberOfHMetrics - 1)),
    postscriptName: nameOf(v, tables.get('name')?.offset, 6) ?? 'Font',
    bbox: [v.getInt16(head + 36), v.getInt16(head + 38), v.getInt16(head + 40), v.getInt16(head + 42)],
    ascent: v.getInt16(hhea + 4),
    descent: v.getInt16(hhea + 6),
    capHeight: os2Version >= 2 ? v.getInt16(os2! + 88) : 0,
    xHeight: os2Version >= 2 ? v.getInt16(os2! + 86) : 0,
    italicAngle: post !== undefined ? v.getInt32(post + 4) / 65536 : 0,
    fixedPitch: post !== undefined ? v.getUint32(post + 12) !== 0 : false,
    familyClass: os2 !== undefined ? v.getInt16(os2 + 30) : 0,
    italic: (v.getUint16(head + 44) & 2) !== 0,
  };
}

/** The font's Unicode cmap (format 12 preferred, else 4) as a lookup; null when it has neither. */
function cmapLookup(v: DataView, at: number): ((cp: number) => number) | null {
  const n = v.getUint16(at + 2);
  let best: { format: number; offset: number } | undefined;
  for (let i = 0; i < n; i++) {
    const e = at + 4 + 8 * i;
    const platform = v.getUint16(e), encoding = v.getUint16(e + 2), offset = at + v.getUint32(e + 4);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = v.getUint16(offset);
    if (format === 12 && best?.format !== 12) best = { format, offset };
    else if (format === 4 && !best) best = { format, offset };
  }
  if (!best) return null;
  const o = best.offset;
  if (best.format === 12) {
    const groups = v.getUint32(o + 12);
    return (cp) => {
      let lo = 0, hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, g = o + 16 + 12 * mid;
        const start = v.getUint32(g), end = v.getUint32(g + 4);
        if (cp < start) hi = mid - 1;
        else if (cp > end) lo = mid + 1;
        else return v.getUint32(g + 8) + cp - start;
      }
      return 0;
    };
  }
  const segs = v.getUint16(o + 6) >> 1;
  const ends = o + 14, starts = ends + 2 * segs + 2, deltas = starts + 2 * segs, ranges = deltas + 2 * segs;
  return (cp) => {
    if (cp > 0xffff) return 0;
    let lo = 0, hi = segs - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v.getUint16(ends + 2 * mid) < cp) lo = mid + 1;
      else hi = mid;
    }
    const start = v.getUint16(starts + 2 * lo);
    if (cp < start || cp > v.getUint16(ends + 2 * lo)) return 0;
    const delta = v.getUint16(deltas + 2 * lo), range = v.getUint16(ranges + 2 * lo);
    if (!range) return (cp + delta) & 0xffff;
    const gid = v.getUint16(ranges + 2 * lo + range + 2 * (cp - start));
    return gid ? (gid + delta) & 0xffff : 0;
  };
}

/** A name table string (Windows Unicode, else Macintosh Roman), or undefined. */
function nameOf(v: DataView, at: number | undefined, id: number): string | undefined {
  if (at === undefined) return undefined;
  const count = v.getUint16(at + 2), strings = at + v.getUint16(at + 4);
  for (let i = 0; i < count; i++) {
    const r = at + 6 + 12 * i;
    if (v.getUint16(r + 6) !== id) continue;
    const platform = v.getUint16(r), len = v.getUint16(r + 8), off = strings + v.getUint16(r + 10);
    let s = '';
    if (platform === 3 || platform === 0) for (let k = 0; k + 1 < len; k += 2) s += String.fromCharCode(v.getUint16(off + k));
    else for (let k = 0; k < len; k++) s += String.fromCharCode(v.getUint8(off + k));
    if (s) return s;
  }
  return undefined;
}

function glyphRange(f: TtfFont, gid: number): [number, number] {
  const loca = f.tables.get('loca')!.offset;
  const v = f.view;
  return f.longLoca ? [v.getUint32(loca + 4 * gid), v.getUint32(loca + 4 * gid + 4)] : [v.getUint16(loca + 2 * gid) * 2, v.getUint16(loca + 2 * gid + 2) * 2];
}

/**
 * The glyphs a document uses, numbered as it writes them (`include` → the subset's glyph id), and the subset font
 * file: glyf, loca (long), hmtx, and head, hhea, maxp, cvt, fpgm, prep as the font has them (what fontkit's TTF
 * subset writes). Composite glyphs' components are added after the glyphs asked for, their references renumbered.
 */
export class TtfSubset {
  private readonly ids = new Map<number, number>();
  private readonly order: number[] = [];

  constructor(private readonly font: TtfFont) {
    this.includeGlyph(0);
  }

  includeGlyph(gid: number): number {
    let id = this.ids.get(gid);
    if (id === undefined) {
      id = this.order.length;
      this.ids.set(gid, id);
      this.order.push(gid);
    }
    return id;
  }

  encode(): Uint8Array {
    const f = this.font, v = f.view, bytes = f.bytes;
    const glyf = f.tables.get('glyf')!.offset;
    const glyphs: Uint8Array[] = [];
    // the list grows as composites name their components
    for (let i = 0; i < this.order.length; i++) {
      const [start, end] = glyphRange(f, this.order[i]);
      let g: Uint8Array = bytes.slice(glyf + start, glyf + end);
      if (g.length >= 10 && new DataView(g.buffer).getInt16(0) < 0) g = this.renumberComponents(g);
      glyphs.push(g);
    }
    const n = glyphs.length;
    let glyfSize = 0;
    for (const g of glyphs) glyfSize += (g.length + 3) & ~3;
    const glyfOut = new Uint8Array(glyfSize);
    const loca = new Uint8Array(4 * (n + 1));
    const lv = new DataView(loca.buffer);
    let pos = 0;
    glyphs.forEach((g, i) => {
      lv.setUint32(4 * i, pos);
      glyfOut.set(g, pos);
      pos += (g.length + 3) & ~3;
    });
    lv.setUint32(4 * n, pos);
    const hmtxAt = f.tables.get('hmtx')!.offset;
    const hmtx = new Uint8Array(4 * n);
    const hv = new DataView(hmtx.buffer);
    this.order.forEach((gid, i) => {
      const m = Math.min(gid, f.numberOfHMetrics - 1);
      hv.setUint16(4 * i, v.getUint16(hmtxAt + 4 * m));
      // left side bearing: in the long metrics, else in the array after them
      const lsb = gid < f.numberOfHMetrics ? hmtxAt + 4 * gid + 2 : hmtxAt + 4 * f.numberOfHMetrics + 2 * (gid - f.numberOfHMetrics);
      hv.setInt16(4 * i + 2, lsb + 2 <= hmtxAt + f.tables.get('hmtx')!.length ? v.getInt16(lsb) : 0);
    });
    const copy = (tag: string) => {
      const t = f.tables.get(tag)!;
      return bytes.slice(t.offset, t.offset + t.length);
    };
    const head = copy('head');
    const headV = new DataView(head.buffer);
    headV.setUint32(8, 0); // checkSumAdjustment, set below
    headV.setInt16(50, 1); // long loca
    const hhea = copy('hhea');
    new DataView(hhea.buffer).setUint16(34, n);
    const maxp = copy('maxp');
    new DataView(maxp.buffer).setUint16(4, n);
    const tables: [string, Uint8Array][] = [['head', head], ['hhea', hhea], ['loca', loca], ['maxp', maxp]];
    if (f.tables.has('cvt ')) tables.push(['cvt ', copy('cvt ')]);
    if (f.tables.has('prep')) tables.push(['prep', copy('prep')]);
    tables.push(['glyf', glyfOut], ['hmtx', hmtx]);
    if (f.tables.has('fpgm')) tables.push(['fpgm', copy('fpgm')]);
    tables.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const out = writeSfnt(tables);
    const total = checksum(out);
    new DataView(out.buffer).setUint32(headOffset(out) + 8, (0xb1b0afba - total) >>> 0);
    return out;
  }

  /** a composite glyph's copy with its components' glyph ids renumbered (and included) */
  private renumberComponents(g: Uint8Array): Uint8Array {
    const v = new DataView(g.buffer);
    let p = 10;
    for (;;) {
      const flags = v.getUint16(p);
      v.setUint16(p + 2, this.includeGlyph(v.getUint16(p + 2)));
      p += 4 + (flags & 1 ? 4 : 2);
      if (flags & 8) p += 2;
      else if (flags & 0x40) p += 4;
      else if (flags & 0x80) p += 8;
      if (!(flags & 0x20)) break;
    }
    return g;
  }
}

function checksum(b: Uint8Array): number {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let sum = 0;
  const whole = b.byteLength & ~3;
  for (let i = 0; i < whole; i += 4) sum = (sum + v.getUint32(i)) >>> 0;
  if (whole < b.byteLength) {
    let last = 0;
    for (let i = whole; i < whole + 4; i++) last = (last << 8) | (i < b.byteLength ? b[i] : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/** the head table's offset in an sfnt written by writeSfnt */
function headOffset(out: Uint8Array): number {
  const v = new DataView(out.buffer);
  const n = v.getUint16(4);
  for (let i = 0; i < n; i++) if (v.getUint32(12 + 16 * i) === 0x68656164) return v.getUint32(12 + 16 * i + 8);
  throw new Error('no head table');
}

function writeSfnt(tables: [string, Uint8Array][]): Uint8Array {
  const n = tables.length;
  let size = 12 + 16 * n;
  for (const [, t] of tables) size += (t.length + 3) & ~3;
  const out = new Uint8Array(size);
  const w = new DataView(out.buffer);
  let pow = 1, log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  w.setUint32(0, 0x00010000);
  w.setUint16(4, n);
  w.setUint16(6, pow * 16);
  w.setUint16(8, log);
  w.setUint16(10, n * 16 - pow * 16);
  let pos = 12 + 16 * n;
  tables.forEach(([tag, t], i) => {
    const e = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[e + k] = tag.charCodeAt(k);
    w.setUint32(e + 4, checksum(t));
    w.setUint32(e + 8, pos);
    w.setUint32(e + 12, t.length);
    out.set(t, pos);
    pos += (t.length + 3) & ~3;
  });
  return out;
}
