import type { Block, Drawing, Entity, Layer, Layout, Linetype, Pair, TextStyle } from '../model/drawing.ts';
import { fitSubpath, type Fitted } from './fit-arcs.ts';
import type { GlyphRun, PageContent, Shape } from './page-content.ts';

/** One page as it goes into the drawing: what it draws, and the texts recovered from AutoCAD's SHX comments. */
export interface ImportedPage {
  number: number;
  content: PageContent;
  /** glyph runs merged into strings */
  texts: GlyphRun[];
}

export interface BuildOptions {
  /** 'layouts': each page a paper-space layout (default); 'stack': pages one under another in model space */
  placement: 'layouts' | 'stack';
  /** drawing millimetres per page point (25.4 / 72, times the calibration) */
  mmPerPoint: number;
  /** PDF layer names by their group id order (none: layers by colour) */
  pdfLayers: boolean;
  /** curve fitting tolerance in page points */
  tolerance: number;
  /** PDF layers off when the file opens: their drawing layers are off */
  hiddenLayers?: Set<string>;
}

/** AutoCAD's lineweights (1/100 mm): a PDF width comes back as the nearest. */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];
/** Cap height of the common sans fonts per em: TEXT's height is the capitals' (as our text engine lays TrueType out). */
const CAP_PER_EM = 0.716;
/** characters a layer or style name may not hold (AutoCAD's symbol-table rules) */
const BAD_NAME = /[<>/\\":;?*|=`,]/g;

const lineweightOf = (mm: number) => {
  const want = mm * 100;
  let best = 0;
  for (const w of LINEWEIGHTS) if (Math.abs(w - want) < Math.abs(best - want)) best = w;
  return best;
};

/** ACI of the few pure colours, else the nearest grey or hue index by distance (true colour 420 says the exact one). */
function aciOf(rgb: number): number {
  const r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
  const pure: [number, number][] = [[1, 0xff0000], [2, 0xffff00], [3, 0x00ff00], [4, 0x00ffff], [5, 0x0000ff], [6, 0xff00ff], [8, 0x808080], [9, 0xc0c0c0]];
  let best = 7, bestD = Infinity;
  for (const [aci, c] of pure) {
    const d = (r - ((c >> 16) & 255)) ** 2 + (g - ((c >> 8) & 255)) ** 2 + (b - (c & 255)) ** 2;
    if (d < bestD) [best, bestD] = [aci, d];
  }
  return best;
}

/** Builds a drawing (the model every reader makes) from imported pages: what the DXF writer then writes. */
export function buildDrawing(pages: ImportedPage[], o: BuildOptions): Drawing {
  const layers = new Map<string, Layer>();
  const linetypes = new Map<string, Linetype>();
  const styles = new Map<string, TextStyle>();
  const k = o.mmPerPoint;
  let handle = 0x100;
  const nextHandle = () => (handle++).toString(16).toUpperCase();

  const colourLayer = (hex: string) => `PDF_${hex.slice(1).toUpperCase()}`;
  const layerFor = (pdfLayer: string | null, hex: string): string => {
    const name = o.pdfLayers ? (pdfLayer ?? '0').replace(BAD_NAME, '_').trim() || '0' : colourLayer(hex);
    if (!layers.has(name)) {
      const rgb = parseInt(hex.slice(1), 16);
      const own = !o.pdfLayers && rgb !== 0;
      const on = !(o.pdfLayers && pdfLayer !== null && o.hiddenLayers?.has(pdfLayer));
      // the writer turns `on: false` into the LAYER's negative colour
      const color = own ? aciOf(rgb) : 7;
      layers.set(name, { name, color, ...(own ? { trueColor: rgb } : {}), linetype: 'Continuous', lineweight: -3, on, frozen: false, locked: false, handle: nextHandle() });
    }
    return name;
  };
  /** colour pairs: black is the foreground ink (ACI 7, black on paper, white on a dark screen); by-colour layers carry it */
  const colourPairs = (hex: string): Pair[] => {
    if (!o.pdfLayers) return [[62, 256]];
    const rgb = parseInt(hex.slice(1), 16);
    return rgb === 0 ? [[62, 7]] : [[62, aciOf(rgb)], [420, rgb]];
  };
  const linetypeFor = (dash: number[] | null): string | undefined => {
    if (!dash) return undefined;
    // PDF repeats an odd array twice over (§8.4.3.6): "3" is 3 on, 3 off
    const arr = dash.length % 2 ? [...dash, ...dash] : dash;
    const pattern = arr.map((v, i) => Math.round(v * k * 100) / 100 * (i % 2 ? -1 : 1));
    if (pattern.every((v) => v === 0)) return undefined;
    const key = pattern.join(',');
    let lt = [...linetypes.values()].find((l) => l.pattern.join(',') === key);
    if (!lt) {
      lt = { name: `PDF_DASH${linetypes.size + 1}`, description: pattern.map((v) => (v > 0 ? '_'.repeat(Math.min(5, Math.max(1, Math.round(v)))) : v < 0 ? ' ' : '.')).join(''), pattern, handle: nextHandle() };
      linetypes.set(lt.name, lt);
    }
    return lt.name;
  };
  const styleFor = (run: GlyphRun): string => {
    const base = run.font.replace(/^[A-Z]{6}\+/, '') || 'Standard';
    const name = base.replace(BAD_NAME, '_').slice(0, 200);
    if (!styles.has(name)) {
      const family = base.replace(/[-,](Bold|Italic|BoldItalic|Oblique|BoldOblique|Regular)$/i, '').replace(/MT$|PSMT$/, '');
      const file = /^arial/i.test(family) ? 'arial.ttf' : /^times/i.test(family) ? 'times.ttf' : /^courier/i.test(family) ? 'cour.ttf' : /^(helvetica)/i.test(family) ? 'arial.ttf' : `${family.toLowerCase()}.ttf`;
      styles.set(name, { name, font: file, bigFont: '', widthFactor: 1, oblique: 0, handle: nextHandle(), bold: run.bold, italic: run.italic });
    }
    return name;
  };

  const entities: Entity[] = [];
  const blocks: Block[] = [];
  const layouts: Layout[] = [{ name: 'Model', tabOrder: 0 }];
  const modelRecord = nextHandle();
  blocks.push({ name: '*Model_Space', recordHandle: modelRecord, base: { x: 0, y: 0, z: 0 }, entities: [] });

  let stackTop = 0;
  for (const [i, page] of pages.entries()) {
    const paper = o.placement === 'layouts';
    const record = nextHandle();
    // stacked pages go downwards from the first, a tenth of a page apart
    const oy = paper ? 0 : stackTop - page.content.height * k;
    if (!paper) stackTop = oy - page.content.height * k * 0.1;
    const at = (x: number, y: number): [number, number] => [x * k, y * k + oy];
    const out: Entity[] = [];
    const make = (type: string, layer: string, pairs: Pair[], extra: { linetype?: string; lineweight?: number; colour: Pair[] }): Entity => {
      const all: Pair[] = [[8, layer]];
      if (paper) all.push([67, 1]);
      if (extra.linetype) all.push([6, extra.linetype]);
      all.push(...extra.colour);
      if (extra.lineweight !== undefined) all.push([370, extra.lineweight]);
      // a hatch's loop counts (92) are also AcDbEntity codes: its subclass markers are written here, not guessed by the writer
      if (type === 'HATCH') all.unshift([100, 'AcDbEntity']), all.push([100, 'AcDbHatch']);
      all.push(...pairs);
      const color = Number(extra.colour.find((p) => p[0] === 62)?.[1] ?? 256);
      const tc = extra.colour.find((p) => p[0] === 420)?.[1];
      return {
        type, layer, color, ...(tc !== undefined ? { trueColor: Number(tc) } : {}), ...(extra.linetype ? { linetype: extra.linetype } : {}),
        ...(extra.lineweight !== undefined ? { lineweight: extra.lineweight } : {}), paperSpace: paper, owner: paper ? record : modelRecord, pairs: all,
      };
    };

    for (const shape of page.content.shapes) out.push(...shapeEntities(shape));
    for (const t of page.texts) {
      const layer = layerFor(t.layer, t.color);
      const [x, y] = at(t.x, t.y);
      const pairs: Pair[] = [[10, x], [20, y], [30, 0], [40, t.size * CAP_PER_EM * k], [1, t.text]];
      const deg = (t.angle * 180) / Math.PI;
      if (Math.abs(deg) > 1e-6) pairs.push([50, ((deg % 360) + 360) % 360]);
      // a string of several characters is fitted between where the PDF starts and ends it (TEXT "fit", 72 = 5): it
      // keeps its place and length whatever font the reader substitutes for the PDF's
      const [ex, ey] = at(t.endX, t.endY);
      const fit = [...t.text].length > 1 && Math.hypot(ex - x, ey - y) > 1e-6;
      if (!fit && Math.abs(t.widthFactor - 1) > 1e-3) pairs.push([41, t.widthFactor]);
      pairs.push([7, styleFor(t)]);
      if (fit) pairs.push([72, 5], [11, ex], [21, ey], [31, 0]);
      out.push(make('TEXT', layer, pairs, { colour: colourPairs(t.color) }));
    }

    function shapeEntities(s: Shape): Entity[] {
      const res: Entity[] = [];
      if (s.fill) {
        const layer = layerFor(s.layer, s.fillColor);
        const loops: Pair[] = [];
        let n = 0;
        for (const sp of s.subpaths) {
          const f = fitSubpath({ ...sp, closed: true }, o.tolerance);
          const verts = f.kind === 'polyline' ? f.vertices : f.kind === 'circle' ? circleVertices(f) : f.kind === 'arc' ? arcVertices(f) : f.kind === 'line' ? [{ x: f.a[0], y: f.a[1], bulge: 0 }, { x: f.b[0], y: f.b[1], bulge: 0 }] : [];
          if (verts.length < 3 && !verts.some((v) => v.bulge)) continue;
          const bulges = verts.some((v) => v.bulge !== 0);
          loops.push([92, n === 0 ? 3 : 2], [72, bulges ? 1 : 0], [73, 1], [93, verts.length]);
          for (const v of verts) {
            const [x, y] = at(v.x, v.y);
            loops.push([10, x], [20, y]);
            if (bulges) loops.push([42, v.bulge]);
          }
          loops.push([97, 0]);
          n++;
        }
        if (n) res.push(make('HATCH', layer, [[10, 0], [20, 0], [30, 0], [210, 0], [220, 0], [230, 1], [2, 'SOLID'], [70, 1], [71, 0], [91, n], ...loops, [75, 0], [76, 1], [98, 0]], { colour: colourPairs(s.fillColor) }));
      }
      if (!s.stroke) return res;
      const layer = layerFor(s.layer, s.strokeColor);
      const extra = { colour: colourPairs(s.strokeColor), linetype: linetypeFor(s.dash), lineweight: lineweightOf(s.lineWidth * (25.4 / 72)) };
      const emit = (f: Fitted) => {
        if (f.kind === 'chain') f.parts.forEach(emit);
        else if (f.kind === 'line') {
          const [x0, y0] = at(f.a[0], f.a[1]), [x1, y1] = at(f.b[0], f.b[1]);
          res.push(make('LINE', layer, [[10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]], extra));
        } else if (f.kind === 'circle') {
          const [x, y] = at(f.cx, f.cy);
          res.push(make('CIRCLE', layer, [[10, x], [20, y], [30, 0], [40, f.r * k]], extra));
        } else if (f.kind === 'arc') {
          const [x, y] = at(f.cx, f.cy);
          const deg = (a: number) => ((((a * 180) / Math.PI) % 360) + 360) % 360;
          res.push(make('ARC', layer, [[10, x], [20, y], [30, 0], [40, f.r * k], [50, deg(f.start)], [51, deg(f.end)]], extra));
        } else if (f.kind === 'spline') {
          res.push(make('SPLINE', layer, splinePairs(f.controls.map(([x, y]) => at(x, y))), extra));
        } else if (f.vertices.length >= 2) {
          const pairs: Pair[] = [[90, f.vertices.length], [70, f.closed ? 1 : 0], [43, 0]];
          for (const v of f.vertices) {
            const [x, y] = at(v.x, v.y);
            pairs.push([10, x], [20, y]);
            if (v.bulge) pairs.push([42, v.bulge]);
          }
          res.push(make('LWPOLYLINE', layer, pairs, extra));
        }
      };
      for (const sp of s.subpaths) emit(fitSubpath(sp, o.tolerance, true));
      return res;
    }

    if (paper) {
      const name = `Page ${page.number}`;
      const w = page.content.width * k, h = page.content.height * k;
      layouts.push({
        name, tabOrder: i + 1, blockRecord: record,
        pairs: [
          [100, 'AcDbPlotSettings'], [1, ''], [2, 'none_device'], [4, `PDF_PAGE_(${w.toFixed(2)}_x_${h.toFixed(2)}_MM)`], [6, ''],
          [40, 0], [41, 0], [42, 0], [43, 0], [44, w], [45, h], [46, 0], [47, 0], [48, 0], [49, 0], [140, 0], [141, 0], [142, 1], [143, 1],
          [70, 640], [72, 1], [73, 0], [74, 5], [7, ''], [75, 16], [147, 1], [76, 0], [77, 2], [78, 300],
          [100, 'AcDbLayout'], [1, name], [70, 1], [71, i + 1], [10, 0], [20, 0], [11, w], [21, h], [12, 0], [22, 0], [32, 0],
          [14, 0], [24, 0], [34, 0], [15, w], [25, h], [35, 0], [146, 0], [13, 0], [23, 0], [33, 0], [16, 1], [26, 0], [36, 0], [17, 0], [27, 1], [37, 0], [76, 0],
        ],
      });
      // the first layout's entities live in ENTITIES (the active paper space), the others' in their own block
      if (i === 0) {
        entities.push(...out);
        blocks.push({ name: '*Paper_Space', recordHandle: record, base: { x: 0, y: 0, z: 0 }, entities: [] });
      } else blocks.push({ name: `*Paper_Space${i - 1}`, recordHandle: record, base: { x: 0, y: 0, z: 0 }, entities: out });
    } else entities.push(...out);
  }

  if (!layers.has('0')) layers.set('0', { name: '0', color: 7, linetype: 'Continuous', lineweight: -3, on: true, frozen: false, locked: false, handle: nextHandle() });
  if (!styles.has('Standard')) styles.set('Standard', { name: 'Standard', font: 'arial.ttf', bigFont: '', widthFactor: 1, oblique: 0, handle: nextHandle() });
  const counts: Record<string, number> = {};
  const tally = (es: Entity[]) => es.forEach((e) => (counts[e.type] = (counts[e.type] ?? 0) + 1));
  tally(entities);
  blocks.forEach((b) => tally(b.entities));
  return {
    format: 'dxf', binary: false,
    header: {
      version: 'AC1032', units: 4, codePage: 'ANSI_1252',
      vars: { $INSUNITS: 4, $MEASUREMENT: 1, $LTSCALE: 1, $PSLTSCALE: 0 },
      // millimetres, metric, linetypes at their own size in every space (the dashes were measured on the page)
      groups: [['$INSUNITS', [[70, 4]]], ['$MEASUREMENT', [[70, 1]]], ['$LTSCALE', [[40, 1]]], ['$PSLTSCALE', [[70, 0]]]],
    },
    layers: [...layers.values()].sort((a, b) => (a.name === '0' ? -1 : b.name === '0' ? 1 : 0)),
    linetypes: [...linetypes.values()],
    textStyles: [...styles.values()],
    blocks, layouts, entities, counts, unsupported: {},
  };
}

/**
 * SPLINE groups of a chain of cubic Béziers (control points 3n + 1): degree 3, the knot vector AutoCAD writes for a
 * Bézier-converted spline — clamped (0 four times, n four times) with each interior knot three times, so every curve
 * is one span and the spline passes through each curve's end. Tolerances 42/43 of 1e-6 (small, and written without
 * an exponent). 70 = 8 (planar) only: a closed chain ends on its start point, and the closed flag (1) would have
 * readers take the clamped knots as a periodic spline's.
 */
export function splinePairs(controls: [number, number][]): Pair[] {
  const n = (controls.length - 1) / 3;
  const knots = [0, 0, 0, 0];
  for (let i = 1; i < n; i++) knots.push(i, i, i);
  knots.push(n, n, n, n);
  const pairs: Pair[] = [[210, 0], [220, 0], [230, 1], [70, 8], [71, 3], [72, knots.length], [73, controls.length], [74, 0], [42, 0.000001], [43, 0.000001]];
  for (const k of knots) pairs.push([40, k]);
  for (const [x, y] of controls) pairs.push([10, x], [20, y], [30, 0]);
  return pairs;
}

function circleVertices(f: Extract<Fitted, { kind: 'circle' }>) {
  // two half circles: bulge 1 each
  return [{ x: f.cx + f.r, y: f.cy, bulge: 1 }, { x: f.cx - f.r, y: f.cy, bulge: 1 }];
}

function arcVertices(f: Extract<Fitted, { kind: 'arc' }>) {
  let sweep = f.end - f.start;
  while (sweep <= 0) sweep += Math.PI * 2;
  return [
    { x: f.cx + f.r * Math.cos(f.start), y: f.cy + f.r * Math.sin(f.start), bulge: Math.tan(sweep / 4) },
    { x: f.cx + f.r * Math.cos(f.end), y: f.cy + f.r * Math.sin(f.end), bulge: 0 },
  ];
}
