/**
 * Parametric curves: circles, arcs, elliptical arcs and polyline bulge arcs kept exact instead of tessellated.
 * Every one of them, after any chain of block transforms (mirrors, non-uniform scales, the shear of a rotated block
 * inside a non-uniformly scaled one) and OCS flips, is the affine image of an arc of the unit circle:
 *
 *   P(t) = C + U cos t + V sin t,   t ∈ [t0, t0 + sweep],   0 < sweep ≤ 2π
 *
 * U and V are conjugate semi-diameters (for a circle: r along x and r along y; for an ELLIPSE: the major axis and
 * ratio × its normal). Storing them instead of (major axis, ratio) keeps sheared ellipses exact, costs one float
 * more and makes evaluation one multiply-add per axis. No imports: the scene and the browser viewer use this too.
 */

export interface CurveGeom {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  vx: number;
  vy: number;
  /** start parameter (radians) */
  t0: number;
  /** parameter sweep, 0 < sweep ≤ 2π (a full closed curve is 2π) */
  sweep: number;
}

/** A curve as the flattener emits it (drawing units, after transforms), with what its polyline would carry. */
export interface Curve2 extends CurveGeom {
  /** 0xRRGGBB */
  color: number;
  layer: string;
  /** index into `Flattened.entities` */
  entity: number;
  /** resolved lineweight in 1/100 mm (0 = thinnest) */
  lineweight?: number;
  /** where it is drawn among `Flattened.polylines` (see `TextRun.at`); only in drawings with wipeouts */
  at?: number;
}

const TAU = Math.PI * 2;

export function curvePoint(g: CurveGeom, t: number): [number, number] {
  const c = Math.cos(t), s = Math.sin(t);
  return [g.cx + g.ux * c + g.vx * s, g.cy + g.uy * c + g.vy * s];
}

export const isFullCurve = (g: CurveGeom) => g.sweep >= TAU - 1e-12;

/**
 * The largest radius of the curve's ellipse (its semi-major axis: the largest singular value of [U V]). The chord
 * error of a parameter step Δt is at most this × (1 − cos(Δt/2)) (see `curveSegments`).
 */
export function curveRadius(ux: number, uy: number, vx: number, vy: number): number {
  const a = ux * ux + uy * uy, b = ux * vx + uy * vy, d = vx * vx + vy * vy;
  const h = (a + d) / 2, k = Math.sqrt(((a - d) / 2) ** 2 + b * b);
  return Math.sqrt(h + k);
}

/** Most segments a curve is drawn with: bounds a frame's work for curves far larger than the screen. */
export const CURVE_MAX_SEGMENTS = 4096;

/**
 * Segments for `sweep` radians of a curve whose largest radius is `radius` (any unit, e.g. device pixels), so the
 * chord error stays ≤ `tolerance` (same unit): uniform parameter steps Δt = sweep / n on the unit circle leave a
 * sagitta of 1 − cos(Δt/2) along the radius; the affine map stretches it by at most the largest singular value, so
 * the error is ≤ radius · (1 − cos(Δt/2)). A curve within half the tolerance of its centre gets one segment, or two
 * when it sweeps more than half a turn (a closed curve never collapses to a point: a sub-pixel circle is a dot). At
 * most `cap` (then the error bound is exceeded: 0.25 px up to a radius of ~850,000 px).
 */
export function curveSegments(radius: number, sweep: number, tolerance = 0.25, cap = CURVE_MAX_SEGMENTS): number {
  const s = Math.min(Math.abs(sweep), TAU);
  const floor = s > Math.PI ? 2 : 1;
  if (!(radius > tolerance / 2) || !(tolerance > 0)) return Math.min(cap, floor);
  const step = 2 * Math.acos(Math.max(-1, 1 - tolerance / radius));
  if (!(step > 0)) return cap;
  return Math.min(cap, Math.max(floor, Math.ceil(s / step - 1e-9)));
}

/** The chord error bound of `n` uniform segments over `sweep` on a curve of largest radius `radius`. */
export function chordError(radius: number, sweep: number, n: number): number {
  return radius * (1 - Math.cos(Math.abs(sweep) / n / 2));
}

/** The curve as polyline points x0 y0 x1 y1 … with chord error ≤ `tolerance` (drawing units); a full curve repeats no point. */
export function tessellateCurve(g: CurveGeom, tolerance: number, cap = CURVE_MAX_SEGMENTS): number[] {
  const n = curveSegments(curveRadius(g.ux, g.uy, g.vx, g.vy), g.sweep, tolerance, cap);
  const full = isFullCurve(g);
  const out: number[] = [];
  for (let i = 0; i <= (full ? n - 1 : n); i++) {
    const [x, y] = curvePoint(g, g.t0 + (g.sweep * i) / n);
    out.push(x, y);
  }
  return out;
}

/** The curve mapped by the affine [a b c d e f] (x' = a x + c y + e, y' = b x + d y + f): exact, whatever the map. */
export function transformCurve<T extends CurveGeom>(g: T, m: readonly number[]): T {
  return {
    ...g,
    cx: m[0] * g.cx + m[2] * g.cy + m[4],
    cy: m[1] * g.cx + m[3] * g.cy + m[5],
    ux: m[0] * g.ux + m[2] * g.uy,
    uy: m[1] * g.ux + m[3] * g.uy,
    vx: m[0] * g.vx + m[2] * g.vy,
    vy: m[1] * g.vx + m[3] * g.vy,
  };
}

/** The parameters t in [t0, t0 + sweep] where a cos t + b sin t = k, ascending. */
function solveCosSin(a: number, b: number, k: number, t0: number, sweep: number, out: number[]) {
  const r = Math.hypot(a, b);
  if (!(r > 0) || Math.abs(k) > r) return;
  const phi = Math.atan2(b, a), d = Math.acos(Math.max(-1, Math.min(1, k / r)));
  for (const base of d === 0 ? [phi] : [phi - d, phi + d]) {
    let t = t0 + ((((base - t0) % TAU) + TAU) % TAU);
    for (; t <= t0 + sweep; t += TAU) if (t > t0 && t < t0 + sweep) out.push(t);
  }
}

/** Grows the box [minX, minY, maxX, maxY] by the curve's point at t. */
function boxPoint(g: CurveGeom, t: number, box: number[]) {
  const c = Math.cos(t), s = Math.sin(t);
  const x = g.cx + g.ux * c + g.vx * s, y = g.cy + g.uy * c + g.vy * s;
  if (x < box[0]) box[0] = x;
  if (x > box[2]) box[2] = x;
  if (y < box[1]) box[1] = y;
  if (y > box[3]) box[3] = y;
}

/** Grows the box by the points where the x or y of the curve is extreme (cos/sin zeros of its derivative), inside the sweep. */
function boxExtremes(g: CurveGeom, a: number, b: number, box: number[]) {
  // d/dt (a cos t + b sin t) = 0 ⇔ tan t = b / a
  const phi = Math.atan2(b, a);
  for (let k = 0; k < 2; k++) {
    const base = k === 0 ? phi : phi + Math.PI;
    let t = g.t0 + ((((base - g.t0) % TAU) + TAU) % TAU);
    for (; t <= g.t0 + g.sweep; t += TAU) if (t >= g.t0 && t <= g.t0 + g.sweep) boxPoint(g, t, box);
  }
}

/**
 * The exact bounding box of the arc [minX, minY, maxX, maxY], into `out` when given (the compiler boxes every curve
 * of a drawing: no arrays per curve).
 */
export function curveBox(g: CurveGeom, out: [number, number, number, number] = [0, 0, 0, 0]): [number, number, number, number] {
  out[0] = out[1] = Infinity;
  out[2] = out[3] = -Infinity;
  // the ends, then the extremes of x, then of y
  boxPoint(g, g.t0, out);
  boxPoint(g, g.t0 + g.sweep, out);
  boxExtremes(g, g.ux, g.vx, out);
  boxExtremes(g, g.uy, g.vy, out);
  return out;
}

/**
 * The parts of the arc inside the rectangle (paper viewports clip model space), each an arc of its own: the
 * parameters where it crosses the rectangle's four lines split it, the pieces whose middle is inside are kept.
 */
export function clipCurveToRect<T extends CurveGeom>(g: T, r: { minX: number; minY: number; maxX: number; maxY: number }): T[] {
  const [x0, y0, x1, y1] = curveBox(g);
  if (x0 >= r.minX && x1 <= r.maxX && y0 >= r.minY && y1 <= r.maxY) return [g];
  if (x1 < r.minX || x0 > r.maxX || y1 < r.minY || y0 > r.maxY) return [];
  const cuts: number[] = [];
  solveCosSin(g.ux, g.vx, r.minX - g.cx, g.t0, g.sweep, cuts);
  solveCosSin(g.ux, g.vx, r.maxX - g.cx, g.t0, g.sweep, cuts);
  solveCosSin(g.uy, g.vy, r.minY - g.cy, g.t0, g.sweep, cuts);
  solveCosSin(g.uy, g.vy, r.maxY - g.cy, g.t0, g.sweep, cuts);
  cuts.sort((a, b) => a - b);
  const ts = [g.t0, ...cuts, g.t0 + g.sweep];
  const inside = (t: number) => {
    const [x, y] = curvePoint(g, t);
    return x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY;
  };
  const pieces: T[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const a = ts[i], b = ts[i + 1];
    if (!(b - a > 1e-12) || !inside((a + b) / 2)) continue;
    const last = pieces[pieces.length - 1];
    if (last && Math.abs(last.t0 + last.sweep - a) < 1e-12) last.sweep = b - last.t0;
    else pieces.push({ ...g, t0: a, sweep: b - a });
  }
  // a full curve cut once at its start: its first and last pieces are one arc
  if (isFullCurve(g) && pieces.length > 1) {
    const first = pieces[0], last = pieces[pieces.length - 1];
    if (Math.abs(first.t0 - g.t0) < 1e-12 && Math.abs(last.t0 + last.sweep - (g.t0 + TAU)) < 1e-12) {
      last.sweep += first.sweep;
      pieces.shift();
    }
  }
  return pieces;
}

/**
 * The distance from (x, y) to the arc and the parameter of the nearest point: a dense sample, then Newton steps on
 * (P(t) − q)·P′(t) = 0 from the best sample, kept inside the sweep (the ends are candidates of their own).
 */
export function nearestOnCurve(g: CurveGeom, x: number, y: number): { d: number; t: number } {
  const n = Math.max(8, Math.ceil(g.sweep / (Math.PI / 32)));
  let best = Infinity, bt = g.t0;
  for (let i = 0; i <= n; i++) {
    const t = g.t0 + (g.sweep * i) / n;
    const [px, py] = curvePoint(g, t);
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d < best) {
      best = d;
      bt = t;
    }
  }
  let t = bt;
  // a closed curve has no ends: its parameter runs on past 2π
  const lo = isFullCurve(g) ? -Infinity : g.t0, hi = isFullCurve(g) ? Infinity : g.t0 + g.sweep;
  for (let k = 0; k < 12; k++) {
    const c = Math.cos(t), s = Math.sin(t);
    const ex = g.cx + g.ux * c + g.vx * s - x, ey = g.cy + g.uy * c + g.vy * s - y;
    const dx = -g.ux * s + g.vx * c, dy = -g.uy * s + g.vy * c;
    // second derivative is −(P − C)
    const f = ex * dx + ey * dy;
    const fp = dx * dx + dy * dy - ex * (g.ux * c + g.vx * s) - ey * (g.uy * c + g.vy * s);
    if (!(fp > 0)) break;
    const next = Math.max(lo, Math.min(hi, t - f / fp));
    if (Math.abs(next - t) < 1e-15) break;
    t = next;
  }
  const [px, py] = curvePoint(g, t);
  const d = (px - x) ** 2 + (py - y) ** 2;
  return d <= best ? { d: Math.sqrt(d), t } : { d: Math.sqrt(best), t: bt };
}

/**
 * The curve's ellipse in principal form (the singular value decomposition of [U V]): semi-axes rx ≥ ry ≥ 0, the
 * angle of the rx axis (radians), and whether the parameter runs counter-clockwise (det [U V] > 0; a mirror turns it).
 */
export function curveEllipse(g: CurveGeom): { rx: number; ry: number; rotation: number; ccw: boolean } {
  const e = (g.ux + g.vy) / 2, f = (g.ux - g.vy) / 2, gg = (g.uy + g.vx) / 2, h = (g.uy - g.vx) / 2;
  const q = Math.hypot(e, h), r = Math.hypot(f, gg);
  const a1 = Math.atan2(gg, f), a2 = Math.atan2(h, e);
  return { rx: q + r, ry: Math.abs(q - r), rotation: (a2 + a1) / 2, ccw: g.ux * g.vy - g.uy * g.vx > 0 };
}

/**
 * Cubic Bézier pieces of the curve (x0 y0 x1 y1 x2 y2 x3 y3 each), at most `maxStep` radians of parameter per piece:
 * the affine image of the usual circle approximation (control points k = 4/3 tan(Δt/4) along the tangents), radial
 * error ~4e-6 of the radius for 45° pieces. For outputs with Bézier paths (PDF).
 */
export function curveBeziers(g: CurveGeom, maxStep = Math.PI / 4): number[][] {
  const n = Math.max(1, Math.ceil(g.sweep / maxStep - 1e-9));
  const dt = g.sweep / n, k = (4 / 3) * Math.tan(dt / 4);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const a = g.t0 + dt * i, b = a + dt;
    const [x0, y0] = curvePoint(g, a), [x3, y3] = curvePoint(g, b);
    const da = [-g.ux * Math.sin(a) + g.vx * Math.cos(a), -g.uy * Math.sin(a) + g.vy * Math.cos(a)];
    const db = [-g.ux * Math.sin(b) + g.vx * Math.cos(b), -g.uy * Math.sin(b) + g.vy * Math.cos(b)];
    out.push([x0, y0, x0 + k * da[0], y0 + k * da[1], x3 - k * db[0], y3 - k * db[1], x3, y3]);
  }
  return out;
}
