/**
 * Curves in the scene (format 4): continuous circles, arcs, elliptical arcs and bulge arcs as parametric records
 * that the viewer tessellates every frame for the zoom it shows, instead of segments fixed at compile time.
 *
 * A record is 12 floats (three RGBA32F texels): cx cy ux uy | vx vy t0 sweep | layer colour weight tier, the point at
 * parameter t being (cx, cy) + (ux, uy) cos t + (vx, vy) sin t (relative to the scene origin, like every position).
 * Records are grouped in buckets of one sweep class and size class (⌈log2 largest radius⌉), and inside a bucket by
 * the tile of a CURVE_GRID × CURVE_GRID grid over the scene bounds their centre lies in: the viewer draws a bucket
 * with one segment count per frame (its largest radius on screen decides it) and, zoomed in, only the tiles in view.
 * Browser-safe.
 */
import { curveBox, curveRadius, curveSegments, nearestOnCurve, type Curve2, type CurveGeom } from '../geometry/curve.ts';
import type { Scene, SceneCurveBucket, SceneRect } from './scene.types.ts';

export const CURVE_FLOATS = 12;
/** tiles per side of the grid that orders a bucket's records */
export const CURVE_GRID = 32;
/** chord error the viewer allows, in device pixels */
export const CURVE_TOLERANCE_PX = 0.25;

/** Sweep classes: more than π, π/2, π/4, the rest (arcs share a segment count with arcs of a similar sweep). */
export function sweepClass(sweep: number): number {
  return sweep > Math.PI ? 0 : sweep > Math.PI / 2 ? 1 : sweep > Math.PI / 4 ? 2 : 3;
}

/** Size class: ⌈log2 radius⌉, clamped (a zero radius is the smallest class). */
export function sizeClass(radius: number): number {
  return radius > 0 ? Math.max(-60, Math.min(60, Math.ceil(Math.log2(radius)))) : -60;
}

/** The tile (row × CURVE_GRID + column) of a centre relative to the origin; the compiler and the viewer compute it alike. */
export function curveTile(x: number, y: number, bounds: SceneRect, origin: readonly [number, number]): number {
  const x0 = bounds.minX - origin[0], y0 = bounds.minY - origin[1];
  const w = Math.max(bounds.maxX - bounds.minX, 1e-300), h = Math.max(bounds.maxY - bounds.minY, 1e-300);
  const col = Math.max(0, Math.min(CURVE_GRID - 1, Math.floor(((x - x0) / w) * CURVE_GRID)));
  const row = Math.max(0, Math.min(CURVE_GRID - 1, Math.floor(((y - y0) / h) * CURVE_GRID)));
  return (Number.isFinite(row) ? row : 0) * CURVE_GRID + (Number.isFinite(col) ? col : 0);
}

/**
 * Whether a curve keeps its shape as a float32 record around the origin: rounding the centre, the axes and the two
 * parameters to float32 moves its points by about 2^-24 of their size; that must stay under a sixteenth of
 * `tolerance` (the scene's old tessellation tolerance). Near-straight bulge arcs of enormous radius fail it and are
 * drawn as segments instead.
 */
export function curveFitsRecord(c: CurveGeom, origin: readonly [number, number], tolerance: number): boolean {
  const r = curveRadius(c.ux, c.uy, c.vx, c.vy);
  const err = 2 ** -24 * (Math.abs(c.cx - origin[0]) + Math.abs(c.cy - origin[1]) + 2 * r + r * (Math.abs(c.t0) + Math.abs(c.t0 + c.sweep)));
  return err <= tolerance / 16;
}

/**
 * The flattener's curves as scene records, bucketed and ordered (see the file comment). `bounds` and `origin` must
 * be the scene's: tiles are computed from the float32 centres exactly as the viewer will. `tiers`: each curve's depth
 * tier (scene/tiers.ts), written into the record's last float (0 without).
 */
export function packCurves(curves: readonly Curve2[], layerOf: (name: string) => number, bounds: SceneRect, origin: readonly [number, number], tiers?: ArrayLike<number>) {
  const n = curves.length;
  const raw = new Float32Array(n * CURVE_FLOATS);
  const f = Math.fround;
  const key = new Float64Array(n);
  const radius = new Float64Array(n);
  // read here, in curve order: the sorted pass below then reads no curve object (random access to n objects)
  const entity = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = curves[i];
    // written field by field (layerOf in record order: it numbers new layers): no array per curve
    const k = i * CURVE_FLOATS;
    raw[k] = c.cx - origin[0];
    raw[k + 1] = c.cy - origin[1];
    raw[k + 2] = c.ux;
    raw[k + 3] = c.uy;
    raw[k + 4] = c.vx;
    raw[k + 5] = c.vy;
    raw[k + 6] = c.t0;
    raw[k + 7] = c.sweep;
    raw[k + 8] = layerOf(c.layer);
    raw[k + 9] = c.color & 0xffffff;
    raw[k + 10] = Math.max(0, Math.min(255, c.lineweight ?? 0));
    if (tiers) raw[k + 11] = tiers[i];
    entity[i] = c.entity;
    radius[i] = curveRadius(raw[k + 2], raw[k + 3], raw[k + 4], raw[k + 5]);
    // bucket (sweep class, then size class: neighbouring buckets often share a segment count, and the viewer then
    // draws them in one call) then tile: one number that sorts them
    key[i] = (sweepClass(f(c.sweep)) * 128 + sizeClass(radius[i]) + 64) * CURVE_GRID * CURVE_GRID + curveTile(raw[k], raw[k + 1], bounds, origin);
  }
  const order = sortedByKey(key);
  const records = new Float32Array(n * CURVE_FLOATS);
  const entities = new Uint32Array(n);
  const buckets: SceneCurveBucket[] = [];
  const tiles = CURVE_GRID * CURVE_GRID;
  for (let i = 0; i < n; i++) {
    const src = order[i];
    for (let j = 0; j < CURVE_FLOATS; j++) records[i * CURVE_FLOATS + j] = raw[src * CURVE_FLOATS + j];
    entities[i] = entity[src];
    const bucket = Math.floor(key[src] / tiles);
    const size = (bucket % 128) - 64, sweep = Math.floor(bucket / 128);
    const last = buckets[buckets.length - 1];
    // the largest radius, a hair up: the viewer's segment count must cover every record of the bucket
    const rad = radius[src] * (1 + 1e-6), sw = raw[src * CURVE_FLOATS + 7];
    if (last && last[0] === size && last[1] === sweep) {
      last[3]++;
      last[4] = Math.max(last[4], rad);
      last[5] = Math.max(last[5], sw);
    } else buckets.push([size, sweep, i, 1, rad, sw]);
  }
  return { records, entities, buckets };
}

const TWO32 = 2 ** 32;

/**
 * Indices 0 … n−1 ordered by key, then index (a stable sort by key). The keys are small non-negative integers, so
 * key × 2^32 + index is exact in a double and one native sort of those numbers gives the order, without a comparator
 * called a million times; other keys take the comparator sort.
 */
function sortedByKey(key: Float64Array): ArrayLike<number> {
  const n = key.length;
  let small = n < TWO32;
  for (let i = 0; small && i < n; i++) small = Number.isInteger(key[i]) && key[i] >= 0 && key[i] < 2 ** 20;
  if (!small) return Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = key[i] * TWO32 + i;
  packed.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = packed[i] % TWO32;
  return order;
}

/** Record `i` of the scene as a curve relative to the origin (into `out` when given: no allocation in loops). */
export function sceneCurve(s: Scene, i: number, out: CurveGeom = { cx: 0, cy: 0, ux: 0, uy: 0, vx: 0, vy: 0, t0: 0, sweep: 0 }): CurveGeom {
  const r = s.curves, k = i * CURVE_FLOATS;
  out.cx = r[k];
  out.cy = r[k + 1];
  out.ux = r[k + 2];
  out.uy = r[k + 3];
  out.vx = r[k + 4];
  out.vy = r[k + 5];
  out.t0 = r[k + 6];
  out.sweep = r[k + 7];
  return out;
}

export const curveCount = (s: Scene) => Math.floor((s.curves?.length ?? 0) / CURVE_FLOATS);
const layerOfRecord = (s: Scene, i: number) => s.curves[i * CURVE_FLOATS + 8];

/** Segments per curve of a bucket at `pxPerUnit` device pixels per drawing unit (chord error ≤ `tolerancePx`). */
export function bucketSegments(b: SceneCurveBucket, pxPerUnit: number, tolerancePx = CURVE_TOLERANCE_PX): number {
  return curveSegments(b[4] * pxPerUnit, b[5], tolerancePx);
}

/** Half extents of the full ellipse of record `k` (float index): a cheap box for culling and picking. */
function extentOf(r: Float32Array, k: number): [number, number] {
  return [Math.hypot(r[k + 2], r[k + 4]), Math.hypot(r[k + 3], r[k + 5])];
}

/** The curve nearest to (px, py) (relative to the origin) within `maxDist`: its entity and distance, or null. */
export function nearestCurve(s: Scene, px: number, py: number, maxDist: number, visibleLayers?: Set<number>): { entity: number; d: number } | null {
  const n = curveCount(s);
  const r = s.curves, g = sceneCurve(s, 0);
  let best: { entity: number; d: number } | null = null, limit = maxDist;
  for (let i = 0; i < n; i++) {
    if (visibleLayers && !visibleLayers.has(layerOfRecord(s, i))) continue;
    const k = i * CURVE_FLOATS;
    const [ex, ey] = extentOf(r, k);
    if (Math.abs(px - r[k]) > ex + limit || Math.abs(py - r[k + 1]) > ey + limit) continue;
    const { d } = nearestOnCurve(sceneCurve(s, i, g), px, py);
    if (d <= limit) {
      limit = d;
      best = { entity: s.curveEntities[i], d };
    }
  }
  return best;
}

/**
 * Snap points of the curves near (px, py) (relative to the origin): centres, and the ends of arcs that are not
 * closed. The nearest one within `maxDist`, or null.
 */
export function nearestCurveSnap(s: Scene, px: number, py: number, maxDist: number, visibleLayers?: Set<number>): { x: number; y: number; d: number } | null {
  const n = curveCount(s);
  const r = s.curves;
  let best: { x: number; y: number; d: number } | null = null, limit = maxDist;
  const consider = (x: number, y: number) => {
    const d = Math.hypot(x - px, y - py);
    if (d <= limit) {
      limit = d;
      best = { x, y, d };
    }
  };
  for (let i = 0; i < n; i++) {
    if (visibleLayers && !visibleLayers.has(layerOfRecord(s, i))) continue;
    const k = i * CURVE_FLOATS;
    const [ex, ey] = extentOf(r, k);
    if (Math.abs(px - r[k]) > ex + limit || Math.abs(py - r[k + 1]) > ey + limit) continue;
    consider(r[k], r[k + 1]);
    const t0 = r[k + 6], sweep = r[k + 7];
    if (sweep >= Math.PI * 2 - 1e-6) continue;
    for (const t of [t0, t0 + sweep]) consider(r[k] + r[k + 2] * Math.cos(t) + r[k + 4] * Math.sin(t), r[k + 1] + r[k + 3] * Math.cos(t) + r[k + 5] * Math.sin(t));
  }
  return best;
}

/** Calls add(x, y) with the corners of the exact box of every curve of `entity` (relative to the origin). */
export function curveEntityBounds(s: Scene, entity: number, add: (x: number, y: number) => void) {
  const n = curveCount(s);
  const g = sceneCurve(s, 0);
  for (let i = 0; i < n; i++) {
    if (s.curveEntities[i] !== entity) continue;
    const [minX, minY, maxX, maxY] = curveBox(sceneCurve(s, i, g));
    add(minX, minY);
    add(maxX, maxY);
  }
}

/**
 * The scene's curves as plain segments at a chord error ≤ `tolerance` drawing units, in the line buffer's form (x0 y0
 * x1 y1 per segment relative to the origin, r g b a per segment, entity per segment): for tools and tests that
 * read lines, and for outputs without a curve primitive.
 */
export function tessellateSceneCurves(s: Scene, tolerance: number): { positions: Float32Array; colors: Uint8Array; entities: Uint32Array; layers: Uint32Array } {
  const n = curveCount(s);
  const g = sceneCurve(s, 0);
  const counts = new Uint32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    sceneCurve(s, i, g);
    total += counts[i] = curveSegments(curveRadius(g.ux, g.uy, g.vx, g.vy), g.sweep, tolerance);
  }
  const positions = new Float32Array(total * 4), colors = new Uint8Array(total * 4), entities = new Uint32Array(total), layers = new Uint32Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    sceneCurve(s, i, g);
    const k = i * CURVE_FLOATS, rgb = s.curves[k + 9];
    let x0 = g.cx + g.ux * Math.cos(g.t0) + g.vx * Math.sin(g.t0), y0 = g.cy + g.uy * Math.cos(g.t0) + g.vy * Math.sin(g.t0);
    for (let j = 1; j <= counts[i]; j++) {
      const t = g.t0 + (g.sweep * j) / counts[i];
      const x1 = g.cx + g.ux * Math.cos(t) + g.vx * Math.sin(t), y1 = g.cy + g.uy * Math.cos(t) + g.vy * Math.sin(t);
      positions.set([x0, y0, x1, y1], at * 4);
      colors.set([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, 255], at * 4);
      entities[at] = s.curveEntities[i];
      layers[at] = s.curves[k + 8];
      at++;
      x0 = x1;
      y0 = y1;
    }
  }
  return { positions, colors, entities, layers };
}
