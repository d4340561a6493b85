/**
 * A large, realistic ASCII DXF (R2000, CRLF, group codes right-aligned as AutoCAD writes them) for the parse
 * benchmark: lines, lightweight polylines with bulges, circles, arcs, text, mtext with inline codes, inserts of a
 * few blocks and hatches (solid and patterned, polyline paths with bulges), on 24 layers, each entity with a
 * handle, owner and subclass markers. Written in ~1 MB pieces so the generator never holds the file; the same
 * seed and size give the same bytes.
 *
 *   npx tsx bench/gen-large-dxf.ts <out.dxf> [megabytes=100] [seed=1]
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const LAYERS = ['0', 'A-WALL', 'A-DOOR', 'A-GLAZ', 'A-FURN', 'A-FLOR', 'A-ANNO-TEXT', 'A-ANNO-DIMS', 'A-HATCH', 'S-COLS', 'S-BEAM', 'S-GRID', 'M-DUCT', 'M-PIPE', 'E-LITE', 'E-POWR', 'P-FIXT', 'C-TOPO', 'C-ROAD', 'L-PLNT', 'G-TTLB', 'X-REF', 'TEMP', '中文图层'];
const BLOCKS = ['DOOR-900', 'WINDOW-1200', 'CHAIR', 'TREE-5M', 'COLUMN-400'];
const WORDS = ['Room', 'Office', 'Corridor', 'Stair', 'Lift', 'Store', 'WC', 'Kitchen', 'Level', 'Grid', 'Section', 'Detail', 'Note:', 'see', 'drawing', 'A-101', 'steel', 'concrete', '300x600', 'FFL', '+3.150', '客厅', '卧室'];

export interface GeneratedDxf {
  bytes: number;
  entities: Record<string, number>;
}

/** mulberry32: small, fast, deterministic */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateLargeDxf(file: string, targetBytes: number, seed = 1): GeneratedDxf {
  const rand = rng(seed);
  const fd = openSync(file, 'w');
  let buf = '';
  let written = 0;
  const flush = () => {
    // pure ASCII: an R2000 file is in its code page, so the CJK words are written as \U+ escapes (escapeCjk)
    const b = Buffer.from(buf, 'latin1');
    writeSync(fd, b);
    written += b.length;
    buf = '';
  };
  const put = (code: number, value: string | number) => {
    buf += (code < 10 ? '  ' : code < 100 ? ' ' : '') + code + '\r\n' + value + '\r\n';
    if (buf.length > 1 << 20) flush();
  };
  const size = () => written + buf.length;
  // coordinates as AutoCAD prints them: up to ~15 significant digits, integers without a point
  const num = (v: number) => {
    const r = Math.round(v * 1e9) / 1e9;
    return Number.isInteger(r) ? r.toFixed(1) : String(r);
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const escapeCjk = (s: string) => s.replace(/[^\x00-\x7f]/g, (c) => `\\U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  const words = (n: number) => escapeCjk(Array.from({ length: n }, () => pick(WORDS)).join(' '));
  let handle = 0x100;
  const h = () => (handle++).toString(16).toUpperCase();
  const counts: Record<string, number> = {};

  const MODEL = '1F';
  const entityHead = (type: string, owner: string, layer = pick(LAYERS)) => {
    counts[type] = (counts[type] ?? 0) + 1;
    put(0, type);
    put(5, h());
    put(330, owner);
    put(100, 'AcDbEntity');
    put(8, escapeCjk(layer));
    if (rand() < 0.2) put(62, 1 + Math.floor(rand() * 254));
  };

  // --- header, tables ---
  put(0, 'SECTION'); put(2, 'HEADER');
  put(9, '$ACADVER'); put(1, 'AC1015');
  put(9, '$DWGCODEPAGE'); put(3, 'ANSI_1252');
  put(9, '$INSUNITS'); put(70, 4);
  put(9, '$EXTMIN'); put(10, 0.0); put(20, 0.0); put(30, 0.0);
  put(9, '$EXTMAX'); put(10, 100000.0); put(20, 100000.0); put(30, 0.0);
  put(9, '$HANDSEED'); put(5, 'FFFFFFF');
  put(0, 'ENDSEC');
  put(0, 'SECTION'); put(2, 'TABLES');
  put(0, 'TABLE'); put(2, 'LTYPE'); put(5, '5'); put(330, '0'); put(100, 'AcDbSymbolTable'); put(70, 2);
  for (const [name, pattern] of [['CONTINUOUS', []], ['DASHED', [12.7, -6.35]]] as const) {
    put(0, 'LTYPE'); put(5, h()); put(330, '5'); put(100, 'AcDbSymbolTableRecord'); put(100, 'AcDbLinetypeTableRecord');
    put(2, name); put(70, 0); put(3, name === 'DASHED' ? 'Dashed __ __ __' : 'Solid line'); put(72, 65); put(73, pattern.length);
    put(40, pattern.reduce((a, b) => a + Math.abs(b), 0));
    for (const p of pattern) { put(49, p); put(74, 0); }
  }
  put(0, 'ENDTAB');
  put(0, 'TABLE'); put(2, 'LAYER'); put(5, '2'); put(330, '0'); put(100, 'AcDbSymbolTable'); put(70, LAYERS.length);
  LAYERS.forEach((name, i) => {
    put(0, 'LAYER'); put(5, h()); put(330, '2'); put(100, 'AcDbSymbolTableRecord'); put(100, 'AcDbLayerTableRecord');
    put(2, escapeCjk(name)); put(70, 0); put(62, 1 + (i % 9)); put(6, i % 5 === 3 ? 'DASHED' : 'CONTINUOUS'); put(370, -3); put(390, 'F');
  });
  put(0, 'ENDTAB');
  put(0, 'TABLE'); put(2, 'STYLE'); put(5, '3'); put(330, '0'); put(100, 'AcDbSymbolTable'); put(70, 2);
  for (const [name, font] of [['Standard', 'txt'], ['NOTES', 'romans.shx']]) {
    put(0, 'STYLE'); put(5, h()); put(330, '3'); put(100, 'AcDbSymbolTableRecord'); put(100, 'AcDbTextStyleTableRecord');
    put(2, name); put(70, 0); put(40, 0.0); put(41, 1.0); put(50, 0.0); put(71, 0); put(42, 2.5); put(3, font); put(4, '');
  }
  put(0, 'ENDTAB');
  put(0, 'TABLE'); put(2, 'BLOCK_RECORD'); put(5, '1'); put(330, '0'); put(100, 'AcDbSymbolTable'); put(70, BLOCKS.length + 2);
  const blockHandles = new Map<string, string>([['*Model_Space', MODEL], ['*Paper_Space', '1B']]);
  for (const b of BLOCKS) blockHandles.set(b, h());
  for (const [name, bh] of blockHandles) {
    put(0, 'BLOCK_RECORD'); put(5, bh); put(330, '1'); put(100, 'AcDbSymbolTableRecord'); put(100, 'AcDbBlockTableRecord'); put(2, name);
  }
  put(0, 'ENDTAB');
  put(0, 'ENDSEC');

  // --- blocks: model/paper space stubs and a few small symbols ---
  put(0, 'SECTION'); put(2, 'BLOCKS');
  for (const [name, bh] of blockHandles) {
    put(0, 'BLOCK'); put(5, h()); put(330, bh); put(100, 'AcDbEntity'); put(8, '0'); put(100, 'AcDbBlockBegin');
    put(2, name); put(70, 0); put(10, 0.0); put(20, 0.0); put(30, 0.0); put(3, name); put(1, '');
    if (!name.startsWith('*')) for (let i = 0; i < 6; i++) writeEntity(bh, i % 3 === 0 ? 'LINE' : i % 3 === 1 ? 'ARC' : 'CIRCLE', '0', 0, 0, 1000);
    put(0, 'ENDBLK'); put(5, h()); put(330, bh); put(100, 'AcDbEntity'); put(8, '0'); put(100, 'AcDbBlockEnd');
  }
  put(0, 'ENDSEC');

  // --- entities until the target size ---
  put(0, 'SECTION'); put(2, 'ENTITIES');
  const tail = 400; // bytes of ENDSEC / OBJECTS / EOF below
  while (size() < targetBytes - tail) {
    const r = rand();
    const type = r < 0.35 ? 'LINE' : r < 0.55 ? 'LWPOLYLINE' : r < 0.65 ? 'CIRCLE' : r < 0.75 ? 'ARC' : r < 0.84 ? 'TEXT' : r < 0.89 ? 'MTEXT' : r < 0.97 ? 'INSERT' : 'HATCH';
    // entities cluster in a grid of 'rooms' as drawings do
    writeEntity(MODEL, type, pick(LAYERS), Math.floor(rand() * 100) * 1000, Math.floor(rand() * 100) * 1000, 1000);
  }
  put(0, 'ENDSEC');
  put(0, 'SECTION'); put(2, 'OBJECTS');
  put(0, 'DICTIONARY'); put(5, 'C'); put(330, '0'); put(100, 'AcDbDictionary'); put(281, 1);
  put(0, 'ENDSEC');
  put(0, 'EOF');
  flush();
  closeSync(fd);
  return { bytes: written, entities: counts };

  function writeEntity(owner: string, type: string, layer: string, ox: number, oy: number, span: number) {
    const x = () => ox + rand() * span;
    const y = () => oy + rand() * span;
    entityHead(type, owner, layer);
    switch (type) {
      case 'LINE':
        put(100, 'AcDbLine'); put(10, num(x())); put(20, num(y())); put(30, 0.0); put(11, num(x())); put(21, num(y())); put(31, 0.0);
        break;
      case 'CIRCLE':
        put(100, 'AcDbCircle'); put(10, num(x())); put(20, num(y())); put(30, 0.0); put(40, num(1 + rand() * span * 0.1));
        break;
      case 'ARC':
        put(100, 'AcDbCircle'); put(10, num(x())); put(20, num(y())); put(30, 0.0); put(40, num(1 + rand() * span * 0.1));
        put(100, 'AcDbArc'); put(50, num(rand() * 360)); put(51, num(rand() * 360));
        break;
      case 'LWPOLYLINE': {
        const n = 4 + Math.floor(rand() * 16);
        const closed = rand() < 0.4;
        put(100, 'AcDbPolyline'); put(90, n); put(70, closed ? 1 : 0); put(43, 0.0);
        for (let i = 0; i < n; i++) {
          put(10, num(x())); put(20, num(y()));
          if (rand() < 0.25) put(42, num(rand() * 2 - 1));
        }
        break;
      }
      case 'TEXT':
        put(100, 'AcDbText'); put(10, num(x())); put(20, num(y())); put(30, 0.0); put(40, 2.5); put(1, words(1 + Math.floor(rand() * 4)));
        if (rand() < 0.3) put(50, num(rand() * 360));
        put(7, rand() < 0.5 ? 'Standard' : 'NOTES');
        put(100, 'AcDbText');
        break;
      case 'MTEXT':
        put(100, 'AcDbMText'); put(10, num(x())); put(20, num(y())); put(30, 0.0); put(40, 2.5); put(41, num(20 + rand() * 80)); put(71, 1); put(72, 5);
        put(1, `{\\fArial|b1|i0;${words(2)}}\\P${words(3)}\\P\\H1.5x;${words(2)}`);
        put(7, 'Standard'); put(73, 1); put(44, 1.0);
        break;
      case 'INSERT': {
        const s = rand() < 0.7 ? 1 : num(0.5 + rand() * 2);
        put(100, 'AcDbBlockReference'); put(2, pick(BLOCKS)); put(10, num(x())); put(20, num(y())); put(30, 0.0);
        if (s !== 1) { put(41, s); put(42, s); put(43, s); }
        if (rand() < 0.5) put(50, num(pick([0, 90, 180, 270, rand() * 360])));
        break;
      }
      case 'HATCH': {
        const solid = rand() < 0.4;
        const n = 4 + Math.floor(rand() * 8);
        put(100, 'AcDbHatch'); put(10, 0.0); put(20, 0.0); put(30, 0.0); put(210, 0.0); put(220, 0.0); put(230, 1.0);
        put(2, solid ? 'SOLID' : 'ANSI31'); put(70, solid ? 1 : 0); put(71, 0); put(91, 1);
        put(92, 2); put(72, 1); put(73, 1); put(93, n);
        for (let i = 0; i < n; i++) { put(10, num(x())); put(20, num(y())); put(42, rand() < 0.3 ? num(rand() * 2 - 1) : 0.0); }
        put(97, 0); put(75, 0); put(76, 1);
        if (!solid) { put(52, 0.0); put(41, 1.0); put(77, 0); put(78, 1); put(53, 45.0); put(43, 0.0); put(44, 0.0); put(45, -2.245064030267288); put(46, 2.245064030267288); put(79, 0); }
        put(98, 0);
        break;
      }
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out, mb = '100', seed = '1'] = process.argv.slice(2);
  if (!out) throw new Error('usage: gen-large-dxf.ts <out.dxf> [megabytes] [seed]');
  const t = performance.now();
  const r = generateLargeDxf(out, Number(mb) * 1024 * 1024, Number(seed));
  console.log(JSON.stringify({ file: out, ...r, ms: Math.round(performance.now() - t) }));
}
