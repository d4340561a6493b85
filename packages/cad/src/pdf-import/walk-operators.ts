import { CadError } from '../model/drawing.ts';
import { apply, IDENTITY, meanScale, multiply, type Matrix } from './matrix.ts';
import type { GlyphRun, PageContent, Pt, Shape, Subpath } from './page-content.ts';
import { clipOf, cutToClips, insideClip, showsThrough, type Clip } from './clip.ts';

/** pdf.js's operator numbers and path-buffer commands (pdfjs-dist 5.6.205, `OPS` and `DrawOPS`). */
export type OpsTable = Record<string, number>;
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 };

/** Limits that keep a hostile page from filling memory: past them the import ends with `cad.tooComplex`. */
export interface WalkLimits {
  maxSegments: number;
  maxGlyphs: number;
}

interface FontInfo {
  name: string;
  matrix: number[];
  bold: boolean;
  italic: boolean;
  vertical: boolean;
}

interface State {
  ctm: Matrix;
  lineWidth: number;
  dash: number[] | null;
  strokeColor: string;
  fillColor: string;
  /** a pattern or shading fill: not a solid colour, its fills are left out */
  fillPattern: boolean;
  font: FontInfo | null;
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  renderMode: number;
  /** the clipping paths in force (none: the whole page); what lies wholly outside them is not drawn */
  clips: Clip[];
}

const hex = (v: unknown): string => {
  if (typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const [r, g, b] = Array.from(v as ArrayLike<number>).map((x) => Math.max(0, Math.min(255, Math.round(Number(x)))));
    return `#${[r, g, b].map((x) => (x || 0).toString(16).padStart(2, '0')).join('')}`;
  }
  return '#000000';
};

/** Arguments that pdf.js gives either spread or as one array. */
const six = (args: unknown[]): number[] => (Array.isArray(args[0]) || ArrayBuffer.isView(args[0]) ? Array.from(args[0] as ArrayLike<number>) : (args as number[]));

/**
 * The page as a viewer shows it: user space moved to the crop box's corner and turned by the page's /Rotate
 * (clockwise, in quarter turns), so a landscape plot stored portrait comes out landscape. Returns the matrix and the
 * shown width and height.
 */
export function pageMatrix(view: number[], rotate: number): { m: Matrix; width: number; height: number } {
  const [x0, y0, x1, y1] = view;
  const w = x1 - x0, h = y1 - y0;
  const base: Matrix = [1, 0, 0, 1, -x0, -y0];
  const r = ((Math.round(rotate / 90) % 4) + 4) % 4;
  if (r === 1) return { m: multiply(base, [0, -1, 1, 0, 0, w]), width: h, height: w };
  if (r === 2) return { m: multiply(base, [-1, 0, 0, -1, w, h]), width: w, height: h };
  if (r === 3) return { m: multiply(base, [0, 1, -1, 0, h, 0]), width: h, height: w };
  return { m: base, width: w, height: h };
}

/**
 * Walks a page's operator list (page.getOperatorList()) keeping the graphics state PDF defines (q/Q, cm, form
 * matrices, colours, line width, dash, text state) and returns the page's painted paths and glyph runs in page
 * points. Since pdf.js 4.6 a path arrives as one `constructPath` whose first argument is the painting operator and
 * whose buffer holds the segments (DrawOPS); clipping paths (`n`) paint nothing and are skipped.
 */
export function walkOperators(
  list: { fnArray: number[]; argsArray: unknown[][] },
  OPS: OpsTable,
  view: number[],
  fontOf: (ref: string) => FontInfo | null,
  layerOf: (id: string) => string | null,
  limits: WalkLimits,
  rotate = 0,
): PageContent {
  const shown = pageMatrix(view, rotate);
  const page: PageContent = { width: shown.width, height: shown.height, shapes: [], runs: [], images: 0 };
  // page points from the shown page's lower left corner
  let st: State = {
    ctm: shown.m, lineWidth: 1, dash: null, strokeColor: '#000000', fillColor: '#000000', fillPattern: false,
    font: null, fontSize: 0, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0, renderMode: 0, clips: [],
  };
  // W / W* set the clip to the next path (pdf.js puts the clip operator before the path it takes)
  let clipNext = false;
  const stack: State[] = [];
  const marked: (string | null)[] = [];
  const layer = () => {
    for (let i = marked.length - 1; i >= 0; i--) if (marked[i]) return marked[i];
    return null;
  };
  let tm: Matrix = IDENTITY, tlm: Matrix = IDENTITY;
  let segments = 0, glyphs = 0;
  const OP = OPS;
  const paintOf: Record<number, { stroke: boolean; fill: boolean; close: boolean }> = {
    [OP.stroke]: { stroke: true, fill: false, close: false },
    [OP.closeStroke]: { stroke: true, fill: false, close: true },
    [OP.fill]: { stroke: false, fill: true, close: true },
    [OP.eoFill]: { stroke: false, fill: true, close: true },
    [OP.fillStroke]: { stroke: true, fill: true, close: false },
    [OP.eoFillStroke]: { stroke: true, fill: true, close: false },
    [OP.closeFillStroke]: { stroke: true, fill: true, close: true },
    [OP.closeEOFillStroke]: { stroke: true, fill: true, close: true },
  };

  const moveText = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };

  const setGState = (entries: unknown) => {
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (!Array.isArray(e)) continue;
      const [k, v] = e;
      if (k === 'LW') st.lineWidth = Number(v);
      else if (k === 'D' && Array.isArray(v)) st.dash = Array.isArray(v[0]) && v[0].length ? v[0].map(Number) : null;
    }
  };

  const path = (args: unknown[]) => {
    const paint = paintOf[args[0] as number] ?? { stroke: false, fill: false, close: false };
    const data = (args[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
    if (!data || !data.length) return;
    const m = st.ctm;
    const subpaths: Subpath[] = [];
    let cur: Subpath | null = null;
    let last: Pt = [0, 0];
    const pt = (x: number, y: number): Pt => apply(m, x, y);
    for (let i = 0; i < data.length; ) {
      const cmd = data[i++];
      if (cmd === DRAW.moveTo) {
        last = pt(data[i++], data[i++]);
        cur = { start: last, segs: [], closed: false };
        subpaths.push(cur);
      } else if (cmd === DRAW.lineTo) {
        const to = pt(data[i++], data[i++]);
        if (!cur) subpaths.push((cur = { start: last, segs: [], closed: false }));
        cur.segs.push({ kind: 'L', to });
        last = to;
      } else if (cmd === DRAW.curveTo) {
        const c1 = pt(data[i++], data[i++]), c2 = pt(data[i++], data[i++]), to = pt(data[i++], data[i++]);
        if (!cur) subpaths.push((cur = { start: last, segs: [], closed: false }));
        cur.segs.push({ kind: 'C', c1, c2, to });
        last = to;
      } else if (cmd === DRAW.quadraticCurveTo) {
        // a quadratic as the cubic it equals
        const q = pt(data[i++], data[i++]), to = pt(data[i++], data[i++]);
        if (!cur) subpaths.push((cur = { start: last, segs: [], closed: false }));
        const c1: Pt = [last[0] + (2 / 3) * (q[0] - last[0]), last[1] + (2 / 3) * (q[1] - last[1])];
        const c2: Pt = [to[0] + (2 / 3) * (q[0] - to[0]), to[1] + (2 / 3) * (q[1] - to[1])];
        cur.segs.push({ kind: 'C', c1, c2, to });
        last = to;
      } else if (cmd === DRAW.closePath) {
        if (cur) {
          cur.closed = true;
          last = cur.start;
          cur = null;
        }
      } else break; // an unknown command: the rest of this buffer cannot be read
    }
    let n = 0;
    for (const s of subpaths) {
      if (paint.close) s.closed = true;
      n += s.segs.length;
    }
    segments += n;
    if (segments > limits.maxSegments) throw new CadError('cad.tooComplex', 'The drawing analysis failed!', `the PDF holds more than ${limits.maxSegments} path segments`);
    const kept = subpaths.filter((s) => s.segs.length);
    let box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const s of subpaths) {
      for (const p of [s.start, ...s.segs.map((g) => g.to)]) box = [Math.min(box[0], p[0]), Math.min(box[1], p[1]), Math.max(box[2], p[0]), Math.max(box[3], p[1])];
    }
    if (clipNext) {
      clipNext = false;
      // a clip the size of the page or more clips nothing: not kept (most plots set one per view)
      const whole = box[0] <= 0.5 && box[1] <= 0.5 && box[2] >= page.width - 0.5 && box[3] >= page.height - 0.5;
      if (!whole) st.clips = [...st.clips, clipOf(subpaths, box)];
    }
    if (!kept.length) return;
    // wholly off the page (the crop box clips every page), or outside the clip: the page does not show it
    if (box[2] < 0 || box[3] < 0 || box[0] > page.width || box[1] > page.height) return;
    if (!showsThrough(st.clips, kept)) return;
    const fill = paint.fill && !st.fillPattern;
    // the clips in force cut what crosses them (a viewport's overflow is not on the sheet)
    const cut = st.clips.some((c) => box[0] < c.box[0] || box[1] < c.box[1] || box[2] > c.box[2] || box[3] > c.box[3] || c.rings.length !== 1 || c.rings[0].length > 5);
    const shown = cut ? cutToClips(kept, st.clips, fill && !paint.stroke) : kept;
    if (!shown.length) return;
    // a clipping path, or one ended without painting, draws nothing
    if (!fill && !paint.stroke) return;
    const scale = meanScale(m);
    const shape: Shape = {
      subpaths: shown, stroke: paint.stroke, fill, strokeColor: st.strokeColor, fillColor: st.fillColor,
      lineWidth: st.lineWidth * scale, dash: st.dash ? st.dash.map((x) => x * scale) : null, layer: layer(),
    };
    page.shapes.push(shape);
  };

  const showText = (items: unknown) => {
    if (!Array.isArray(items) || !st.font) return;
    const font = st.font;
    const size = st.fontSize;
    const fm = font.matrix[0] || 0.001;
    const start = tm;
    let x = 0;
    let text = '';
    for (const g of items) {
      if (typeof g === 'number') {
        x -= (g * size) / 1000;
        continue;
      }
      if (!g || typeof g !== 'object') continue;
      const glyph = g as { unicode?: string; width?: number; isSpace?: boolean };
      // a tab, line break or no-break space in a font's mapping is a blank in a TEXT (as a PDF reader's text content has it)
      text += (glyph.unicode ?? '').replace(/[\t\r\n\u00a0\u2000-\u200b\u3000]/g, ' ');
      const spacing = st.charSpacing + (glyph.isSpace ? st.wordSpacing : 0);
      x += (glyph.width ?? 0) * fm * size + spacing;
      glyphs++;
    }
    if (glyphs > limits.maxGlyphs) throw new CadError('cad.tooComplex', 'The drawing analysis failed!', `the PDF shows more than ${limits.maxGlyphs} glyphs`);
    const advance = x * st.hScale;
    tm = multiply([1, 0, 0, 1, advance, 0], tm);
    if (!text) return;
    // text space → page: [size·Th 0 0 size 0 rise] × Tm × CTM
    const trm = multiply(multiply([size * st.hScale, 0, 0, size, 0, st.rise], start), st.ctm);
    const [x0, y0] = apply(trm, 0, 0);
    const [x1, y1] = apply(multiply(multiply([1, 0, 0, 1, advance, 0], start), st.ctm), 0, st.rise);
    const ux = Math.hypot(trm[0], trm[1]), uy = Math.hypot(trm[2], trm[3]);
    if (!(uy > 0)) return;
    // text off the page is not on the plot (writers hide their stamps there): as pdf.js's text content, left out
    const off = (x: number, y: number) => x < 0 || y < 0 || x > page.width || y > page.height;
    if (off(x0, y0) && off(x1, y1)) return;
    // and text a clip hides (a viewport's overflow): neither its start nor its end shows
    if (st.clips.length && !st.clips.every((c) => insideClip(c, [x0, y0]) || insideClip(c, [x1, y1]))) return;
    const run: GlyphRun = {
      text, x: x0, y: y0, endX: x1, endY: y1, size: uy, angle: Math.atan2(trm[1], trm[0]), widthFactor: ux / uy || 1,
      font: font.name, bold: font.bold, italic: font.italic, color: st.renderMode === 1 || st.renderMode === 5 ? st.strokeColor : st.fillColor,
      layer: layer(), invisible: st.renderMode === 3 || st.renderMode === 7,
    };
    page.runs.push(run);
  };

  const { fnArray, argsArray } = list;
  for (let k = 0; k < fnArray.length; k++) {
    const fn = fnArray[k];
    const args = (argsArray[k] ?? []) as unknown[];
    switch (fn) {
      case OP.save: stack.push({ ...st, dash: st.dash }); break;
      case OP.restore: if (stack.length) st = stack.pop()!; break;
      case OP.transform: st.ctm = multiply(six(args), st.ctm); break;
      case OP.paintFormXObjectBegin: {
        stack.push({ ...st });
        const m = args[0];
        if (m && (Array.isArray(m) || ArrayBuffer.isView(m))) st.ctm = multiply(Array.from(m as ArrayLike<number>), st.ctm);
        break;
      }
      case OP.paintFormXObjectEnd: if (stack.length) st = stack.pop()!; break;
      case OP.setLineWidth: st.lineWidth = Number(args[0]); break;
      case OP.setDash: {
        const arr = args[0] as number[] | undefined;
        st.dash = arr && arr.length && arr.some((v) => v > 0) ? Array.from(arr, Number) : null;
        break;
      }
      case OP.setGState: setGState(args[0]); break;
      case OP.setStrokeRGBColor: st.strokeColor = hex(args.length === 1 ? args[0] : args); break;
      case OP.setFillRGBColor: st.fillColor = hex(args.length === 1 ? args[0] : args); st.fillPattern = false; break;
      case OP.setStrokeGray: st.strokeColor = hex([args[0], args[0], args[0]].map((v) => Number(v) * 255)); break;
      case OP.setFillGray: st.fillColor = hex([args[0], args[0], args[0]].map((v) => Number(v) * 255)); st.fillPattern = false; break;
      case OP.setFillColorN: if (args[0] === 'TilingPattern' || args[0] === 'Shading') st.fillPattern = true; break;
      case OP.shadingFill: break;
      case OP.clip:
      case OP.eoClip:
        clipNext = true;
        break;
      case OP.constructPath: path(args); break;
      case OP.beginMarkedContent: marked.push(null); break;
      case OP.beginMarkedContentProps: {
        const props = args[1] as { type?: string; id?: string } | null;
        marked.push(args[0] === 'OC' && props?.type === 'OCG' && props.id ? layerOf(props.id) : null);
        break;
      }
      case OP.endMarkedContent: marked.pop(); break;
      case OP.beginText: tm = tlm = IDENTITY; break;
      case OP.setFont: st.font = fontOf(String(args[0])); st.fontSize = Number(args[1]) || 0; break;
      case OP.setTextMatrix: tm = tlm = six(args) as Matrix; break;
      case OP.moveText: moveText(Number(args[0]), Number(args[1])); break;
      case OP.setLeadingMoveText: st.leading = -Number(args[1]); moveText(Number(args[0]), Number(args[1])); break;
      case OP.nextLine: moveText(0, -st.leading); break;
      case OP.setLeading: st.leading = Number(args[0]); break;
      case OP.setCharSpacing: st.charSpacing = Number(args[0]); break;
      case OP.setWordSpacing: st.wordSpacing = Number(args[0]); break;
      case OP.setHScale: st.hScale = Number(args[0]) / 100; break;
      case OP.setTextRise: st.rise = Number(args[0]); break;
      case OP.setTextRenderingMode: st.renderMode = Number(args[0]); break;
      case OP.showText: showText(args[0]); break;
      case OP.nextLineShowText: moveText(0, -st.leading); showText(args[0]); break;
      case OP.nextLineSetSpacingShowText: st.wordSpacing = Number(args[0]); st.charSpacing = Number(args[1]); moveText(0, -st.leading); showText(args[2]); break;
      case OP.paintImageXObject:
      case OP.paintInlineImageXObject:
      case OP.paintImageMaskXObject:
      case OP.paintImageXObjectRepeat:
      case OP.paintInlineImageXObjectGroup:
      case OP.paintImageMaskXObjectGroup:
      case OP.paintSolidColorImageMask:
        page.images++;
        break;
      default: break;
    }
  }
  return page;
}

export type { FontInfo };
