import type { Entity, Pair } from '../../model/drawing.ts';
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
 * them (read as documentation, no code taken), checked against the R11 sample.
 */

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

export function readRecord(section: ByteReader, at: number, ctx: ReadContext): RecordRead {
  section.pos = at;
  const typeByte = section.u8();
  const flag = section.u8();
  const size = section.u16();
  const crc = ctx.r11 ? 2 : 0;
  if (size < 4 + crc) throw r12Error(`record of ${size} bytes at 0x${at.toString(16)}`);
  const next = at + size;
  // the record's own bytes, without its CRC: no field of it may be read outside
  const r = section.window(at, size);
  r.pos = at + 4;
  const body = new ByteReader(r.bytes, r.pos, next - crc);
  const code = typeByte & 0x7f;
  if (typeByte & 0x80 || STRUCTURE.has(code)) return { next, skip: true, hasChildren: false };
  const type = TYPE_NAMES[code];
  if (!type) {
    // a type no version we know writes: kept (counted, shown as not drawn), never guessed at
    return { next, skip: false, hasChildren: false, entity: { type: `R12_TYPE_${code}`, layer: '0', color: 256, paperSpace: false, pairs: [] } };
  }
  return { next, skip: false, ...readEntity(body, type, flag, ctx) };
}

function readEntity(r: ByteReader, type: string, flag: number, ctx: ReadContext): Omit<RecordRead, 'next' | 'skip'> {
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
  const pairs: Pair[] = [];
  if (handle) pairs.push([5, handle]);
  pairs.push([8, layer]);
  if (linetype && linetype !== 'BYLAYER') pairs.push([6, linetype]);
  if (color !== 256) pairs.push([62, color]);
  if (paperSpace) pairs.push([67, 1]);
  if (thickness) pairs.push([39, thickness]);

  const o = (bit: number) => (opts & bit) !== 0;
  const xy = (code: number) => pairs.push([code, r.f64()], [code + 10, r.f64()]);
  const xyz = (code: number) => pairs.push([code, r.f64()], [code + 10, r.f64()], [code + 20, r.f64()]);
  const xyElev = (code: number) => {
    xy(code);
    pairs.push([code + 20, elevation]);
  };
  const extrusion = () => xyz(210);
  const angle = (code: number) => pairs.push([code, deg(r.f64())]);
  const real = (code: number) => pairs.push([code, r.f64()]);
  const text = (code: number) => pairs.push([code, r.text(ctx.decoder)]);
  const style = () => pairs.push([7, ctx.tables.styles[r.u8()]?.name || 'STANDARD']);
  let blockName: string | undefined;
  let base: RecordRead['base'];

  switch (type) {
    case 'LINE':
    case '3DLINE':
      if (flag & HAS_ELEVATION) {
        xy(10);
        xy(11);
      } else {
        xyz(10);
        xyz(11);
      }
      if (o(1)) extrusion();
      break;
    case 'POINT':
      xy(10);
      pairs.push([30, flag & HAS_ELEVATION ? 0 : r.f64()]);
      if (o(1)) extrusion();
      if (o(2)) angle(50);
      break;
    case 'CIRCLE':
    case 'ARC': {
      const x = r.f64(), y = r.f64(), radius = r.f64();
      const start = type === 'ARC' ? deg(r.f64()) : 0, end = type === 'ARC' ? deg(r.f64()) : 0;
      const ext = o(1) ? [r.f64(), r.f64(), r.f64()] : null;
      const z = o(2) ? r.f64() : elevation;
      pairs.push([10, x], [20, y], [30, z], [40, radius]);
      if (type === 'ARC') pairs.push([50, start], [51, end]);
      if (ext) pairs.push([210, ext[0]], [220, ext[1]], [230, ext[2]]);
      break;
    }
    case 'SOLID':
    case 'TRACE':
      for (const c of [10, 11, 12, 13]) xyElev(c);
      if (o(1)) extrusion();
      break;
    case '3DFACE':
      for (const c of [10, 11, 12, 13]) (flag & HAS_ELEVATION ? xy : xyz)(c);
      if (o(1)) pairs.push([70, r.u16()]);
      break;
    case 'TEXT':
      xyElev(10);
      real(40);
      text(1);
      if (o(1)) angle(50);
      if (o(2)) real(41);
      if (o(4)) angle(51);
      if (o(8)) style();
      if (o(16)) pairs.push([71, r.u8()]);
      if (o(32)) pairs.push([72, r.u8()]);
      if (o(64)) xyElev(11);
      if (o(128)) extrusion();
      if (o(256)) pairs.push([73, r.u8()]);
      break;
    case 'ATTDEF':
    case 'ATTRIB':
      xyElev(10);
      real(40);
      text(1);
      if (type === 'ATTDEF') text(3);
      text(2);
      pairs.push([70, r.u8()]);
      if (o(1)) r.f64(); // an elevation, by LibreDWG's notes: the common elevation already placed the text
      if (o(2)) angle(50);
      if (o(4)) real(41);
      if (o(8)) angle(51);
      if (o(16)) style();
      if (o(32)) pairs.push([71, r.u8()]);
      if (o(64)) pairs.push([72, r.u8()]);
      if (o(128)) xyElev(11);
      if (o(256)) extrusion();
      if (o(512)) pairs.push([74, r.u8()]);
      break;
    case 'SHAPE':
      xyElev(10);
      real(40);
      r.u8(); // shape number in its shape file (not drawn: the shape file is not in the drawing)
      if (o(1)) angle(50);
      if (o(2)) r.u8();
      if (o(4)) real(41);
      if (o(8)) angle(51);
      break;
    case 'BLOCK':
      base = { x: r.f64(), y: r.f64(), z: elevation };
      if (o(2)) r.text(ctx.decoder); // the path of an external reference
      if (o(4)) blockName = r.text(ctx.decoder);
      break;
    case 'ENDBLK':
      break;
    case 'SEQEND':
      r.u32(); // offset of the POLYLINE or INSERT it closes
      break;
    case 'INSERT': {
      if (flag & HAS_CHILDREN) pairs.push([66, 1]);
      pairs.push([2, ctx.blockName(r.u16())]);
      xyElev(10);
      if (o(1)) real(41);
      if (o(2)) real(42);
      if (o(4)) angle(50);
      if (o(8)) real(43);
      if (o(16)) pairs.push([70, r.u16()]);
      if (o(32)) pairs.push([71, r.u16()]);
      if (o(64)) real(44);
      if (o(128)) real(45);
      if (o(256)) extrusion();
      break;
    }
    case 'POLYLINE':
      pairs.push([66, 1], [10, 0], [20, 0], [30, elevation]);
      if (o(1)) pairs.push([70, r.u8()]);
      if (o(2)) real(40);
      if (o(4)) real(41);
      if (o(8)) extrusion();
      if (o(16)) pairs.push([71, r.u16()]);
      if (o(32)) pairs.push([72, r.u16()]);
      if (o(64)) pairs.push([73, r.u16()]);
      if (o(128)) pairs.push([74, r.u16()]);
      if (o(256)) pairs.push([75, r.u16()]);
      break;
    case 'VERTEX':
      // face records of a polyface mesh have no point
      if (o(0x4000)) pairs.push([10, 0], [20, 0], [30, 0]);
      else xyElev(10);
      if (o(1)) real(40);
      if (o(2)) real(41);
      if (o(4)) real(42);
      if (o(8)) pairs.push([70, r.u8()]);
      if (o(16)) angle(50);
      if (o(32)) pairs.push([71, r.i16()]);
      if (o(64)) pairs.push([72, r.i16()]);
      if (o(128)) pairs.push([73, r.i16()]);
      if (o(512)) pairs.push([74, r.i16()]);
      break;
    case 'DIMENSION': {
      pairs.push([2, ctx.blockName(r.u16())]);
      xyz(10);
      xyElev(11);
      if (o(1)) xyElev(12);
      if (o(2)) pairs.push([70, r.u8()]);
      if (o(4)) text(1);
      // the points and values of every dimension kind, each present by its own bit, always in this order
      if (o(8)) xyz(13);
      if (o(16)) xyz(14);
      if (o(32)) xyz(15);
      if (o(64)) xy(16);
      if (o(128)) real(40);
      if (o(0x100)) angle(50);
      if (o(0x200)) angle(52);
      if (o(0x400)) angle(53);
      if (o(0x4000)) extrusion();
      if (o(0x8000)) {
        const s = ctx.tables.dimStyles[r.u16()];
        if (s) pairs.push([3, s]);
      }
      break;
    }
    case 'VIEWPORT':
      xyz(10);
      real(40);
      real(41);
      pairs.push([69, r.u16()]);
      break;
  }
  if (xdata.length) pairs.push(...xdata);
  const entity: Entity = { type: type === '3DLINE' ? 'LINE' : type, layer, color, paperSpace, pairs };
  if (handle) entity.handle = handle;
  if (linetype && linetype !== 'BYLAYER') entity.linetype = linetype;
  return { entity, hasChildren: (flag & HAS_CHILDREN) !== 0, blockName, base };
}
