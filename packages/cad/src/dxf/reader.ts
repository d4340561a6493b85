import { CadError, type Block, type Drawing, type Entity, type Layer, type Layout, type Linetype, type Pair, type PlotSettings, type Point3, type TextStyle } from '../model/drawing.ts';
import { createAsciiReader, createBinaryReader, isBinaryDxf, type PairReader } from './tokenizer.ts';
import { decodeEscapes, decoderFor } from './codepage.ts';
import { DxfEntity, createPairStore, firstOf, type PairChunk } from './pair-store.ts';

/** Entity types the model describes (issue: drawing engine, part 1); anything else is counted as unsupported. */
export const KNOWN_ENTITY_TYPES = new Set([
  'LINE', 'XLINE', 'RAY', 'POINT', 'CIRCLE', 'ARC', 'ELLIPSE', 'LWPOLYLINE', 'POLYLINE', 'VERTEX', 'SEQEND', 'SPLINE', 'TEXT', 'MTEXT',
  'ATTRIB', 'ATTDEF', 'INSERT', 'DIMENSION', 'LEADER', 'MULTILEADER', 'MLEADER', 'HATCH', 'SOLID', 'TRACE', '3DFACE', 'WIPEOUT', 'IMAGE',
  'ACAD_TABLE', 'MLINE', 'VIEWPORT', 'REGION', '3DSOLID', 'BODY', 'TOLERANCE', 'SHAPE',
  'SURFACE', 'PLANESURFACE', 'EXTRUDEDSURFACE', 'LOFTEDSURFACE', 'REVOLVEDSURFACE', 'SWEPTSURFACE', 'NURBSURFACE',
]);

/** the OBJECTS records the reader takes, and the section's end */
const OBJECTS_READ = ['LAYOUT', 'IMAGEDEF', 'MLEADERSTYLE', 'DICTIONARY', 'ACDBDICTIONARYWDFLT', 'ENDSEC'];
const SECTION_END = ['ENDSEC'];

/** Reads an ASCII or binary DXF (R12–2018) into the drawing model. */
export function parseDxf(bytes: Uint8Array): Drawing {
  if (bytes.length === 0) throw new CadError('cad.parseFailed', undefined, 'empty file');
  const binary = isBinaryDxf(bytes);
  const latin = decoderFor('AC1009', 'ANSI_1252');
  return readDrawing(binary ? createBinaryReader(bytes, latin) : createAsciiReader(bytes, latin), binary);
}

/** The drawing from a pair reader (parseDxf; parseDxfFile streams an ASCII file through one). */
export function readDrawing(r: PairReader, binary: boolean): Drawing {
  const drawing: Drawing = {
    format: 'dxf',
    binary,
    header: { version: 'AC1009', units: 0, codePage: 'ANSI_1252', vars: {} },
    layers: [],
    linetypes: [],
    textStyles: [],
    blocks: [],
    layouts: [],
    entities: [],
    counts: {},
    unsupported: {},
  };

  // one pair of look-ahead: a record ends where the next 0 begins
  let pending = false;
  const read = (): boolean => {
    if (pending) {
      pending = false;
      return true;
    }
    // 999 comments may stand anywhere and carry nothing of the drawing
    while (r.next()) if (r.code !== 999) return true;
    return false;
  };
  const unread = () => {
    pending = true;
  };

  const store = createPairStore();
  const tallies = new Map<string, { known: boolean; n: number }>();
  const text = (v: string | number) => (typeof v === 'string' ? decodeEscapes(v) : String(v));

  let sawEof = false;
  let sections = 0;
  while (read()) {
    if (r.code === 0 && r.value === 'EOF') {
      sawEof = true;
      break;
    }
    if (r.code === 0 && r.value === 'SECTION') {
      if (!read() || (r.code as number) !== 2) throw new CadError('cad.parseFailed', undefined, 'section without a name');
      const name = String(r.value);
      sections++;
      if (name === 'HEADER') readHeader();
      else if (name === 'TABLES') readTables();
      else if (name === 'BLOCKS') readBlocks();
      else if (name === 'ENTITIES') readEntities(drawing.entities, 'ENDSEC');
      else if (name === 'OBJECTS') readObjects();
      else if (name === 'ACDSDATA') readAcdsData();
      else if (name === 'CLASSES') readClasses();
      else skipSection();
      // after the header the code page is known: decode the rest with it
      if (name === 'HEADER') r.setDecoder(decoderFor(drawing.header.version, drawing.header.codePage));
      continue;
    }
    throw new CadError('cad.parseFailed', undefined, `unexpected group ${r.code}/${String(r.value).slice(0, 40)} at top level`);
  }
  if (!sawEof && !drawing.entities.length && !drawing.blocks.length) throw new CadError('cad.parseFailed', undefined, 'no EOF and nothing read');
  // a DXF is sections; "0 EOF" and nothing else (or text that happens to start so) is not a drawing
  if (!sections) throw new CadError('cad.parseFailed', undefined, 'no section');
  for (const [type, { known, n }] of tallies) {
    drawing.counts[type] = n;
    if (!known) drawing.unsupported[type] = n;
  }
  return drawing;

  /** Past a section nothing is read from (classes, thumbnail, ACDS data) */
  function skipSection() {
    if (pending) {
      pending = false;
      if (r.code === 0 && r.value === 'ENDSEC') return;
    }
    if (!r.skipToRecord(SECTION_END)) throw new CadError('cad.parseFailed', undefined, 'missing ENDSEC');
  }

  /**
   * The header's pairs go into the pair columns in one readPairs call (no pair handed out one by one); the few
   * fields the reader needs at once (version, code page, units, extents) come from one pass over them, and the
   * name → value table is built from them when first asked for: most opens read a handful of its ~250 names.
   */
  function readHeader() {
    // a store of its own: the entities' first chunk stays theirs
    const own = createPairStore();
    if (!r.readPairs(own) || r.value !== 'ENDSEC') throw new CadError('cad.parseFailed', undefined, 'bad HEADER');
    const chunk = own.chunk, from = own.start, to = chunk.n;
    const h = drawing.header;
    let name = '';
    let point: Point3 | null = null;
    for (let i = from; i < to; i++) {
      const code = chunk.code(i);
      if (code === 9) {
        name = String(chunk.value(i));
        point = null;
        continue;
      }
      if (name === '') continue;
      if (code === 10 || code === 20 || code === 30) {
        if (name !== '$EXTMIN' && name !== '$EXTMAX') continue;
        // one group's coordinates make the point (a missing one is 0); a later group of the same name replaces it
        point ??= { x: 0, y: 0, z: 0 };
        point[code === 10 ? 'x' : code === 20 ? 'y' : 'z'] = Number(chunk.value(i));
        if (name === '$EXTMIN') h.extMin = { ...point };
        else h.extMax = { ...point };
        continue;
      }
      if (name === '$ACADVER') h.version = String(chunk.value(i));
      else if (name === '$DWGCODEPAGE') h.codePage = String(chunk.value(i));
      else if (name === '$INSUNITS') h.units = Number(chunk.value(i));
    }
    let groups: [string, Pair[]][] | null = null;
    Object.defineProperty(h, 'groups', {
      enumerable: false,
      configurable: true,
      get: () => (groups ??= headerGroups(chunk, from, to)),
      set: (v: [string, Pair[]][]) => {
        groups = v;
      },
    });
    let vars: Record<string, string | number> | null = null;
    Object.defineProperty(h, 'vars', {
      enumerable: true,
      configurable: true,
      get: () => (vars ??= headerVars(chunk, from, to)),
      set: (v: Record<string, string | number>) => {
        vars = v;
      },
    });
  }

  /** Past a record nothing is taken from (up to the next 0), without building its pairs. */
  function skipRecord() {
    if (pending) {
      if (r.code === 0) return;
      pending = false;
    }
    if (r.skipRecord()) unread();
  }

  /** The pairs of one table entry or object, up to the next 0. */
  function recordPairs(): Pair[] {
    const pairs: Pair[] = [];
    while (read()) {
      if (r.code === 0) {
        unread();
        break;
      }
      pairs.push([r.code, r.value]);
    }
    return pairs;
  }

  function readTables() {
    while (read()) {
      if (r.code !== 0) continue;
      if (r.value === 'ENDSEC') return;
      const type = String(r.value);
      // TABLE / ENDTAB markers and tables the model has no place for yet (VPORT, DIMSTYLE, BLOCK_RECORD …)
      if (type !== 'LAYER' && type !== 'STYLE' && type !== 'LTYPE' && type !== 'DIMSTYLE') {
        skipRecord();
        continue;
      }
      const pairs = recordPairs();
      const get = (code: number) => pairs.find((p) => p[0] === code)?.[1];
      if (type === 'LAYER') {
        const color = Number(get(62) ?? 7);
        const flags = Number(get(70) ?? 0);
        const layer: Layer = { name: text(get(2) ?? ''), color: Math.abs(color), linetype: String(get(6) ?? 'CONTINUOUS'), lineweight: Number(get(370) ?? -3), on: color >= 0, frozen: (flags & 1) !== 0, locked: (flags & 4) !== 0 };
        const tc = get(420);
        if (tc !== undefined) layer.trueColor = Number(tc);
        const handle = get(5);
        if (handle !== undefined) layer.handle = String(handle);
        if (get(290) !== undefined && Number(get(290)) === 0) layer.plot = false;
        if (get(390) !== undefined) layer.plotStyle = String(get(390));
        drawing.layers.push(layer);
      } else if (type === 'STYLE') {
        const style: TextStyle = { name: text(get(2) ?? ''), font: text(get(3) ?? ''), bigFont: text(get(4) ?? ''), widthFactor: Number(get(41) ?? 1), oblique: Number(get(50) ?? 0) };
        // a TrueType style's face: XDATA of ACAD, 1000 family name, 1071 flags (0x2000000 bold, 0x1000000 italic)
        const acad = pairs.findIndex((p) => p[0] === 1001 && p[1] === 'ACAD');
        const flags = acad >= 0 ? pairs.slice(acad + 1).find((p) => p[0] === 1071)?.[1] : undefined;
        if (flags !== undefined) {
          if (Number(flags) & 0x2000000) style.bold = true;
          if (Number(flags) & 0x1000000) style.italic = true;
        }
        if (get(5) !== undefined) style.handle = String(get(5));
        if (Number(get(70) ?? 0)) style.flags = Number(get(70));
        if (Number(get(40) ?? 0)) style.height = Number(get(40));
        drawing.textStyles.push(style);
      } else if (type === 'LTYPE') {
        const lt: Linetype = { name: text(get(2) ?? ''), description: text(get(3) ?? ''), pattern: pairs.filter((p) => p[0] === 49).map((p) => Number(p[1])) };
        if (get(5) !== undefined) lt.handle = String(get(5));
        drawing.linetypes.push(lt);
      } else if (type === 'DIMSTYLE') {
        // a DIMSTYLE's handle is its 105
        const handle = get(105) ?? get(5);
        (drawing.dimStyles ??= []).push({ name: text(get(2) ?? ''), ...(handle === undefined ? {} : { handle: String(handle) }), pairs });
      }
    }
    throw new CadError('cad.parseFailed', undefined, 'TABLES without ENDSEC');
  }

  function readBlocks() {
    while (read()) {
      if (r.code !== 0) continue;
      if (r.value === 'ENDSEC') return;
      if (r.value !== 'BLOCK') {
        skipRecord();
        continue;
      }
      const pairs = recordPairs();
      const get = (code: number) => pairs.find((p) => p[0] === code)?.[1];
      const block: Block = { name: text(get(2) ?? ''), handle: get(5) === undefined ? undefined : String(get(5)), base: { x: Number(get(10) ?? 0), y: Number(get(20) ?? 0), z: Number(get(30) ?? 0) }, entities: [] };
      const record = get(330);
      if (record !== undefined) block.recordHandle = String(record);
      if (get(70) !== undefined) block.flags = Number(get(70));
      readEntities(block.entities, 'ENDBLK');
      skipRecord(); // the ENDBLK record's own pairs
      drawing.blocks.push(block);
    }
    throw new CadError('cad.parseFailed', undefined, 'BLOCKS without ENDSEC');
  }

  /** Entities up to `end` (ENDSEC or ENDBLK); VERTEX/ATTRIB/SEQEND go under their POLYLINE or INSERT. */
  function readEntities(into: Entity[], end: string) {
    let parent: Entity | null = null;
    while (read()) {
      if (r.code !== 0) throw new CadError('cad.parseFailed', undefined, `entity data without an entity (${r.code})`);
      const type = String(r.value);
      if (type === end) return;
      if (type === 'ENDSEC' || type === 'EOF') throw new CadError('cad.parseFailed', undefined, `missing ${end}`);
      const e = readEntity(type);
      // one map look-up per entity; the counts go into the drawing at the end, in first-seen order
      const tally = tallies.get(type);
      if (tally) tally.n++;
      else tallies.set(type, { known: KNOWN_ENTITY_TYPES.has(type), n: 1 });
      if (parent && (type === 'VERTEX' || type === 'ATTRIB' || type === 'SEQEND')) {
        (parent.children ??= []).push(e);
        if (type === 'SEQEND') parent = null;
        continue;
      }
      into.push(e);
      parent = type === 'POLYLINE' || (type === 'INSERT' && Number(pairValue(e, 66)) === 1) ? e : null;
    }
    throw new CadError('cad.parseFailed', undefined, `missing ${end}`);
  }

  function readEntity(type: string): Entity {
    // the pairs go straight into the store (pending is false here: the entity's own 0 pair was just read)
    store.begin();
    if (r.readPairs(store)) unread();
    // then the fields the model takes from them, read from the columns
    let handle: string | undefined;
    let layer = '0';
    let color = 256;
    let trueColor: number | undefined;
    let linetype: string | undefined;
    let lineweight: number | undefined;
    let paperSpace = false;
    let owner: string | undefined;
    let inReactors = false;
    const chunk = store.chunk;
    const { codes, nums, strs } = chunk;
    const start = store.start;
    const end = chunk.n;
    for (let i = start; i < end; i++) {
      const c = codes[i];
      // code << 1, plus 1 for a string (a code too large for the column matches none of these)
      const code = c >> 1;
      if ((c & 1) === 0) {
        if (code === 62) color = nums[i];
        else if (code === 420) trueColor = nums[i];
        else if (code === 370) lineweight = nums[i];
        else if (code === 67) paperSpace = nums[i] === 1;
        continue;
      }
      if (code > 8 && code !== 102 && code !== 330 && code !== 1000) continue;
      let value = strs[nums[i]];
      // layer and linetype names too: writers escape what their code page lacks wherever a name stands
      if (code === 1 || code === 3 || code === 2 || code === 7 || code === 8 || code === 6 || code === 1000) {
        const decoded = decodeEscapes(value);
        if (decoded !== value) strs[nums[i]] = value = decoded;
      }
      if (code === 102) inReactors = value.startsWith('{');
      else if (code === 5) handle = value;
      else if (code === 8) layer = value;
      else if (code === 6) linetype = value;
      else if (code === 330 && !inReactors && owner === undefined) owner = value;
    }
    const e = new DxfEntity(type, chunk, start, end);
    // the same fields, in the same order, as the entity literal this reader used to build
    if (handle !== undefined) e.handle = handle;
    e.layer = layer;
    e.color = color;
    if (trueColor !== undefined) e.trueColor = trueColor;
    if (linetype !== undefined) e.linetype = linetype;
    if (lineweight !== undefined) e.lineweight = lineweight;
    e.paperSpace = paperSpace;
    if (owner !== undefined) e.owner = owner;
    return e;
  }

  function readObjects() {
    // the root dictionary (the section's first object) names the plot style dictionary, read when met
    let rootSeen = false;
    let plotStyleDictionary: string | undefined;
    while (read()) {
      if (r.code !== 0) continue;
      if (r.value === 'ENDSEC') return;
      if (r.value === 'DICTIONARY' || r.value === 'ACDBDICTIONARYWDFLT') {
        // a drawing has thousands (an extension dictionary per object): only the handle of each is read
        if (!read()) return;
        // (read() moved on: the code is the next pair's, not the 0 tested above)
        const code = r.code as number;
        const handle = code === 5 ? String(r.value) : undefined;
        if (rootSeen && (handle === undefined || handle !== plotStyleDictionary)) {
          if (code === 0) unread();
          else skipRecord();
          continue;
        }
        if (code === 0) {
          unread();
          rootSeen = true;
          continue;
        }
        const entries = dictionaryEntries(recordPairs());
        if (!rootSeen) {
          rootSeen = true;
          plotStyleDictionary = entries.find(([name]) => name === 'ACAD_PLOTSTYLENAME')?.[1];
        } else if (entries.length) drawing.plotStyleNames = Object.fromEntries(entries.map(([name, h]) => [h, name]));
        continue;
      }
      if (r.value === 'IMAGEDEF') {
        // the picture file an IMAGE names through its 340: only these few records have their pairs built
        readImageDef(recordPairs());
        continue;
      }
      if (r.value === 'MLEADERSTYLE') {
        // what a MULTILEADER's properties default to (its 340): a drawing has a handful
        const pairs = recordPairs();
        const handle = pairs.find((p) => p[0] === 5)?.[1];
        if (handle !== undefined) (drawing.mleaderStyles ??= {})[String(handle)] = pairs;
        continue;
      }
      if (r.value !== 'LAYOUT') {
        // most of a file's records can be here (dictionaries, styles, xrecords) and only these are read
        if (r.skipToRecord(OBJECTS_READ)) unread();
        continue;
      }
      const pairs = recordPairs();
      // the block record is the 330 that follows the AcDbLayout subclass marker
      const sub = pairs.findIndex((p) => p[0] === 100 && p[1] === 'AcDbLayout');
      const after = sub >= 0 ? pairs.slice(sub) : pairs;
      const layout: Layout = { name: text(after.find((p) => p[0] === 1)?.[1] ?? ''), tabOrder: Number(after.find((p) => p[0] === 71)?.[1] ?? 0), blockRecord: after.find((p) => p[0] === 330)?.[1]?.toString(), pairs };
      const plot = plotSettingsOf(sub >= 0 ? pairs.slice(0, sub) : []);
      if (plot) layout.plot = plot;
      const lim = (c: number) => after.find((p) => p[0] === c)?.[1];
      if ([10, 20, 11, 21].every((c) => lim(c) !== undefined)) {
        const [minX, minY, maxX, maxY] = [10, 20, 11, 21].map((c) => Number(lim(c)));
        if (maxX > minX && maxY > minY) layout.limits = { minX, minY, maxX, maxY };
      }
      drawing.layouts.push(layout);
    }
  }

  /**
   * ACDSDATA (AutoCAD 2013 on): the ACIS data of solids, regions and surfaces as SAB, one ACDSRECORD each, naming
   * its entity by handle (320) and holding the bytes as hex chunks (310) after "2 ASM_Data".
   */
  function readAcdsData() {
    while (read()) {
      if (r.code !== 0) continue;
      if (r.value === 'ENDSEC') return;
      if (r.value !== 'ACDSRECORD') continue;
      const pairs = recordPairs();
      const handle = pairs.find((p) => p[0] === 320)?.[1];
      const at = pairs.findIndex((p) => p[0] === 2 && p[1] === 'ASM_Data');
      if (handle === undefined || at < 0) continue;
      const hex = pairs.slice(at).filter((p) => p[0] === 310).map((p) => String(p[1])).join('');
      if (hex) (drawing.acisData ??= {})[String(handle)] = hexBytes(hex);
    }
  }

  /** CLASSES (2000 on): a few dozen small records, kept whole so a writer can name the classes it writes */
  function readClasses() {
    const classes: Pair[][] = [];
    while (read()) {
      if (r.code !== 0) continue;
      if (r.value === 'ENDSEC') {
        if (classes.length) drawing.classes = classes;
        return;
      }
      if (r.value === 'CLASS') classes.push(recordPairs());
    }
    throw new CadError('cad.parseFailed', undefined, 'CLASSES without ENDSEC');
  }

  function readImageDef(pairs: Pair[]) {
    const get = (code: number) => pairs.find((p) => p[0] === code)?.[1];
    const handle = get(5);
    if (handle === undefined) return;
    (drawing.imageDefs ??= {})[String(handle)] = { file: text(get(1) ?? ''), width: Number(get(10) ?? 0), height: Number(get(20) ?? 0) };
  }
}

/** A dictionary's entries: each name (3) with the handle (350, or 360 when it owns it hard) that follows it. */
function dictionaryEntries(pairs: readonly Pair[]): [name: string, handle: string][] {
  const out: [string, string][] = [];
  let name: string | undefined;
  for (const [code, value] of pairs) {
    if (code === 3) name = decodeEscapes(String(value));
    else if ((code === 350 || code === 360) && name !== undefined) {
      out.push([name, String(value)]);
      name = undefined;
    }
  }
  return out;
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

/** each header variable with its groups, in file order */
function headerGroups(chunk: PairChunk, from: number, to: number): [string, Pair[]][] {
  const out: [string, Pair[]][] = [];
  let current: Pair[] | null = null;
  for (let i = from; i < to; i++) {
    if (chunk.code(i) === 9) out.push([String(chunk.value(i)), (current = [])]);
    else current?.push([chunk.code(i), chunk.value(i)]);
  }
  return out;
}

/** name → first value of each header variable (a point's is its x), from the header's stored pairs */
function headerVars(chunk: PairChunk, from: number, to: number): Record<string, string | number> {
  const vars: Record<string, string | number> = {};
  let name = '';
  let fresh = false;
  for (let i = from; i < to; i++) {
    if (chunk.code(i) === 9) {
      name = String(chunk.value(i));
      fresh = !(name in vars);
    } else if (fresh) {
      const v = chunk.value(i);
      vars[name] = chunk.code(i) === 10 || chunk.code(i) === 20 || chunk.code(i) === 30 ? Number(v) : v;
      fresh = false;
    }
  }
  return vars;
}

export function pairValue(e: Entity, code: number): string | number | undefined {
  if (e instanceof DxfEntity) return e.first(code);
  return firstOf(e.pairs, code);
}

/**
 * A layout's page setup from the pairs of its AcDbPlotSettings subclass; null when the paper has no size (LibreDWG
 * and other writers leave the subclass empty).
 */
export function plotSettingsOf(pairs: readonly Pair[]): PlotSettings | null {
  const at = (c: number) => pairs.find((p) => p[0] === c)?.[1];
  const num = (c: number, def = 0) => {
    const v = Number(at(c));
    return Number.isFinite(v) && at(c) !== undefined ? v : def;
  };
  const paperWidth = num(44), paperHeight = num(45);
  if (!(paperWidth > 0 && paperHeight > 0)) return null;
  const flags = num(70);
  return {
    paperName: String(at(4) ?? ''),
    paperWidth,
    paperHeight,
    margins: [num(40), num(41), num(42), num(43)],
    originX: num(46),
    originY: num(47),
    paperUnits: num(72, 1),
    rotation: num(73),
    plotType: num(74, 5),
    ...(at(48) !== undefined && at(140) !== undefined ? { window: [num(48), num(49), num(140), num(141)] as [number, number, number, number] } : {}),
    scaleNumerator: num(142, 1) || 1,
    scaleDenominator: num(143, 1) || 1,
    fit: (flags & 16) !== 0 && num(75) === 0,
    centered: (flags & 4) !== 0,
    styleSheet: String(at(7) ?? ''),
  };
}
