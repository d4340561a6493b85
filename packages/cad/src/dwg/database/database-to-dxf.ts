import { DxfOut, has, num, pt, rec, recs, str, type Rec, type XY } from './dxf-out.ts';
import { aciToRgb } from '../../geometry/aci.ts';
import { dxfLineweight, writeEntity, writeInsertChildren, type Where } from './entities.ts';

/**
 * The fallback path of the DWG reader (dwg-reader.ts): when LibreDWG's DXF writer fails on a file, its object
 * reader still gives a DwgDatabase (`dwg_read_data` + `convert`). This writes that database as DXF text, which
 * then goes through parseDxf like every other DWG, so one reader builds the model whichever path a file took.
 * It writes what the model reads: the header variables, the LAYER/LTYPE/STYLE/DIMSTYLE/BLOCK_RECORD tables,
 * every block with its entities (anonymous *D/*T blocks and the paper spaces included), the model and active
 * paper space entities, and the LAYOUT objects that name the paper layouts.
 */

export interface DatabaseToDxfOptions {
  /** $ACADVER of the DWG (its first six bytes, e.g. AC1018) */
  version: string;
  /** $DWGCODEPAGE as LibreDWG reports it (e.g. ANSI_1252) */
  codePage?: string;
}

const MODEL = '*model_space';
const PAPER = '*paper_space';

export function databaseToDxf(db: Rec, o: DatabaseToDxfOptions): string {
  const out = new DxfOut(o.version >= 'AC1021');
  const tables = rec(db.tables);
  const records = entries(tables, 'BLOCK_RECORD');
  header(out, rec(db.header), o);
  writeTables(out, tables, records, o.version);
  const blockNames = new Map(records.map((r) => [str(r, 'handle'), str(r, 'name')]));
  const lineweights = o.version >= 'AC1015';
  blocks(out, records, blockNames, lineweights);
  entitiesSection(out, records, blockNames, lineweights);
  objects(out, recs(rec(db.objects).LAYOUT));
  acdsData(out, records);
  out.pair(0, 'EOF');
  return out.toString();
}

const entries = (tables: Rec, name: string) => recs(rec(tables[name]).entries);

function section(out: DxfOut, name: string, body: () => void) {
  out.pair(0, 'SECTION').pair(2, name);
  body();
  out.pair(0, 'ENDSEC');
}

/** the header: version and code page from the DWG itself, then every variable LibreDWG read, by its kind */
function header(out: DxfOut, h: Rec, o: DatabaseToDxfOptions) {
  section(out, 'HEADER', () => {
    out.pair(9, '$ACADVER').pair(1, o.version);
    out.pair(9, '$DWGCODEPAGE').pair(3, o.codePage || 'ANSI_1252');
    out.pair(9, '$INSUNITS').pair(70, Math.trunc(num(h, 'INSUNITS')));
    const min = pt(h, 'EXTMIN'), max = pt(h, 'EXTMAX');
    // an empty drawing keeps ±1e20 there: such extents say nothing
    if (knownExtents(min, max)) out.pair(9, '$EXTMIN').point(10, min).pair(9, '$EXTMAX').point(10, max);
    for (const [name, value] of Object.entries(h)) {
      if (SPECIAL.has(name)) continue;
      headerVar(out, name, value);
    }
  });
}

const SPECIAL = new Set(['ACADVER', 'DWGCODEPAGE', 'INSUNITS', 'EXTMIN', 'EXTMAX']);

function knownExtents(min: XY, max: XY) {
  return [min.x, min.y, max.x, max.y].every((v) => Number.isFinite(v) && Math.abs(v) < 1e19) && min.x <= max.x && min.y <= max.y;
}

function headerVar(out: DxfOut, name: string, value: unknown) {
  if (typeof value === 'number') out.pair(9, `$${name}`).pair(Number.isInteger(value) ? 70 : 40, value);
  else if (typeof value === 'string') out.pair(9, `$${name}`).pair(1, value);
  else if (typeof value === 'boolean') out.pair(9, `$${name}`).pair(290, value ? 1 : 0);
  else if (value && typeof value === 'object') {
    const v = value as Rec;
    // points; colours (CECOLOR, DIMCLRD …) as their ACI index
    if (typeof v.x === 'number' && typeof v.y === 'number') out.pair(9, `$${name}`).point(10, pt({ v }, 'v'), typeof v.z === 'number');
    else if (typeof v.index === 'number') out.pair(9, `$${name}`).pair(62, v.index);
  }
}

function table(out: DxfOut, name: string, list: Rec[], entry: (e: Rec) => void) {
  out.pair(0, 'TABLE').pair(2, name).pair(70, list.length);
  for (const e of list) {
    out.pair(0, name);
    if (has(e, 'handle')) out.pair(5, str(e, 'handle'));
    entry(e);
  }
  out.pair(0, 'ENDTAB');
}

function writeTables(out: DxfOut, tables: Rec, records: Rec[], version: string) {
  section(out, 'TABLES', () => {
    table(out, 'LTYPE', entries(tables, 'LTYPE'), (e) => ltype(out, e));
    table(out, 'LAYER', entries(tables, 'LAYER'), (e) => layer(out, e, version));
    table(out, 'STYLE', entries(tables, 'STYLE'), (e) => style(out, e));
    table(out, 'DIMSTYLE', entries(tables, 'DIMSTYLE'), (e) => out.pair(100, 'AcDbDimStyleTableRecord').pair(2, str(e, 'name')).pair(70, 0));
    table(out, 'BLOCK_RECORD', records, (e) => out.pair(100, 'AcDbBlockTableRecord').pair(2, str(e, 'name')).pair(70, Math.trunc(num(e, 'insertionUnits'))));
  });
}

/** LibreDWG's converter gives a layer without a true colour the rgb 0xFFFFFF */
const NO_TRUE_COLOR = 0xffffff;

/**
 * On/off is the colour's sign; frozen and locked are bits 1 and 4 of 70, taken from the layer's flags (`standardFlag`,
 * DXF's meaning): LibreDWG's converter reads `locked` from a misspelt field, which makes every layer locked. A true
 * colour layer comes with no colour index: 420 carries the colour, 62 the nearest index.
 */
function layer(out: DxfOut, e: Rec, version: string) {
  const index = Math.abs(Math.trunc(num(e, 'colorIndex', 7)));
  const rgb = has(e, 'color') ? num(e, 'color', NO_TRUE_COLOR) & 0xffffff : NO_TRUE_COLOR;
  const trueColor = (index < 1 || index > 255) && rgb !== NO_TRUE_COLOR;
  const color = index >= 1 && index <= 255 ? index : trueColor ? nearestAci(rgb) : 7;
  const std = Math.trunc(num(e, 'standardFlag'));
  const flags = (e.frozen === true || std & 1 ? 1 : 0) | (std & 4 ? 4 : 0);
  out.pair(100, 'AcDbLayerTableRecord').pair(2, str(e, 'name')).pair(70, flags).pair(62, e.off === true ? -color : color);
  if (trueColor) out.pair(420, rgb);
  out.pair(6, str(e, 'lineType', 'Continuous') || 'Continuous').pair(290, num(e, 'plotFlag', 1)).pair(370, layerLineweight(num(e, 'lineweight', 31), version));
}

/**
 * R13/R14 layers have no lineweight (LibreDWG gives 0): Default, as LibreDWG's own DXF writer has it; so does index
 * 0 of later files, which that writer also writes as Default.
 */
function layerLineweight(index: number, version: string): number {
  return version < 'AC1015' || index === 0 ? -3 : dxfLineweight(index);
}

/** the colour index (1–255) closest to an rgb colour */
export function nearestAci(rgb: number): number {
  let best = 7, bestD = Infinity;
  for (let i = 1; i <= 255; i++) {
    // ACI 255 is the white 0xFFFFFF that the colour model stores one step below (geometry/aci.ts WHITE)
    const c = i === 255 ? 0xffffff : aciToRgb(i);
    const d = ((c >> 16) - (rgb >> 16)) ** 2 + (((c >> 8) & 255) - ((rgb >> 8) & 255)) ** 2 + ((c & 255) - (rgb & 255)) ** 2;
    if (d < bestD) [best, bestD] = [i, d];
  }
  return best;
}

/** the dash pattern: one 49 per element (positive dash, negative gap, 0 dot) */
function ltype(out: DxfOut, e: Rec) {
  const pattern = recs(e.pattern);
  out.pair(100, 'AcDbLinetypeTableRecord').pair(2, str(e, 'name')).pair(70, 0).pair(3, str(e, 'description')).pair(72, 65);
  out.pair(73, pattern.length).pair(40, num(e, 'totalPatternLength'));
  // shapes and texts inside a linetype (74 ≠ 0) are not in the model: only their dash lengths are written
  for (const p of pattern) out.pair(49, num(p, 'elementLength')).pair(74, 0);
}

function style(out: DxfOut, e: Rec) {
  out.pair(100, 'AcDbTextStyleTableRecord').pair(2, str(e, 'name')).pair(70, Math.trunc(num(e, 'standardFlag')) & ~64);
  out.pair(40, num(e, 'fixedTextHeight')).pair(41, num(e, 'widthFactor', 1)).angle(50, num(e, 'obliqueAngle'));
  out.pair(71, Math.trunc(num(e, 'textGenerationFlag'))).pair(42, num(e, 'lastHeight', 1)).pair(3, str(e, 'font')).pair(4, str(e, 'bigFont'));
}

const isModel = (r: Rec) => str(r, 'name').toLowerCase() === MODEL;
/** the active paper space is *Paper_Space; the other layouts' are *Paper_Space0, 1 … and stay blocks */
const isActivePaper = (r: Rec) => str(r, 'name').toLowerCase() === PAPER;
const isPaper = (r: Rec) => str(r, 'name').toLowerCase().startsWith(PAPER);

/** every block record is a BLOCK … ENDBLK; model space and the active paper space keep their entities in ENTITIES */
function blocks(out: DxfOut, records: Rec[], blockNames: Map<string, string>, lineweights: boolean) {
  section(out, 'BLOCKS', () => {
    for (const r of records) {
      const handle = str(r, 'handle');
      const name = str(r, 'name');
      out.pair(0, 'BLOCK').pair(330, handle).pair(100, 'AcDbEntity');
      if (isPaper(r)) out.pair(67, 1);
      out.pair(8, '0').pair(100, 'AcDbBlockBegin').pair(2, name).pair(70, Math.trunc(num(r, 'flags')) & 7).point(10, pt(r, 'basePoint')).pair(3, name).pair(1, '');
      if (!isModel(r) && !isActivePaper(r)) writeList(out, recs(r.entities), { owner: handle, paper: isPaper(r), blockNames, lineweights });
      out.pair(0, 'ENDBLK').pair(330, handle).pair(100, 'AcDbEntity');
      if (isPaper(r)) out.pair(67, 1);
      out.pair(8, '0').pair(100, 'AcDbBlockEnd');
    }
  });
}

function entitiesSection(out: DxfOut, records: Rec[], blockNames: Map<string, string>, lineweights: boolean) {
  section(out, 'ENTITIES', () => {
    for (const r of records) {
      if (isModel(r) || isActivePaper(r)) writeList(out, recs(r.entities), { owner: str(r, 'handle'), paper: isActivePaper(r), blockNames, lineweights });
    }
  });
}

/**
 * One block's entities. LibreDWG lists an INSERT's ATTRIBs inside the INSERT (`attribs`); in DXF they follow it
 * before a SEQEND, so they are written there and nowhere else.
 */
function writeList(out: DxfOut, list: Rec[], at: Where) {
  for (const e of at.paper ? numberViewports(list) : list) {
    if (str(e, 'type') === 'ATTRIB') continue;
    writeEntity(out, e, at);
    if (str(e, 'type') === 'INSERT') writeInsertChildren(out, e, at);
  }
}

/** DXF VIEWPORT flag 90: the viewport is switched off */
const VIEWPORT_OFF = 131072;

/**
 * A layout's viewports numbered as DXF does, per layout: 1 is the first, the sheet itself (which our layout code
 * skips), then the views on it. LibreDWG's `viewportId` counts across the drawing and its `status` is 0 for every
 * viewport; DXF's status (68) is 0 for a viewport that is off, its stacking order otherwise, from the DWG flags.
 */
export function numberViewports(list: Rec[]): Rec[] {
  let n = 0;
  return list.map((e) => {
    if (str(e, 'type') !== 'VIEWPORT') return e;
    n++;
    const off = (num(e, 'statusBitFlags') & VIEWPORT_OFF) !== 0;
    return { ...e, viewportId: n, status: off ? 0 : n };
  });
}

/** LAYOUT objects: name, tab order, limits and the block record of each layout (the paper layouts' entities are found by it) */
function objects(out: DxfOut, layouts: Rec[]) {
  section(out, 'OBJECTS', () => {
    for (const l of layouts) {
      out.pair(0, 'LAYOUT').pair(5, str(l, 'handle')).pair(100, 'AcDbPlotSettings').pair(1, '');
      out.pair(100, 'AcDbLayout').pair(1, str(l, 'layoutName')).pair(70, Math.trunc(num(l, 'controlFlag'))).pair(71, Math.trunc(num(l, 'tabOrder')));
      // the limits: the sheet the layout shows, which a PDF export takes as the page when no page setup is kept
      const lo = pt(l, 'minLimit'), hi = pt(l, 'maxLimit');
      out.pair(10, lo.x).pair(20, lo.y).pair(11, hi.x).pair(21, hi.y);
      out.pair(330, str(l, 'paperSpaceTableId'));
    }
  });
}

/**
 * ACDSDATA: the binary ACIS data (SAB) the child read for REGION, 3DSOLID and BODY (`sabHex`), written as AutoCAD
 * 2013 on writes it (one ACDSRECORD per entity: its handle in 320, the bytes as hex chunks in 310), so the reader
 * finds it the same way for DXF and DWG.
 */
function acdsData(out: DxfOut, records: Rec[]) {
  const withSab = records.flatMap((r) => recs(r.entities)).filter((e) => typeof e.sabHex === 'string' && e.sabHex !== '');
  if (!withSab.length) return;
  section(out, 'ACDSDATA', () => {
    out.pair(70, 2).pair(71, 2);
    for (const e of withSab) {
      const hex = str(e, 'sabHex');
      out.pair(0, 'ACDSRECORD').pair(90, 1).pair(2, 'AcDbDs::ID').pair(280, 10).pair(320, str(e, 'handle'));
      out.pair(2, 'ASM_Data').pair(280, 15).pair(94, hex.length / 2);
      for (let i = 0; i < hex.length; i += 254) out.pair(310, hex.slice(i, i + 254));
    }
  });
}

/** The ACDSDATA section (text, ending with ENDSEC and a line break) of a database's binary ACIS data, '' when it has none. */
export function acdsDataSection(db: Rec): string {
  const out = new DxfOut(false);
  acdsData(out, entries(rec(db.tables), 'BLOCK_RECORD'));
  const text = out.toString();
  return text.trim() ? text : '';
}

/**
 * The ACAD_TABLE entities of model space and the paper spaces, each written as a DXF entity (text), in the order of
 * their lists: what LibreDWG's DXF writer leaves empty for R2010+ tables (dwg-reader.ts puts these in their place).
 */
export function tableEntities(db: Rec, version: string): string[] {
  const records = entries(rec(db.tables), 'BLOCK_RECORD');
  const blockNames = new Map(records.map((r) => [str(r, 'handle'), str(r, 'name')]));
  const spaces = [...records.filter(isModel), ...records.filter(isPaper)];
  return spaces.flatMap((r) =>
    recs(r.entities)
      .filter((e) => str(e, 'type') === 'ACAD_TABLE')
      .map((e) => {
        const out = new DxfOut(version >= 'AC1021');
        writeEntity(out, e, { owner: str(r, 'handle'), paper: isPaper(r), blockNames, lineweights: version >= 'AC1015' });
        return out.toString();
      }),
  );
}
