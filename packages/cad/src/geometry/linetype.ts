/**
 * Linetype dash patterns applied along polylines. The pattern is the LTYPE's simple elements (49: positive dash,
 * negative gap, 0 dot) already multiplied by every scale that applies ($LTSCALE × the entity's 48 × the block
 * transform). Complex elements (embedded shapes and text of a linetype) are kept as the gaps they leave: the reader
 * keeps their lengths in the pattern but not the shape or text, so nothing is drawn in their place.
 */
import { curvePoint, type CurveGeom } from './curve.ts';

/** Pieces of `points` (open polylines x0 y0 x1 y1 …) covered by the dashes; a dot is a piece with two equal points. */
export function dashPolyline(points: readonly number[], closed: boolean, pattern: readonly number[], restartAt?: ReadonlySet<number>): number[][] {
  const pts = closed && points.length >= 4 ? [...points, points[0], points[1]] : points;
  const out: number[][] = [];
  let e = 0;
  let left = Math.abs(pattern[0]);
  let cur: number[] | null = pattern[0] > 0 ? [pts[0], pts[1]] : null;
  if (pattern[0] === 0) out.push([pts[0], pts[1], pts[0], pts[1]]);
  const next = (x: number, y: number) => {
    if (cur && cur.length >= 4) out.push(cur);
    cur = null;
    e = (e + 1) % pattern.length;
    // a run of dots and zero-length elements all land here
    for (let guard = 0; pattern[e] === 0 && guard < pattern.length; guard++) {
      out.push([x, y, x, y]);
      e = (e + 1) % pattern.length;
    }
    left = Math.abs(pattern[e]);
    if (pattern[e] > 0) cur = [x, y];
  };
  const restart = (x: number, y: number) => {
    if (cur && cur.length >= 4) out.push(cur);
    e = pattern.length - 1;
    cur = null;
    next(x, y);
  };
  for (let i = 2; i < pts.length; i += 2) {
    if (restartAt?.has(i / 2 - 1) && i > 2) restart(pts[i - 2], pts[i - 1]);
    let x0 = pts[i - 2], y0 = pts[i - 1];
    const x1 = pts[i], y1 = pts[i + 1];
    let len = Math.hypot(x1 - x0, y1 - y0);
    while (len > 0) {
      if (left > len) {
        left -= len;
        if (cur) (cur as number[]).push(x1, y1);
        break;
      }
      const f = left / len;
      const x = x0 + (x1 - x0) * f, y = y0 + (y1 - y0) * f;
      if (cur) (cur as number[]).push(x, y);
      len -= left;
      x0 = x;
      y0 = y;
      next(x, y);
    }
  }
  if (cur && (cur as number[]).length >= 4) out.push(cur);
  return out;
}

/** The length of a polyline (with its closing segment when closed). */
export function polylineLength(points: readonly number[], closed: boolean): number {
  let l = 0;
  for (let i = 2; i < points.length; i += 2) l += Math.hypot(points[i] - points[i - 2], points[i + 1] - points[i - 1]);
  if (closed && points.length >= 4) l += Math.hypot(points[0] - points[points.length - 2], points[1] - points[points.length - 1]);
  return l;
}

/** Parameter steps per full turn for an elliptical curve's arc-length table (a circle needs none). */
const LENGTH_STEPS_PER_TURN = 256;

/**
 * The dashes of an exact curve as sub-curves of it, and its dots as points: the same pattern walk as
 * `dashPolyline`, along the curve's true arc length from its start parameter, so each dash stays a curve the viewer
 * tessellates at the zoom it shows (a baked dash is a chord polyline that shows its corners when zoomed in).
 * `null` when the pattern would make more than `budget` pieces (the caller then draws it continuous).
 */
export function dashCurve<T extends CurveGeom>(g: T, pattern: readonly number[], period: number, budget: number): { dashes: T[]; dots: number[]; pieces: number } | null {
  const length = curveLength(g);
  const total = length.at(-1)!;
  const pieces = (total / period) * pattern.length;
  if (total / period > 20_000 || pieces > budget) return null;
  const steps = length.length - 1;
  /** the parameter at arc length s (linear between the table's steps: the speed changes little within one) */
  const paramAt = (s: number): number => {
    if (steps === 1) return g.t0 + (g.sweep * s) / total;
    let lo = 0, hi = steps;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (length[mid] <= s) lo = mid;
      else hi = mid;
    }
    const span = length[hi] - length[lo];
    return g.t0 + (g.sweep * (lo + (span > 0 ? (s - length[lo]) / span : 0))) / steps;
  };
  const dashes: T[] = [];
  const dots: number[] = [];
  for (let s = 0, e = 0; s < total; e = (e + 1) % pattern.length) {
    const x = pattern[e];
    if (x === 0) {
      const [px, py] = curvePoint(g, paramAt(s));
      dots.push(px, py);
    } else if (x > 0) {
      const a = paramAt(s), b = paramAt(Math.min(s + x, total));
      if (b > a) dashes.push({ ...g, t0: a, sweep: b - a });
    }
    s += Math.abs(x);
  }
  return { dashes, dots, pieces };
}

/** Cumulative arc length at uniform parameter steps over the sweep: [0, …, total]; two entries for a circle. */
function curveLength(g: CurveGeom): number[] {
  const uu = g.ux * g.ux + g.uy * g.uy, vv = g.vx * g.vx + g.vy * g.vy, uv = g.ux * g.vx + g.uy * g.vy;
  // a circle (conjugate diameters equal and perpendicular) runs at constant speed
  if (Math.abs(uu - vv) <= 1e-12 * (uu + vv) && Math.abs(uv) <= 1e-12 * (uu + vv)) return [0, Math.sqrt(uu) * g.sweep];
  const steps = Math.max(16, Math.ceil((g.sweep / (2 * Math.PI)) * LENGTH_STEPS_PER_TURN));
  const out = new Array<number>(steps + 1);
  out[0] = 0;
  const dt = g.sweep / steps;
  // Simpson's rule on each step: |P'(t)| = |−U sin t + V cos t|
  const speed = (t: number) => Math.hypot(-g.ux * Math.sin(t) + g.vx * Math.cos(t), -g.uy * Math.sin(t) + g.vy * Math.cos(t));
  for (let i = 0; i < steps; i++) {
    const t = g.t0 + i * dt;
    out[i + 1] = out[i] + (dt / 6) * (speed(t) + 4 * speed(t + dt / 2) + speed(t + dt));
  }
  return out;
}
