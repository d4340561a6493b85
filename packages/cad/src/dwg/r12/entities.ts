import type { Entity, Pair } from '../../model/drawing.ts';
import { DxfEntity, type createPairStore } from '../../dxf/pair-store.ts';
import { ByteReader, r12Error } from './byte-reader.ts';
import { hex, readEed } from './eed.ts';
import { linetypeName, type Tables } from './tables.ts';

/**
 * One entity record of a pre-R13 DWG into the model's Entity, with the group codes an R12 DXF of the same
 * drawing would carry, so the rest of the engine (flatten, scenes, info, compare) treats both alike.
 *
 * A record is: type byte (bit 7: deleted), flag byte, 16-bit size of the whole record, layer index, 16-bit
 * "opts" saying which optional fields follow, the common optional fields (by the flag byte), the type's own
 * fields (by opts), and on R11/R12 a CRC. The size always moves to the next record, so a record is read inside
 * its own window and never past it. Field layouts as LibreDWG's dwg.spec and common_entity_data.spec describe
 * them (read as documentation, no code taken), checked against the R11 sample. The pairs go into the same
 * shared columns the DXF reader fills (pair-store.ts), not one small array per pair: a large drawing's memory.
 */

export type PairStore = ReturnType<typeof createPairStore>;

/** Record type numbers of pre-R13 DWG. REPEAT/ENDREP/LOAD (R1–R2) and JUMP are structure, not drawing. */
export const TYPE_NAMES: Record<number, string> = {
  1: 'LINE', 2: 'POINT', 3: 'CIRCLE', 4: 'SHAPE', 7: 'TEXT', 8: 'ARC', 9: 'TRACE', 11: 'SOLID', 12: 'BLOCK', 13: 'ENDBLK', 14: 'INSERT',
  15: 'ATTDEF', 16: 'ATTRIB', 17: 'SEQEND', 19: 'POLYLINE', 20: 'VERTEX', 21: '3DLINE', 22: '3DFACE', 23: 'DIMENSION', 24: 'VIEWPORT',
};
const STRUCTURE = new Set([5, 6, 10, 18]);

// the common flag byte
const HAS_COLOR = 1, HAS_LTYPE = 2, HAS_ELEVATION = 4, HAS_THICKNESS = 8, HAS_HANDLE = 32, HAS_EXTRA = 64, HAS_CHILDREN = 128;
// the extra byte (present with HAS_EXTRA, which LibreDWG reads as "in paper space", as the R11 sample's header agrees)
const EXTRA_EED = 2, EXTRA_VIEWPORT = 4;

export interface ReadContext {
  r11: boolean;
  decoder: TextDecoder;
  tables: Tables;
  layerNames: string[];
  /** block table index → block name (anonymous blocks get their BLOCK entity's numbered name) */
  blockName(index: number): string;
}

export interface RecordRead {
  /** offset of the next record */
  next: number;
  /** a deleted record or a structural one (JUMP …): nothing to place */
  skip: boolean;
  /** the entity (BLOCK and ENDBLK included: the reader turns those into blocks) */
  entity?: Entity;
  /** VERTEX or ATTRIB records follow, closed by a SEQEND */
  hasChildren: boolean;
  /** BLOCK: its name when the record carries one, and its base point */
  blockName?: string;
  base?: { x: number; y: number; z: number };
}

const deg = (rad: number) => (rad * 180) / Math.PI;

/** A record's type byte, flag byte and size, checked: at least its own header (and CRC), within the section. */
export function recordHeader(section: ByteReader, at: number, r11: boolean): { typeByte: number; flag: number; size: number } {
  section.pos = at;
  const typeByte = section.u8();
  const flag = section.u8();
  const size = section.u16();
  if (size < 4 + (r11 ? 2 : 0) || at + size > section.end) throw r12Error(`record of ${size} bytes at 0x${at.toString(16)} (section ends at 0x${section.end.toString(16)})`);
  return { typeByte, flag, size };
}

export function readRecord(section: ByteReader, at: number, ctx: ReadContext, store: PairStore): RecordRead {
  const { typeByte, flag, size } = recordHeader(section, at, ctx.r11);
  const crc = ctx.r11 ? 2 : 0;
  const next = at + size;
  // the record's own bytes, without its CRC: no field of it may be read outside
  const body = section.window(at + 4, size - 4 - crc);
  const code = typeByte & 0x7f;
  if (typeByte & 0x80 || STRUCTURE.has(code)) return { next, skip: true, hasChildren: false };
  const type = TYPE_NAMES[code];
  if (!type) {
    // a type no version we know writes: kept (counted, shown as not drawn), never guessed at
    return { next, skip: false, hasChildren: false, entity: { type: `R12_TYPE_${code}`, layer: '0', color: 256, paperSpace: false, pairs: [] } };
  }
  store.begin();
  const read = readEntity(body, type, flag, ctx, store);
  const e = new DxfEntity(type === '3DLINE' ? 'LINE' : type, store.chunk, store.start, store.chunk.n);
  e.layer = read.layer;
  e.color = read.color;
  e.paperSpace = read.paperSpace;
  if (read.handle) e.handle = read.handle;
  if (read.linetype) e.linetype = read.linetype;
  return { next, skip: false, entity: e, hasChildren: read.hasChildren, blockName: read.blockName, base: read.base };
}

interface EntityRead {
  layer: string;
  color: number;
  paperSpace: boolean;
  handle?: string;
  /** when not BYLAYER */
  linetype?: string;
  hasChildren: boolean;
  blockName?: string;
  base?: RecordRead['base'];
}

function readEntity(r: ByteReader, type: string, flag: number, ctx: ReadContext, out: PairStore): EntityRead {
  const layer = ctx.layerNames[r.u16()] ?? '0';
  const opts = r.u16();
  const extra = flag & HAS_EXTRA ? r.u8() : 0;
  let xdata: Pair[] = [];
  if (extra & EXTRA_EED) {
    const n = r.u16();
    xdata = readEed(r.window(r.pos, n), ctx.decoder, ctx.tables.appIds, ctx.layerNames);
    r.skip(n);
  }
  const color = flag & HAS_COLOR ? r.u8() : 256;
  const ltype = flag & HAS_LTYPE ? (ctx.r11 ? r.u16() : r.u8()) : undefined;
  // on LINE, POINT and 3DFACE the flag says "2D points" instead: no elevation is stored
  const elevation = flag & HAS_ELEVATION && type !== 'LINE' && type !== 'POINT' && type !== '3DFACE' ? r.f64() : 0;
  const thickness = flag & HAS_THICKNESS ? r.f64() : 0;
  const handle = flag & HAS_HANDLE ? hex(r.raw(r.u8())).replace(/^0+(?=.)/, '') : undefined;
  if (extra & EXTRA_VIEWPORT) r.u16();

  const linetype = ltype === undefined ? undefined : linetypeName(ltype, ctx.tables.linetypes);
  const paperSpace = (flag & HAS_EXTRA) !== 0;
  const f = new Fields(r, out, ctx, opts, elevation);
  if (handle) out.pushStr(5, handle);
  out.pushStr(8, layer);
  if (linetype && linetype !== 'BYLAYER') out.pushStr(6, linetype);
  if (color !== 256) out.pushNum(62, color);
  if (paperSpace) out.pushNum(67, 1);
  if (thickness) out.pushNum(39, thickness);

  let blockName: string | undefined;
  let base: RecordRead['base'];

  switch (type) {
    case 'LINE':
    case '3DLINE':
      // a LINE flagged "2D" has 2D points; a 3DLINE (R10) always has 3D ones
      if (flag & HAS_ELEVATION && type === 'LINE') {
        f.xy(10);
        f.xy(11);
      } else {
        f.xyz(10);
        f.xyz(11);
      }
      if (f.o(1)) f.extrusion();
      break;
    case 'POINT':
      f.xy(10);
      f.n(30, flag & HAS_ELEVATION ? 0 : r.f64());
      if (f.o(1)) f.extrusion();
      if (f.o(2)) f.angle(50);
      break;
    case 'CIRCLE':
    case 'ARC': {
      const x = r.f64(), y = r.f64(), radius = r.f64();
      const start = type === 'ARC' ? deg(r.f64()) : 0, end = type === 'ARC' ? deg(r.f64()) : 0;
      const ext = f.o(1) ? [r.f64(), r.f64(), r.f64()] : null;
      const z = f.o(2) ? r.f64() : elevation;
      f.n(10, x);
      f.n(20, y);
      f.n(30, z);
      f.n(40, radius);
      if (type === 'ARC') {
        f.n(50, start);
        f.n(51, end);
      }
      if (ext) {
        f.n(210, ext[0]);
        f.n(220, ext[1]);
        f.n(230, ext[2]);
      }
      break;
    }
    case 'SOLID':
    case 'TRACE':
      for (const c of [10, 11, 12, 13]) f.xyElev(c);
      if (f.o(1)) f.extrusion();
      break;
    case '3DFACE':
      for (const c of [10, 11, 12, 13]) {
        if (flag & HAS_ELEVATION) f.xy(c);
        else f.xyz(c);
      }
      if (f.o(1)) f.n(70, r.u16());
      break;
    case 'TEXT':
      f.xyElev(10);
      f.real(40);
      f.text(1);
      if (f.o(1)) f.angle(50);
      if (f.o(2)) f.real(41);
      if (f.o(4)) f.angle(51);
      if (f.o(8)) f.style();
      if (f.o(16)) f.n(71, r.u8());
      if (f.o(32)) f.n(72, r.u8());
      if (f.o(64)) f.xyElev(11);
      if (f.o(128)) f.extrusion();
      if (f.o(256)) f.n(73, r.u8());
      break;
    case 'ATTDEF':
    case 'ATTRIB':
      f.xyElev(10);
      f.real(40);
      f.text(1);
      if (type === 'ATTDEF') f.text(3);
      f.text(2);
      f.n(70, r.u8());
      if (f.o(1)) r.f64(); // an elevation, by LibreDWG's notes: the common elevation already placed the text
      if (f.o(2)) f.angle(50);
      if (f.o(4)) f.real(41);
      if (f.o(8)) f.angle(51);
      if (f.o(16)) f.style();
      if (f.o(32)) f.n(71, r.u8());
      if (f.o(64)) f.n(72, r.u8());
      if (f.o(128)) f.xyElev(11);
      if (f.o(256)) f.extrusion();
      if (f.o(512)) f.n(74, r.u8());
      break;
    case 'SHAPE':
      f.xyElev(10);
      f.real(40);
      r.u8(); // shape number in its shape file (not drawn: the shape file is not in the drawing)
      if (f.o(1)) f.angle(50);
      if (f.o(2)) r.u8();
      if (f.o(4)) f.real(41);
      if (f.o(8)) f.angle(51);
      break;
    case 'BLOCK':
      base = { x: r.f64(), y: r.f64(), z: elevation };
      if (f.o(2)) r.text(ctx.decoder); // the path of an external reference
      if (f.o(4)) blockName = r.text(ctx.decoder);
      break;
    case 'ENDBLK':
      break;
    case 'SEQEND':
      r.u32(); // offset of the POLYLINE or INSERT it closes
      break;
    case 'INSERT': {
      if (flag & HAS_CHILDREN) f.n(66, 1);
      out.pushStr(2, ctx.blockName(r.u16()));
      f.xyElev(10);
      if (f.o(1)) f.real(41);
      if (f.o(2)) f.real(42);
      if (f.o(4)) f.angle(50);
      if (f.o(8)) f.real(43);
      if (f.o(16)) f.n(70, r.u16());
      if (f.o(32)) f.n(71, r.u16());
      if (f.o(64)) f.real(44);
      if (f.o(128)) f.real(45);
      if (f.o(256)) f.extrusion();
      break;
    }
    case 'POLYLINE':
      f.n(66, 1);
      f.n(10, 0);
      f.n(20, 0);
      f.n(30, elevation);
      if (f.o(1)) f.n(70, r.u8());
      if (f.o(2)) f.real(40);
      if (f.o(4)) f.real(41);
      if (f.o(8)) f.extrusion();
      if (f.o(16)) f.n(71, r.u16());
      if (f.o(32)) f.n(72, r.u16());
      if (f.o(64)) f.n(73, r.u16());
      if (f.o(128)) f.n(74, r.u16());
      if (f.o(256)) f.n(75, r.u16());
      break;
    case 'VERTEX':
      // face records of a polyface mesh have no point
      if (f.o(0x4000)) {
        f.n(10, 0);
        f.n(20, 0);
        f.n(30, 0);
      }
      else f.xyElev(10);
      if (f.o(1)) f.real(40);
      if (f.o(2)) f.real(41);
      if (f.o(4)) f.real(42);
      if (f.o(8)) f.n(70, r.u8());
      if (f.o(16)) f.angle(50);
      if (f.o(32)) f.n(71, r.i16());
      if (f.o(64)) f.n(72, r.i16());
      if (f.o(128)) f.n(73, r.i16());
      if (f.o(512)) f.n(74, r.i16());
      break;
    case 'DIMENSION': {
      out.pushStr(2, ctx.blockName(r.u16()));
      f.xyz(10);
      f.xyElev(11);
      if (f.o(1)) f.xyElev(12);
      if (f.o(2)) f.n(70, r.u8());
      if (f.o(4)) f.text(1);
      // the points and values of every dimension kind, each present by its own bit, always in this order
      if (f.o(8)) f.xyz(13);
      if (f.o(16)) f.xyz(14);
      if (f.o(32)) f.xyz(15);
      if (f.o(64)) f.xy(16);
      if (f.o(128)) f.real(40);
      if (f.o(0x100)) f.angle(50);
      if (f.o(0x200)) f.angle(52);
      if (f.o(0x400)) f.angle(53);
      if (f.o(0x4000)) f.extrusion();
      if (f.o(0x8000)) {
        const s = ctx.tables.dimStyles[r.u16()];
        if (s) out.pushStr(3, s);
      }
      break;
    }
    case 'VIEWPORT':
      f.xyz(10);
      f.real(40);
      f.real(41);
      f.n(69, r.u16());
      break;
  }
  for (const [code, v] of xdata) typeof v === 'number' ? out.pushNum(code, v) : out.pushStr(code, v);
  return { layer, color, paperSpace, handle, linetype: linetype && linetype !== 'BYLAYER' ? linetype : undefined, hasChildren: (flag & HAS_CHILDREN) !== 0, blockName, base };
}

/**
 * The field readers of one record: each reads its value(s) from the record and writes the DXF pairs. A class, not
 * closures made per record: closures cost an allocation (and, under tsx, a naming call) per record each.
 */
class Fields {
  constructor(
    private readonly r: ByteReader,
    private readonly out: PairStore,
    private readonly ctx: ReadContext,
    private readonly opts: number,
    private readonly elevation: number,
  ) {}

  /** an optional field is present (its bit in opts) */
  o(bit: number): boolean {
    return (this.opts & bit) !== 0;
  }

  n(code: number, v: number) {
    this.out.pushNum(code, v);
  }

  xy(code: number) {
    this.out.pushNum(code, this.r.f64());
    this.out.pushNum(code + 10, this.r.f64());
  }

  xyz(code: number) {
    this.xy(code);
    this.out.pushNum(code + 20, this.r.f64());
  }

  /** a 2D point at the entity's elevation */
  xyElev(code: number) {
    this.xy(code);
    this.out.pushNum(code + 20, this.elevation);
  }

  extrusion() {
    this.xyz(210);
  }

  /** an angle: radians in the file, degrees in DXF */
  angle(code: number) {
    this.out.pushNum(code, deg(this.r.f64()));
  }

  real(code: number) {
    this.out.pushNum(code, this.r.f64());
  }

  text(code: number) {
    this.out.pushStr(code, this.r.text(this.ctx.decoder));
  }

  /** a text style by its index (one byte) */
  style() {
    this.out.pushStr(7, this.ctx.tables.styles[this.r.u8()]?.name || 'STANDARD');
  }
}
