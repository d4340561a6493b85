import { requireCached } from '../require-cached.ts';
import type OpenType from 'opentype.js';
import type { Font, PathCommand } from 'opentype.js';
import earcut from 'earcut';
import type { Glyph, GlyphSource, OutlineFace } from './glyph.ts';

// required, not imported: opentype.js ships one CommonJS (UMD) file, which an ES import has node scan for its exports
// first (cjs-module-lexer over ~500 KB) on every start of a conversion
// first (cjs-module-lexer over ~500 KB) on every start of a conversion; compiled from a code cache in the command line
const opentype = requireCached('opentype.js', import.meta.url) as typeof OpenType;

/** Curve flattening tolerance in cap heights: glyphs are cached once per font, so this is relative to text height. */
const TOLERANCE = 0.004;

/**
 * TrueType/OpenType/WOFF1 through opentype.js 1.3.4, outlines flattened and triangulated with earcut.
 * opentype.js does not read collections (.ttc), so the chosen face is cut out into a standalone sfnt first.
 */
export class TtfGlyphSource implements GlyphSource {
  readonly kind = 'ttf' as const;
  readonly descent: number;
  readonly family: string;
  /** the face within its family ('Regular', 'Bold', 'Italic', 'Bold Italic' …) */
  readonly subfamily: string;
  private readonly fonts: Font[];
  /** per font, its file as a PDF embeds it */
  private readonly faces: OutlineFace[];
  private readonly scale: number;
  private readonly cache = new Map<string, Glyph | null>();

  /** `faces`: several files of one family (a font split into unicode-range subsets) searched in turn */
  constructor(
    readonly name: string,
    faces: Uint8Array[],
    faceName?: string,
  ) {
    const sfnts = faces.map((b) => sfntOf(b, faceName));
    this.fonts = sfnts.map((b) => parseOutlines(b));
    const f = this.fonts[0];
    const cap = f.tables.os2?.sCapHeight || capFromGlyph(f) || f.unitsPerEm * 0.7;
    this.scale = 1 / cap;
    this.faces = sfnts.map((sfnt, i) => ({ sfnt, em: this.fonts[i].unitsPerEm * this.scale }));
    this.descent = Math.abs(f.descender) * this.scale;
    this.family = f.names.fontFamily?.en ?? name;
    this.subfamily = f.names.fontSubfamily?.en ?? '';
  }

  /** add more subset files of the same family (the bundled CJK font loads them lazily) */
  addFace(bytes: Uint8Array) {
    const sfnt = sfntOf(bytes);
    const font = parseOutlines(sfnt);
    this.fonts.push(font);
    this.faces.push({ sfnt, em: font.unitsPerEm * this.scale });
    for (const [k, v] of this.cache) if (v === null) this.cache.delete(k);
  }

  has(ch: string): boolean {
    return this.fonts.some((f) => f.charToGlyphIndex(ch) > 0);
  }

  /** the font file and advance of a character, without its outline (see CjkFallback.outlineOf) */
  outlineOf(ch: string): Pick<Glyph, 'advance' | 'outline'> | undefined {
    const cached = this.cache.get(ch);
    if (cached !== undefined) return cached ?? undefined;
    for (let k = 0; k < this.fonts.length; k++) {
      const f = this.fonts[k];
      const i = f.charToGlyphIndex(ch);
      if (i > 0) return { advance: (f.glyphs.get(i).advanceWidth ?? f.unitsPerEm * 0.5) * this.scale, outline: { face: this.faces[k], ch } };
    }
    return undefined;
  }

  glyph(ch: string): Glyph | undefined {
    let g = this.cache.get(ch);
    if (g === undefined) {
      g = null;
      for (let k = 0; k < this.fonts.length; k++) {
        const f = this.fonts[k];
        const i = f.charToGlyphIndex(ch);
        if (i > 0) {
          g = outlineGlyph(f, i, this.scale, { face: this.faces[k], ch });
          break;
        }
      }
      this.cache.set(ch, g);
    }
    return g ?? undefined;
  }
}

/**
 * A font for its outlines and advances only: the layout tables (GPOS, GSUB, GDEF, kern …) are left out, since the
 * text engine neither kerns nor substitutes, and glyphs are read when first asked for (opentype.js's lowMemory)
 * rather than all at parse time. On a bundled CJK subset this was most of the parse: GPOS alone a third of it.
 */
function parseOutlines(sfnt: ArrayBuffer): Font {
  return opentype.parse(withoutTables(sfnt, LAYOUT_TABLES), { lowMemory: true });
}

const tag = (s: string) => ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
const LAYOUT_TABLES = new Set(['GPOS', 'GSUB', 'GDEF', 'kern', 'JSTF', 'BASE', 'MATH'].map(tag));

/** The sfnt without the tables whose tags are in `drop` (the same bytes when it has none of them, or is not an sfnt). */
function withoutTables(sfnt: ArrayBuffer, drop: Set<number>): ArrayBuffer {
  const v = new DataView(sfnt);
  if (v.byteLength < 12) return sfnt;
  const numTables = v.getUint16(4);
  if (12 + 16 * numTables > v.byteLength) return sfnt;
  const tables: { tag: number; sum: number; data: Uint8Array }[] = [];
  for (let i = 0; i < numTables; i++) {
    const e = 12 + 16 * i;
    const t = v.getUint32(e), offset = v.getUint32(e + 8), length = v.getUint32(e + 12);
    if (offset + length > v.byteLength) return sfnt;
    if (!drop.has(t)) tables.push({ tag: t, sum: v.getUint32(e + 4), data: new Uint8Array(sfnt, offset, length) });
  }
  if (tables.length === numTables) return sfnt;
  const head = new Uint8Array(sfnt.slice(0, 12));
  new DataView(head.buffer).setUint16(4, tables.length);
  return writeSfnt(head, tables);
}

function capFromGlyph(f: Font): number {
  const i = f.charToGlyphIndex('H');
  if (!i) return 0;
  let max = 0;
  for (const c of commandsOf(f, i)) if (c.y !== undefined && c.y > max) max = c.y;
  return max;
}

function commandsOf(f: Font, index: number): PathCommand[] {
  const g = f.glyphs.get(index);
  const p = typeof g.path === 'function' ? g.path() : g.path;
  return p.commands;
}

/**
 * An outline glyph whose triangles and rings are made when first read: a PDF writes outline glyphs as text and
 * never reads them (flattening and triangulating each character the text of a drawing uses took ~10 ms of a PDF).
 * Own enumerable getters, so a copy (spread, structured clone) still has the values.
 */
function outlineGlyph(f: Font, index: number, scale: number, outline: Glyph['outline']): Glyph {
  const glyph = f.glyphs.get(index);
  let shape: { triangles: number[]; outline: number[][] } | undefined;
  const made = () => (shape ??= triangulateWithOutline(flattenCommands(commandsOf(f, index), scale)));
  const g: Glyph = { advance: (glyph.advanceWidth ?? f.unitsPerEm * 0.5) * scale, outline };
  Object.defineProperty(g, 'triangles', { get: () => made().triangles, enumerable: true, configurable: true });
  Object.defineProperty(g, 'rings', { get: () => made().outline, enumerable: true, configurable: true });
  return g;
}

/** Path commands (font units, y up) to closed rings in cap heights; curves subdivided to TOLERANCE. */
export function flattenCommands(cmds: PathCommand[], scale: number): number[][] {
  const rings: number[][] = [];
  let ring: number[] = [];
  let x = 0, y = 0;
  const close = () => {
    if (ring.length >= 6) rings.push(ring);
    ring = [];
  };
  const steps = (len: number) => Math.min(64, Math.max(1, Math.ceil(Math.sqrt(len / (8 * TOLERANCE)))));
  for (const c of cmds) {
    const cx = (c.x ?? 0) * scale, cy = (c.y ?? 0) * scale;
    switch (c.type) {
      case 'M':
        close();
        ring.push(cx, cy);
        break;
      case 'L':
        ring.push(cx, cy);
        break;
      case 'Q': {
        const qx = c.x1! * scale, qy = c.y1! * scale;
        const n = steps(Math.hypot(qx - x, qy - y) + Math.hypot(cx - qx, cy - qy));
        for (let i = 1; i <= n; i++) {
          const t = i / n, u = 1 - t;
          ring.push(u * u * x + 2 * u * t * qx + t * t * cx, u * u * y + 2 * u * t * qy + t * t * cy);
        }
        break;
      }
      case 'C': {
        const ax = c.x1! * scale, ay = c.y1! * scale, bx = c.x2! * scale, by = c.y2! * scale;
        const n = steps(Math.hypot(ax - x, ay - y) + Math.hypot(bx - ax, by - ay) + Math.hypot(cx - bx, cy - by));
        for (let i = 1; i <= n; i++) {
          const t = i / n, u = 1 - t;
          ring.push(u * u * u * x + 3 * u * u * t * ax + 3 * u * t * t * bx + t * t * t * cx, u * u * u * y + 3 * u * u * t * ay + 3 * u * t * t * by + t * t * t * cy);
        }
        break;
      }
      case 'Z':
        close();
        continue;
    }
    x = cx;
    y = cy;
  }
  close();
  // drop a closing point equal to the first
  for (const r of rings) if (r.length >= 4 && r[0] === r[r.length - 2] && r[1] === r[r.length - 1]) r.length -= 2;
  return rings.filter((r) => r.length >= 6);
}

function inside(px: number, py: number, r: number[]): boolean {
  let c = false;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
    const xi = r[i], yi = r[i + 1], xj = r[j], yj = r[j + 1];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function area(r: number[]): number {
  return Math.abs(signedArea(r));
}

/** negative for counter-clockwise rings (y up) */
function signedArea(r: number[]): number {
  let a = 0;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += (r[j] - r[i]) * (r[j + 1] + r[i + 1]);
  return a / 2;
}

/**
 * Rings to triangles with holes. Nesting depth decides what is filled — even depth is an outer ring, odd depth a
 * hole of the smallest ring around it — which is what both the nonzero rule of well-formed TrueType/CFF outlines
 * (holes wound against their outer ring) and the even-odd rule give.
 */
export function triangulate(rings: number[][]): number[] {
  return triangulateWithOutline(rings).triangles;
}

/**
 * triangulate, and the same area as rings a nonzero fill draws: every ring wound by its nesting depth (even depths
 * one way, odd the other), so holes cancel their outer ring and overlapping outer rings add up, as the triangles
 * do. A rasteriser fills the outline with a third of the triangles' edges (render/png.ts).
 */
export function triangulateWithOutline(rings: number[][]): { triangles: number[]; outline: number[][] } {
  const n = rings.length;
  const areas = rings.map(area);
  const parent = new Array<number>(n).fill(-1);
  const depth = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let best = -1;
    for (let j = 0; j < n; j++) {
      if (i === j || areas[j] <= areas[i]) continue;
      // a ring lies inside another when most of its points do (touching points give no verdict)
      const r = rings[i];
      let yes = 0, no = 0;
      for (let k = 0; k < r.length && yes + no < 5; k += 2 * Math.max(1, Math.floor(r.length / 10))) inside(r[k], r[k + 1], rings[j]) ? yes++ : no++;
      if (yes > no && (best < 0 || areas[j] < areas[best])) best = j;
    }
    parent[i] = best;
  }
  for (let i = 0; i < n; i++) for (let p = parent[i]; p >= 0; p = parent[p]) depth[i]++;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (depth[i] % 2) continue;
    const data = [...rings[i]];
    const holes: number[] = [];
    for (let j = 0; j < n; j++) {
      if (parent[j] === i && depth[j] % 2) {
        holes.push(data.length / 2);
        data.push(...rings[j]);
      }
    }
    const idx = earcut(data, holes, 2);
    for (const k of idx) out.push(data[2 * k], data[2 * k + 1]);
  }
  const outline = rings.map((r, i) => ((signedArea(r) < 0) === (depth[i] % 2 === 0) ? r : reversed(r)));
  return { triangles: out, outline };
}

function reversed(r: number[]): number[] {
  const out = new Array<number>(r.length);
  for (let i = 0; i < r.length; i += 2) (out[r.length - 2 - i] = r[i]), (out[r.length - 1 - i] = r[i + 1]);
  return out;
}

/** Every face of a TrueType collection (.ttc) as a standalone font file; [] for anything else. */
export function collectionFaces(bytes: Uint8Array): ArrayBuffer[] {
  const own = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const v = new DataView(own);
  if (own.byteLength < 12 || v.getUint32(0) !== 0x74746366 /* 'ttcf' */) return [];
  const count = v.getUint32(8);
  return Array.from({ length: count }, (_, i) => extractFace(v, v.getUint32(12 + 4 * i)));
}

/** A TrueType collection's face (by family or full name, else the first) as a standalone font; other files as they are. */
export function sfntOf(bytes: Uint8Array, faceName?: string): ArrayBuffer {
  const faces = collectionFaces(bytes);
  if (!faces.length) return woffToSfnt(bytes) ?? (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  if (faceName) {
    const want = faceName.toLowerCase();
    for (const f of faces) {
      try {
        const font = opentype.parse(f);
        const names = [font.names.fontFamily?.en, font.names.fullName?.en, ...Object.values(font.names.fontFamily ?? {})].filter(Boolean).map((s) => s!.toLowerCase());
        if (names.includes(want)) return f;
      } catch {
        /* try the next face */
      }
    }
  }
  return faces[0];
}

function extractFace(v: DataView, at: number): ArrayBuffer {
  const numTables = v.getUint16(at + 4);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const e = at + 12 + 16 * i;
    const offset = v.getUint32(e + 8), length = v.getUint32(e + 12);
    return { tag: v.getUint32(e), sum: v.getUint32(e + 4), data: new Uint8Array(v.buffer, v.byteOffset + offset, length) };
  });
  return writeSfnt(new Uint8Array(v.buffer, v.byteOffset + at, 12), tables);
}

/** An sfnt file: its 12-byte header, then the table directory and the tables, each at a 4-byte boundary. */
function writeSfnt(head: Uint8Array, tables: { tag: number; sum: number; data: Uint8Array }[]): ArrayBuffer {
  let size = 12 + 16 * tables.length;
  for (const t of tables) size += (t.data.byteLength + 3) & ~3;
  const out = new Uint8Array(size);
  const w = new DataView(out.buffer);
  out.set(head, 0);
  let pos = 12 + 16 * tables.length;
  tables.forEach((t, i) => {
    const e = 12 + 16 * i;
    w.setUint32(e, t.tag);
    w.setUint32(e + 4, t.sum);
    w.setUint32(e + 8, pos);
    w.setUint32(e + 12, t.data.byteLength);
    out.set(t.data, pos);
    pos += (t.data.byteLength + 3) & ~3;
  });
  return out.buffer;
}

/** Node's zlib where there is one (browsers read WOFF through opentype.js's own inflate) */
const zlib = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:zlib') as typeof import('node:zlib') | undefined;

/**
 * A WOFF 1 file as the sfnt it wraps, its tables inflated by Node's zlib; null where there is no zlib or the file is
 * not WOFF. opentype.js reads WOFF itself, but through a JavaScript inflate that took ~25 ms of a fresh process's first
 * open (the bundled CJK font's subsets are WOFF). Tables are taken as opentype.js takes them (compressed when the
 * compressed length is below the original), so the parsed font is the same.
 */
function woffToSfnt(bytes: Uint8Array): ArrayBuffer | null {
  try {
    return zlib && bytes.length >= 44 ? inflateWoff(zlib, bytes) : null;
  } catch {
    return null; // damaged (a checksum zlib checks and opentype.js does not): opentype.js reads it as before
  }
}

function inflateWoff(zlib: typeof import('node:zlib'), bytes: Uint8Array): ArrayBuffer | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0) !== 0x774f4646 /* 'wOFF' */) return null;
  const numTables = v.getUint16(12);
  const tables: { tag: number; sum: number; data: Uint8Array }[] = [];
  for (let i = 0; i < numTables; i++) {
    const e = 44 + 20 * i;
    // the layout tables neither the text engine (parseOutlines) nor a PDF's subset uses: not inflated (GPOS is most of a bundled subset)
    if (LAYOUT_TABLES.has(v.getUint32(e))) continue;
    const offset = v.getUint32(e + 4), compLength = v.getUint32(e + 8), origLength = v.getUint32(e + 12);
    let data = bytes.subarray(offset, offset + origLength);
    if (compLength < origLength) {
      data = zlib.inflateSync(bytes.subarray(offset, offset + compLength));
      if (data.byteLength !== origLength) return null;
    }
    tables.push({ tag: v.getUint32(e), sum: v.getUint32(e + 16), data });
  }
  const head = new Uint8Array(12);
  const h = new DataView(head.buffer);
  h.setUint32(0, v.getUint32(4)); // the flavour: 0x00010000 or 'OTTO'
  h.setUint16(4, tables.length);
  return writeSfnt(head, tables);
}
