import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { expandFlatBlocks } from '../geometry/block-instances.ts';
import { curveBox, tessellateCurve, type Curve2, type CurveGeom } from '../geometry/curve.ts';
import { pictureBatcher, type PictureBatch } from './picture-batches.ts';
import type { RenderPictures } from './pictures.ts';

/**
 * Geometry of one text run in drawing units, as the text engine lays it out: stroke-font glyphs as
 * polylines (x0 y0 x1 y1 …) and outline-font glyphs as triangles (x0 y0 x1 y1 x2 y2 per triangle).
 * Renderers take it as an optional callback so they stay independent of fonts; without it they fall back
 * to the output format's own text (SVG `<text>`, PDF Helvetica; PNG has no fonts and draws none).
 */
export type TextGeometry = (run: TextRun) => TextShapes | null | undefined;

export interface TextShapes {
  strokes: number[][];
  triangles: number[];
  /** 0xRRGGBB per stroke / per triangle when inline colour codes recolour part of an MTEXT */
  colors?: number[];
  triangleColors?: number[];
  /** the outline glyphs as rings filled nonzero, per glyph in the triangles' order (text/layout.ts) */
  outlines?: { rings: number[][]; triangles: number }[];
}

export interface RenderOptions {
  /** output width in pixels (SVG/PNG); the height follows the drawing's aspect */
  width?: number;
  background?: 'dark' | 'light';
  text?: TextGeometry;
  /** draw lineweights (default true); false draws every line one pixel wide */
  lineweights?: boolean;
  /** pictures of the IMAGE entities (loadRenderPictures); without them only their frames are drawn */
  pictures?: RenderPictures;
  /** the part of the drawing to show (default: all of it); thumbnails pass the viewer's extents (contentExtents) */
  view?: Bounds;
  /**
   * exact output (pictures of a given size): `height` pixels too, `view` shown without the 2 % border and centred in
   * the picture with the aspect the two sizes give, `background` 'none' for a transparent picture
   */
  height?: number;
  exactView?: boolean;
  transparent?: boolean;
  /** 0xRRGGBB of the background instead of the viewer's light or dark one (a picture on black) */
  backgroundColor?: number;
  /** batches never span two layers and carry their layer's name (a PDF puts each layer in its own optional content) */
  layers?: boolean;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** One draw call: consecutive polylines with the same look share it, so big drawings make small files. */
export type Batch = (
  | {
      kind: 'stroke';
      color: number;
      /** lineweight in 1/100 mm, 0 = thinnest */
      lineweight: number;
      /** `curve`: an exact curve, which a format with arcs draws as such; `points` is its tessellation at the output's resolution */
      lines: { points: number[]; closed: boolean; curve?: CurveGeom }[];
    }
  | { kind: 'fill'; color: number; /** rings: outer rings and holes together, filled even-odd */ rings: number[][] }
  /** triangles of outline glyphs, filled non-zero (a triangulation's triangles may share edges) */
  | {
      kind: 'triangles';
      color: number;
      triangles: number[];
      /** the same glyphs as rings filled nonzero, when every glyph in the batch has them: a rasteriser's cheaper path */
      outline?: number[][];
    }
  /** a picture of an IMAGE (picture-batches.ts) */
  | PictureBatch
) & {
  /** with `RenderOptions.layers`: the layer of everything in the batch */
  layer?: string;
};

export interface Prepared {
  batches: Batch[];
  /** runs that no text callback turned into geometry: drawn with the format's own font */
  texts: TextRun[];
  bounds: Bounds;
  background: number;
  dark: boolean;
}

export const LIGHT_BACKGROUND = 0xffffff;
export const DARK_BACKGROUND = 0x212830;

/** White entities (ACI 7) become black on the light background, as CAD viewers do. */
export function inkColor(c: number, dark: boolean): number {
  return !dark && c === 0xffffff ? 0x000000 : c;
}

export const hex = (c: number) => `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;

/** Lineweight 1/100 mm → pixels at 96 dpi, never thinner than one pixel (what CAD screens show). */
export function lineweightPx(lw: number): number {
  return Math.max(1, (lw / 100) * (96 / 25.4));
}

/** Lineweight 1/100 mm → PDF points; 0 (thinnest) prints as 0.25 pt. */
export function lineweightPt(lw: number): number {
  return Math.max(0.25, (lw / 100) * (72 / 25.4));
}

function grow(b: Bounds, pts: readonly number[]) {
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = pts[i], y = pts[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < b.minX) b.minX = x;
    if (x > b.maxX) b.maxX = x;
    if (y < b.minY) b.minY = y;
    if (y > b.maxY) b.maxY = y;
  }
}

/** Text runs' approximate box when no layout engine measured them: 0.6 × height per character. */
function growText(b: Bounds, t: TextRun) {
  const lines = t.text.split('\n');
  const w = t.height * Math.max(...lines.map((l) => l.length)) * 0.6 * (t.widthFactor || 1);
  grow(b, [t.x, t.y, t.x + w, t.y + t.height * lines.length * 1.4]);
}

export function boundsOf(f: Flattened): Bounds | null {
  // a flattening with block instances (the scene compiler's form) is drawn with them baked back
  f = expandFlatBlocks(f);
  return boundsWith(f, (f.curves ?? []).map((c) => curveBox(c)));
}

/** boundsOf with the curves' boxes already made (prepare boxes each curve once, for the page and for its own bounds) */
function boundsWith(f: Flattened, curveBoxes: readonly number[][]): Bounds | null {
  const b: Bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const p of f.polylines) grow(b, p.points);
  for (const box of curveBoxes) grow(b, box);
  for (const t of f.texts) growText(b, t);
  return Number.isFinite(b.minX) ? b : null;
}

/**
 * Flattened geometry turned into draw batches in draw order (later entities paint over earlier ones, so a
 * solid hatch or wipeout hides what lies under it, as in CAD), texts through the callback when there is one.
 */
export function prepare(f: Flattened, opts: RenderOptions = {}): Prepared {
  f = expandFlatBlocks(f);
  const dark = opts.background === 'dark';
  const useLw = opts.lineweights !== false;
  const batches: Batch[] = [];
  const b: Bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  let last: Batch | undefined;
  // with `layers`, a batch holds one layer's geometry only
  const byLayer = opts.layers === true;
  let layer: string | undefined;
  const tag = <B extends Batch>(batch: B): B => {
    if (byLayer) batch.layer = layer;
    return batch;
  };
  const stroke = (color: number, lineweight: number, points: number[], closed: boolean, curve?: CurveGeom) => {
    if (points.length < 4) return;
    const line = curve ? { points, closed, curve } : { points, closed };
    if (last?.kind === 'stroke' && last.color === color && last.lineweight === lineweight && last.layer === (byLayer ? layer : undefined)) last.lines.push(line);
    else batches.push((last = tag({ kind: 'stroke', color, lineweight, lines: [line] })));
  };
  // exact curves (flattened with `curves: true`): tessellated at a quarter pixel of the output width, kept for formats with arcs
  const curves = f.curves ?? [];
  const boxes = curves.map((c) => curveBox(c));
  const tolerance = curves.length ? framed(opts.view ?? boundsWith(f, boxes) ?? { minX: 0, minY: 0, maxX: 1, maxY: 1 }).w / Math.max(1, opts.width ?? 1600) / 4 : 0;
  const curve = (c: Curve2, box: number[]) => {
    layer = c.layer;
    grow(b, box);
    const full = c.sweep >= Math.PI * 2 - 1e-12;
    let points = tessellateCurve(c, tolerance);
    // a curve under the tolerance is still a dot
    if (points.length < 4) points = [box[0], box[1], box[2], box[3]];
    stroke(inkColor(c.color, dark), useLw ? (c.lineweight ?? 0) : 0, points, full, c);
  };
  const texts: TextRun[] = [];
  const text = (t: TextRun) => {
    layer = t.layer;
    const g = opts.text ? opts.text(t) : undefined;
    if (!g) {
      texts.push(t);
      growText(b, t);
      return;
    }
    for (let i = 0; i < g.strokes.length; i++) {
      grow(b, g.strokes[i]);
      stroke(inkColor(g.colors?.[i] ?? t.color, dark), 0, g.strokes[i], false);
    }
    grow(b, g.triangles);
    // each glyph's rings go with its first triangle (a glyph has one colour, so it never spans two batches)
    const outlines = g.outlines && g.outlines.reduce((n, o) => n + o.triangles, 0) * 6 === g.triangles.length ? g.outlines : undefined;
    let glyph = 0, glyphStart = 0;
    const tri = g.triangles, n = Math.floor(tri.length / 6);
    for (let k = 0; k < n; ) {
      const color = inkColor(g.triangleColors?.[k] ?? t.color, dark);
      if (last?.kind !== 'triangles' || last.color !== color || last.layer !== (byLayer ? layer : undefined)) batches.push((last = tag({ kind: 'triangles', color, triangles: [], outline: [] })));
      // the triangles up to the next change of colour go in as one slice (copied once at the end, `triangleParts`):
      // pushed six numbers at a time they were most of prepare's own time on a text-heavy drawing
      let end = k + 1;
      if (g.triangleColors) while (end < n && inkColor(g.triangleColors[end] ?? t.color, dark) === color) end++;
      else end = n;
      if (!outlines) last.outline = undefined;
      else
        while (glyphStart < end && glyph < outlines.length) {
          last.outline?.push(...outlines[glyph].rings);
          glyphStart += outlines[glyph++].triangles;
        }
      let parts = triangleParts.get(last);
      if (!parts) triangleParts.set(last, (parts = []));
      parts.push(k === 0 && end === n && tri.length === n * 6 ? tri : tri.slice(k * 6, end * 6));
      k = end;
    }
  };
  // each triangle batch's slices, joined once when every text is placed
  const triangleParts = new Map<Batch, number[][]>();
  // curves and texts in entity order among the polylines, so later entities still paint over earlier ones: a wipeout
  // or a solid fill hides a text drawn before it (texts drawn last showed through)
  const runs = f.texts.slice().sort((x, y) => x.entity - y.entity);
  let ci = 0, ti = 0;
  const before = (entity: number) => {
    for (;;) {
      const c = ci < curves.length && curves[ci].entity < entity ? curves[ci].entity : Infinity;
      const t = ti < runs.length && runs[ti].entity < entity ? runs[ti].entity : Infinity;
      if (c === Infinity && t === Infinity) return;
      if (c <= t) (curve(curves[ci], boxes[ci]), ci++);
      else text(runs[ti++]);
    }
  };
  // pictures and wipeouts go between the polylines, where their frames are: draw order is kept
  const backgroundColor = opts.backgroundColor ?? (dark ? DARK_BACKGROUND : LIGHT_BACKGROUND);
  const pictures = pictureBatcher(f, opts.pictures, backgroundColor);
  const paintPictures = (order: number) => {
    for (const pb of pictures.upTo(order)) batches.push((last = byLayer ? pb : { ...pb, layer: undefined }));
  };
  let index = 0;
  for (const p of f.polylines) {
    before(p.entity);
    paintPictures(index++);
    layer = p.layer;
    grow(b, p.points);
    const color = inkColor(p.color, dark);
    if (p.filled) {
      const rings = [p.points, ...(p.holes ?? [])].filter((r) => r.length >= 6);
      if (!rings.length) continue;
      if (last?.kind === 'fill' && last.color === color && last.layer === (byLayer ? layer : undefined)) last.rings.push(...rings);
      // rings of different areas are separate subpaths; even-odd only matters where they overlap
      else batches.push((last = tag({ kind: 'fill', color, rings })));
    } else {
      stroke(color, useLw ? (p.lineweight ?? 0) : 0, p.points, p.closed);
    }
  }
  before(Infinity);
  paintPictures(Infinity);
  for (const [batch, parts] of triangleParts) if (batch.kind === 'triangles') batch.triangles = parts.length === 1 ? parts[0].slice() : ([] as number[]).concat(...parts);
  const bounds = opts.view ?? (Number.isFinite(b.minX) ? b : { minX: 0, minY: 0, maxX: 1, maxY: 1 });
  return { batches, texts, bounds, background: backgroundColor, dark };
}

/** The drawing's box with a 2 % margin, never zero-sized (a single point or line still gets a page). */
export function framed(b: Bounds): Bounds & { w: number; h: number } {
  const w0 = Math.max(b.maxX - b.minX, 0), h0 = Math.max(b.maxY - b.minY, 0);
  const size = Math.max(w0, h0, 1e-9);
  const pad = size * 0.02;
  const w = Math.max(w0, size * 1e-3) + 2 * pad, h = Math.max(h0, size * 1e-3) + 2 * pad;
  const minX = (b.minX + b.maxX) / 2 - w / 2, minY = (b.minY + b.maxY) / 2 - h / 2;
  return { minX, minY, maxX: minX + w, maxY: minY + h, w, h };
}
