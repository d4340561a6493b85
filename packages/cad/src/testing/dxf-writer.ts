/**
 * A tiny DXF writer for tests: drawings generated in code, so the core tests never depend on sample files.
 * Not a product writer (that one belongs to the renderers); it writes exactly the pairs it is given.
 */
import { valueKind } from '../dxf/tokenizer.ts';

export type Pairs = [number, string | number][];

export interface FixtureEntity {
  type: string;
  pairs: Pairs;
}

export function writeAsciiDxf(o: {
  version?: string;
  codePage?: string;
  layers?: string[];
  /** linetype of a layer (default CONTINUOUS) */
  layerLinetypes?: Record<string, string>;
  /** ACI colour of a layer (default 7) */
  layerColors?: Record<string, number>;
  /** flags (70) of a LAYER record: 1 frozen, 4 locked */
  layerFlags?: Record<string, number>;
  /** more pairs of a LAYER record (handle 5, plot flag 290 …) */
  layerPairs?: Record<string, Pairs>;
  /** LTYPE table entries: simple elements, positive dash, negative gap, 0 dot */
  linetypes?: { name: string; pattern: number[] }[];
  /** STYLE table entries: name and font file (SHX or TrueType) */
  styles?: { name: string; font: string; /** the record's handle (5), what MULTILEADER and MLEADERSTYLE name */ handle?: string }[];
  /** more header variables, each with its pairs, e.g. ['$LTSCALE', [[40, 2]]] */
  header?: [string, Pairs][];
  /** `base`: the block's base point (default 0,0); `record`: its BLOCK_RECORD's handle (a BLOCK_RECORD table is written then) */
  blocks?: { name: string; entities: FixtureEntity[]; base?: [number, number]; record?: string }[];
  /** DIMSTYLE table records: name and their variables as group codes (341 DIMLDRBLK's block record handle …) */
  dimStyles?: { name: string; pairs: Pairs }[];
  entities: FixtureEntity[];
  /** records of an OBJECTS section (IMAGEDEF …), written after ENTITIES when given */
  objects?: FixtureEntity[];
  encoder?: (s: string) => Uint8Array;
}): Uint8Array {
  const lines: (string | Uint8Array)[] = [];
  const put = (code: number, value: string | number) => {
    lines.push(String(code).padStart(3, ' '));
    lines.push(typeof value === 'number' ? String(value) : o.encoder ? o.encoder(value) : value);
  };
  put(0, 'SECTION');
  put(2, 'HEADER');
  put(9, '$ACADVER');
  put(1, o.version ?? 'AC1015');
  put(9, '$DWGCODEPAGE');
  put(3, o.codePage ?? 'ANSI_1252');
  put(9, '$INSUNITS');
  put(70, 4);
  for (const [name, pairs] of o.header ?? []) {
    put(9, name);
    for (const [c, v] of pairs) put(c, v);
  }
  put(0, 'ENDSEC');
  put(0, 'SECTION');
  put(2, 'TABLES');
  if (o.linetypes?.length) {
    put(0, 'TABLE');
    put(2, 'LTYPE');
    for (const lt of o.linetypes) {
      put(0, 'LTYPE');
      put(2, lt.name);
      put(70, 0);
      put(3, '');
      put(72, 65);
      put(73, lt.pattern.length);
      put(40, lt.pattern.reduce((a, x) => a + Math.abs(x), 0));
      for (const x of lt.pattern) {
        put(49, x);
        put(74, 0);
      }
    }
    put(0, 'ENDTAB');
  }
  if (o.styles?.length) {
    put(0, 'TABLE');
    put(2, 'STYLE');
    for (const st of o.styles) {
      put(0, 'STYLE');
      if (st.handle) put(5, st.handle);
      put(2, st.name);
      put(70, 0);
      put(40, 0);
      put(41, 1);
      put(50, 0);
      put(3, st.font);
      put(4, '');
    }
    put(0, 'ENDTAB');
  }
  const records = (o.blocks ?? []).filter((b) => b.record);
  if (records.length) {
    put(0, 'TABLE');
    put(2, 'BLOCK_RECORD');
    for (const b of records) {
      put(0, 'BLOCK_RECORD');
      put(5, b.record!);
      put(100, 'AcDbSymbolTableRecord');
      put(100, 'AcDbBlockTableRecord');
      put(2, b.name);
    }
    put(0, 'ENDTAB');
  }
  if (o.dimStyles?.length) {
    put(0, 'TABLE');
    put(2, 'DIMSTYLE');
    o.dimStyles.forEach((ds, i) => {
      put(0, 'DIMSTYLE');
      put(105, `D${i + 1}`);
      put(100, 'AcDbSymbolTableRecord');
      put(100, 'AcDbDimStyleTableRecord');
      put(2, ds.name);
      put(70, 0);
      for (const [c, v] of ds.pairs) put(c, v);
    });
    put(0, 'ENDTAB');
  }
  put(0, 'TABLE');
  put(2, 'LAYER');
  for (const name of o.layers ?? ['0']) {
    put(0, 'LAYER');
    put(2, name);
    put(70, o.layerFlags?.[name] ?? 0);
    put(62, o.layerColors?.[name] ?? 7);
    put(6, o.layerLinetypes?.[name] ?? 'CONTINUOUS');
    for (const [c, v] of o.layerPairs?.[name] ?? []) put(c, v);
  }
  put(0, 'ENDTAB');
  put(0, 'ENDSEC');
  put(0, 'SECTION');
  put(2, 'BLOCKS');
  for (const b of o.blocks ?? []) {
    put(0, 'BLOCK');
    if (b.record) put(330, b.record);
    put(8, '0');
    put(2, b.name);
    put(70, 0);
    put(10, b.base?.[0] ?? 0);
    put(20, b.base?.[1] ?? 0);
    put(30, 0);
    for (const e of b.entities) writeEntity(e);
    put(0, 'ENDBLK');
    put(8, '0');
  }
  put(0, 'ENDSEC');
  put(0, 'SECTION');
  put(2, 'ENTITIES');
  for (const e of o.entities) writeEntity(e);
  put(0, 'ENDSEC');
  if (o.objects) {
    put(0, 'SECTION');
    put(2, 'OBJECTS');
    for (const e of o.objects) writeEntity(e);
    put(0, 'ENDSEC');
  }
  put(0, 'EOF');

  function writeEntity(e: FixtureEntity) {
    put(0, e.type);
    for (const [c, v] of e.pairs) put(c, v);
  }
  const enc = new TextEncoder();
  const parts = lines.map((l) => (typeof l === 'string' ? enc.encode(l) : l));
  const size = parts.reduce((a, p) => a + p.length + 2, 0);
  const out = new Uint8Array(size);
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
    out[pos++] = 13;
    out[pos++] = 10;
  }
  return out;
}

/** Binary DXF (R13+ layout: 2-byte group codes) of the same pairs. */
export function writeBinaryDxf(pairs: Pairs): Uint8Array {
  const chunks: number[] = [];
  for (const ch of 'AutoCAD Binary DXF\r\n\x1a\0') chunks.push(ch.charCodeAt(0));
  const enc = new TextEncoder();
  const buf = new DataView(new ArrayBuffer(8));
  for (const [code, value] of pairs) {
    chunks.push(code & 0xff, code >> 8);
    // each value as the reader's table of group code types says
    const kind = valueKind(code);
    if (kind === 'string') {
      chunks.push(...enc.encode(String(value)), 0);
    } else if (kind === 'double') {
      buf.setFloat64(0, Number(value), true);
      for (let i = 0; i < 8; i++) chunks.push(buf.getUint8(i));
    } else if (kind === 'int16') {
      buf.setInt16(0, Number(value), true);
      chunks.push(buf.getUint8(0), buf.getUint8(1));
    } else if (kind === 'int32') {
      buf.setInt32(0, Number(value), true);
      for (let i = 0; i < 4; i++) chunks.push(buf.getUint8(i));
    } else throw new Error(`writer does not know code ${code}`);
  }
  return new Uint8Array(chunks);
}

/**
 * An IMAGE showing a picture file and the IMAGEDEF naming it (put the def into `objects`): `insert` is the
 * picture's bottom-left corner, `u` and `v` one pixel along its rows and up its columns (rotate, scale or skew
 * them freely), `clip` an optional clip boundary in pixels from the top-left pixel's centre (two points: a
 * rectangle, more: a polygon), `adjust` brightness / contrast / fade (281/282/283).
 */
export function fixtureImage(o: {
  handle: string;
  defHandle: string;
  file: string;
  pixels: [number, number];
  insert: [number, number];
  u: [number, number];
  v: [number, number];
  layer?: string;
  clip?: [number, number][];
  adjust?: { brightness?: number; contrast?: number; fade?: number };
}): { entity: FixtureEntity; def: FixtureEntity } {
  const [w, h] = o.pixels;
  const pairs: Pairs = [[5, o.handle], [8, o.layer ?? '0'], [100, 'AcDbRasterImage'], [90, 0],
    [10, o.insert[0]], [20, o.insert[1]], [30, 0], [11, o.u[0]], [21, o.u[1]], [31, 0], [12, o.v[0]], [22, o.v[1]], [32, 0],
    [13, w], [23, h], [340, o.defHandle], [70, o.clip ? 7 : 3], [280, o.clip ? 1 : 0],
    [281, o.adjust?.brightness ?? 50], [282, o.adjust?.contrast ?? 50], [283, o.adjust?.fade ?? 0], [360, '0'],
    [71, o.clip && o.clip.length > 2 ? 2 : 1]];
  const boundary = o.clip ?? [[-0.5, -0.5], [w - 0.5, h - 0.5]];
  pairs.push([91, boundary.length]);
  for (const [x, y] of boundary) pairs.push([14, x], [24, y]);
  const def: FixtureEntity = { type: 'IMAGEDEF', pairs: [[5, o.defHandle], [100, 'AcDbRasterImageDef'], [90, 0], [1, o.file], [10, w], [20, h], [11, 1], [21, 1], [280, 1], [281, 0]] };
  return { entity: { type: 'IMAGE', pairs }, def };
}
