import type { Point3 } from '../../model/drawing.ts';
import { ByteReader, r12Error } from './byte-reader.ts';

/**
 * The fixed part of a pre-R13 DWG: the version, where the three entity sections lie, and the descriptors of
 * the five original tables (BLOCK, LAYER, STYLE, LTYPE, VIEW). Layout as LibreDWG's header.spec and
 * decode_r11.c read it (GPL code read as documentation, none copied); offsets checked on the R11 sample.
 */
export interface TableDescriptor {
  /** bytes per entry */
  size: number;
  number: number;
  address: number;
}

export interface SectionSpan {
  start: number;
  end: number;
}

export interface FileHeader {
  version: 'AC1006' | 'AC1009';
  /** R11/R12 files add 16-byte sentinels around sections, a CRC after every record and a "used" count per table entry */
  r11: boolean;
  numVars: number;
  entities: SectionSpan;
  blocks: SectionSpan;
  extras: SectionSpan;
  tables: { block: TableDescriptor; layer: TableDescriptor; style: TableDescriptor; ltype: TableDescriptor; view: TableDescriptor };
}

export const VERSIONS = new Set(['AC1006', 'AC1009']);

/** Offset of the header variables: right after the five table descriptors. */
const VARS_AT = 0x5e;

export function readFileHeader(bytes: Uint8Array): FileHeader {
  const r = new ByteReader(bytes);
  const version = String.fromCharCode(...r.raw(6));
  if (!VERSIONS.has(version)) throw r12Error(`version ${version} is not R10–R12`);
  // 0x06: zeros up to the maintenance byte, 0x0c: the "zero, one or three" byte
  r.pos = 0x0d;
  r.u16(); // entity sections (3)
  r.u16(); // sections (5 tables)
  const numVars = r.u16();
  r.u8();
  const entitiesStart = r.u32(), entitiesEnd = r.u32();
  const blocksStart = r.u32(), blocksSize = r.u32();
  const extrasStart = r.u32(), extrasSize = r.u32();
  const descriptor = (): TableDescriptor => ({ size: r.u16(), number: r.i16(), address: (r.u16(), r.u32()) });
  const tables = { block: descriptor(), layer: descriptor(), style: descriptor(), ltype: descriptor(), view: descriptor() };
  if (r.pos !== VARS_AT) throw r12Error('header layout');
  // the top bits of the block and extra section sizes are flags (0x40000000 on blocks, 0x80000000 on an empty extras)
  const span = (start: number, size: number): SectionSpan => ({ start, end: start + (size & 0x3fffffff) });
  const h: FileHeader = { version: version as FileHeader['version'], r11: version === 'AC1009', numVars, entities: { start: entitiesStart, end: entitiesEnd }, blocks: span(blocksStart, blocksSize), extras: span(extrasStart, extrasSize), tables };
  // the variables alone fill 0x5e–0x1f9 even in the oldest layout: anything shorter is not a drawing
  if (bytes.length < 0x200) throw r12Error(`file of ${bytes.length} bytes is too short`);
  for (const [name, s] of Object.entries({ entities: h.entities, blocks: h.blocks, extras: h.extras })) {
    if (s.end === s.start) continue;
    if (s.start < VARS_AT || s.end < s.start || s.end > bytes.length) throw r12Error(`${name} section 0x${s.start.toString(16)}–0x${s.end.toString(16)} outside the file`);
  }
  for (const [name, t] of Object.entries(tables)) checkTable(name, t, bytes.length);
  return h;
}

/** A table descriptor that points outside the file (or has entries too small for a name) is a damaged file. */
export function checkTable(name: string, t: TableDescriptor, fileLength: number) {
  if (t.number < 0) throw r12Error(`${name} table with ${t.number} entries`);
  if (t.number === 0) return;
  if (t.size < 33 || t.address < VARS_AT || t.address + t.number * t.size > fileLength) throw r12Error(`${name} table (${t.number} × ${t.size} bytes at 0x${t.address.toString(16)}) outside the file`);
}

type Kind = 'RC' | 'RS' | 'RD' | '2RD' | '3RD' | 'TBL' | 'CP' | number;

/**
 * The header variables in file order, [DXF name or '' to skip, kind]. A number is that many bytes skipped (fixed
 * strings, timestamps, unknown words); 'TBL' is one of the later tables' 10-byte descriptors, 'CP' the code page.
 * Older files stop after fewer variables (`numVars` 74 … 205): the `stop` marks say where. Angles are radians here
 * and degrees in DXF, see DEGREES.
 */
const LAYOUT: ([string, Kind] | { stop: number })[] = [
  ['$INSBASE', '3RD'], ['$PLINEGEN', 'RS'], ['$EXTMIN', '3RD'], ['$EXTMAX', '3RD'], ['$LIMMIN', '2RD'], ['$LIMMAX', '2RD'],
  ['$VIEWCTR', '3RD'], ['$VIEWSIZE', 'RD'], ['$SNAPMODE', 'RS'], ['$SNAPUNIT', '2RD'], ['$SNAPBASE', '2RD'], ['$SNAPANG', 'RD'],
  ['$SNAPSTYLE', 'RS'], ['$SNAPISOPAIR', 'RS'], ['$GRIDMODE', 'RS'], ['$GRIDUNIT', '2RD'], ['$ORTHOMODE', 'RS'], ['$REGENMODE', 'RS'],
  ['$FILLMODE', 'RS'], ['$QTEXTMODE', 'RS'], ['$DRAGMODE', 'RS'], ['$LTSCALE', 'RD'], ['$TEXTSIZE', 'RD'], ['$TRACEWID', 'RD'],
  ['$CLAYER', 'RS'], ['', 8], ['', 2], ['$PSLTSCALE', 'RS'], ['$TREEDEPTH', 'RS'], ['', 2], ['', 8],
  ['$LUNITS', 'RS'], ['$LUPREC', 'RS'], ['$AXISMODE', 'RS'], ['$AXISUNIT', '2RD'], ['$SKETCHINC', 'RD'], ['$FILLETRAD', 'RD'],
  ['$AUNITS', 'RS'], ['$AUPREC', 'RS'], ['$TEXTSTYLE', 'RS'], ['$OSMODE', 'RS'], ['$ATTMODE', 'RS'], ['', 15],
  ['$DIMSCALE', 'RD'], ['$DIMASZ', 'RD'], ['$DIMEXO', 'RD'], ['$DIMDLI', 'RD'], ['$DIMEXE', 'RD'], ['$DIMTP', 'RD'], ['$DIMTM', 'RD'],
  ['$DIMTXT', 'RD'], ['$DIMCEN', 'RD'], ['$DIMTSZ', 'RD'], ['$DIMTOL', 'RC'], ['$DIMLIM', 'RC'], ['$DIMTIH', 'RC'], ['$DIMTOH', 'RC'],
  ['$DIMSE1', 'RC'], ['$DIMSE2', 'RC'], ['$DIMTAD', 'RC'],
  { stop: 74 },
  ['$LIMCHECK', 'RC'], ['', 46], ['$ELEVATION', 'RD'], ['$THICKNESS', 'RD'], ['$VIEWDIR', '3RD'], ['', 6 * 24], ['', 2], ['$BLIPMODE', 'RS'],
  { stop: 83 },
  ['$DIMZIN', 'RC'], ['$DIMRND', 'RD'], ['$DIMDLE', 'RD'], ['', 33], ['', 2], ['$COORDS', 'RS'], ['$CECOLOR', 'RS'], ['', 2], ['', 4 * 8],
  ['$USRTIMER', 'RS'], ['$FASTZOOM', 'RS'], ['$SKPOLY', 'RS'], ['', 7 * 2], ['$ANGBASE', 'RD'], ['$ANGDIR', 'RS'],
  { stop: 101 },
  ['$PDMODE', 'RS'], ['$PDSIZE', 'RD'], ['$PLINEWID', 'RD'],
  { stop: 104 },
  ['$USERI1', 'RS'], ['$USERI2', 'RS'], ['$USERI3', 'RS'], ['$USERI4', 'RS'], ['$USERI5', 'RS'],
  ['$USERR1', 'RD'], ['$USERR2', 'RD'], ['$USERR3', 'RD'], ['$USERR4', 'RD'], ['$USERR5', 'RD'],
  { stop: 114 },
  ['$DIMALT', 'RC'], ['$DIMALTD', 'RC'], ['$DIMASO', 'RC'], ['$DIMSHO', 'RC'], ['', 16], ['', 16],
  { stop: 120 },
  ['$DIMALTF', 'RD'], ['$DIMLFAC', 'RD'],
  { stop: 122 },
  ['$SPLINESEGS', 'RS'], ['$SPLFRAME', 'RS'], ['$ATTREQ', 'RS'], ['$ATTDIA', 'RS'], ['$CHAMFERA', 'RD'], ['$CHAMFERB', 'RD'], ['$MIRRTEXT', 'RS'],
  { stop: 129 },
  ['UCS', 'TBL'], ['$DWGCODEPAGE', 'CP'], ['$UCSORG', '3RD'], ['$UCSXDIR', '3RD'], ['$UCSYDIR', '3RD'], ['', 24], ['', 4 * 8], ['', 2],
  ['$DIMTOFL', 'RC'], ['', 33], ['', 33], ['$DIMSAH', 'RC'], ['$DIMTIX', 'RC'], ['$DIMSOXD', 'RC'], ['$DIMTVP', 'RD'], ['', 33],
  ['$HANDLING', 'RS'], ['', 8], ['$SURFU', 'RS'], ['$SURFV', 'RS'], ['$SURFTYPE', 'RS'], ['$SURFTAB1', 'RS'], ['$SURFTAB2', 'RS'],
  ['VPORT', 'TBL'], ['$FLATLAND', 'RS'], ['$SPLINETYPE', 'RS'], ['$UCSICON', 'RS'], ['', 2],
  { stop: 158 },
  ['APPID', 'TBL'], ['$WORLDVIEW', 'RS'],
  { stop: 160 },
  ['', 4], ['DIMSTYLE', 'TBL'], ['', 5], ['$DIMCLRD', 'RS'], ['$DIMCLRE', 'RS'], ['$DIMCLRT', 'RS'], ['$SHADEDGE', 'RS'], ['$SHADEDIF', 'RS'],
  ['', 2], ['$UNITMODE', 'RS'], ['', 4 * 8], ['', 4 * 32], ['$DIMTFAC', 'RD'], ['$PUCSORG', '3RD'], ['$PUCSXDIR', '3RD'], ['$PUCSYDIR', '3RD'],
  ['', 2], ['$TILEMODE', 'RS'], ['$PLIMCHECK', 'RS'], ['', 2], ['$PEXTMIN', '3RD'], ['$PEXTMAX', '3RD'], ['$PLIMMIN', '2RD'], ['$PLIMMAX', '2RD'],
  ['$PINSBASE', '3RD'], ['VX', 'TBL'], ['$MAXACTVP', 'RS'], ['$DIMGAP', 'RD'], ['$PELEVATION', 'RD'],
  { stop: 204 },
  ['$VISRETAIN', 'RS'],
];

const DEGREES = new Set(['$SNAPANG', '$ANGBASE']);

/** $DWGCODEPAGE names of the DWG code page numbers (LibreDWG's codepages.h numbering); others read as ANSI_1252. */
const CODE_PAGES: Record<number, string> = {
  28: 'ANSI_1250', 29: 'ANSI_1251', 30: 'ANSI_1252', 32: 'ANSI_1253', 33: 'ANSI_1254', 34: 'ANSI_1255', 35: 'ANSI_1256', 36: 'ANSI_1257',
  37: 'ANSI_874', 38: 'ANSI_932', 39: 'ANSI_936', 40: 'ANSI_949', 41: 'ANSI_950', 42: 'ANSI_1361', 44: 'ANSI_1258',
};

export interface HeaderVars {
  /** DXF-named values, points as their x like the DXF reader keeps them; table indexes ($CLAYER, $TEXTSTYLE) as numbers */
  vars: Record<string, number | string>;
  points: Record<string, Point3>;
  codePage: string;
  /** descriptors of the tables R10/R11 added inside the variables (UCS, VPORT, APPID, DIMSTYLE, VX) */
  tables: Record<string, TableDescriptor>;
}

export function readHeaderVars(bytes: Uint8Array, h: FileHeader): HeaderVars {
  const r = new ByteReader(bytes, VARS_AT, Math.min(bytes.length, h.entities.start || bytes.length));
  const out: HeaderVars = { vars: {}, points: {}, codePage: 'ANSI_1252', tables: {} };
  for (const item of LAYOUT) {
    if ('stop' in item) {
      if (h.numVars <= item.stop) break;
      continue;
    }
    const [name, kind] = item;
    if (typeof kind === 'number') {
      r.skip(kind);
      continue;
    }
    switch (kind) {
      case 'RC':
        out.vars[name] = r.u8();
        break;
      case 'RS':
        out.vars[name] = r.i16();
        break;
      case 'RD': {
        const v = r.f64();
        out.vars[name] = DEGREES.has(name) ? (v * 180) / Math.PI : v;
        break;
      }
      case '2RD':
      case '3RD': {
        const p = { x: r.f64(), y: r.f64(), z: kind === '3RD' ? r.f64() : 0 };
        out.points[name] = p;
        out.vars[name] = p.x;
        break;
      }
      case 'TBL':
        out.tables[name] = { size: r.u16(), number: r.i16(), address: (r.u16(), r.u32()) };
        break;
      case 'CP':
        out.codePage = CODE_PAGES[r.u16()] ?? 'ANSI_1252';
        out.vars[name] = out.codePage;
        break;
    }
  }
  return out;
}
