/**
 * NURBS curves (SPLINE entities, spline edges of HATCH boundaries, spline LEADERs) evaluated and tessellated to a
 * chord tolerance. Points are flat x0 y0 x1 y1 …: the drawing is seen from above, z is dropped by the caller.
 */

import { MAX_SPLINE_DEGREE, MAX_SPLINE_POINTS } from './content-budget.ts';

/** The clamped uniform knot vector for `n` control points of `degree`: used when a file's knots are missing or inconsistent. */
export function clampedKnots(n: number, degree: number): number[] {
  const k: number[] = [];
  const spans = Math.max(1, n - degree);
  for (let i = 0; i < n + degree + 1; i++) k.push(i <= degree ? 0 : i >= n ? spans : i - degree);
  return k;
}

/** de Boor's working columns, shared by every call (no three arrays per point: a spline is evaluated at hundreds) */
let dx = new Float64Array(16), dy = new Float64Array(16), dw = new Float64Array(16);

/** A point of the NURBS curve at `u` by de Boor's algorithm on homogeneous coordinates. */
export function nurbsPoint(degree: number, knots: readonly number[], ctrl: readonly number[], weights: readonly number[] | undefined, u: number): [number, number] {
  const n = ctrl.length / 2;
  const p = Math.min(degree, n - 1);
  // the span k with knots[k] <= u < knots[k+1], clamped to the valid range [p, n-1]: the last k in [p, n-1] with
  // knots[k] <= u, found by halving (a scan was n steps per point: a spline of 20 000 points took seconds)
  let k = p, hi = n - 1;
  while (k < hi) {
    const mid = (k + hi + 1) >> 1;
    if (u >= knots[mid]) k = mid;
    else hi = mid - 1;
  }
  if (dx.length < p + 1) {
    dx = new Float64Array(p + 1);
    dy = new Float64Array(p + 1);
    dw = new Float64Array(p + 1);
  }
  for (let j = 0; j <= p; j++) {
    const i = k - p + j;
    const w = weights?.[i] ?? 1;
    dx[j] = ctrl[2 * i] * w;
    dy[j] = ctrl[2 * i + 1] * w;
    dw[j] = w;
  }
  for (let r = 1; r <= p; r++) {
    for (let j = p; j >= r; j--) {
      const i = k - p + j;
      const den = knots[i + p - r + 1] - knots[i];
      const a = den === 0 ? 0 : (u - knots[i]) / den;
      dx[j] = (1 - a) * dx[j - 1] + a * dx[j];
      dy[j] = (1 - a) * dy[j - 1] + a * dy[j];
      dw[j] = (1 - a) * dw[j - 1] + a * dw[j];
    }
  }
  const w = dw[p] || 1;
  return [dx[p] / w, dy[p] / w];
}

/**
 * The curve as a polyline within `tol`: every non-empty knot span is split in four and each piece halved until its
 * midpoint lies within `tol` of the chord (at most 2^8 per piece, fewer when the spline has so many spans that it
 * would pass MAX_SPLINE_POINTS, so a bad file cannot run away). A degree over MAX_SPLINE_DEGREE (de Boor costs
 * degree² per point) gives the control polygon: the caller reports it simplified.
 */
export function tessellateNurbs(degree: number, knotsIn: readonly number[], ctrl: readonly number[], weightsIn: readonly number[] | undefined, tol: number): number[] {
  const n = ctrl.length / 2;
  if (n < 2) return ctrl.slice();
  if (degree > MAX_SPLINE_DEGREE) return ctrl.slice();
  const p = Math.max(1, Math.min(degree || 3, n - 1));
  const maxDepth = Math.max(0, Math.min(8, Math.floor(Math.log2(MAX_SPLINE_POINTS / (4 * Math.max(1, n - p))))));
  const knots = knotsIn.length === n + p + 1 && knotsIn.every((k, i) => i === 0 || k >= knotsIn[i - 1]) ? knotsIn : clampedKnots(n, p);
  const weights = weightsIn && weightsIn.length === n && weightsIn.every((w) => w > 0) ? weightsIn : undefined;
  const u0 = knots[p], u1 = knots[n];
  const out: number[] = [...nurbsPoint(p, knots, ctrl, weights, u0)];
  const refine = (a: number, pa: [number, number], b: number, pb: [number, number], depth: number) => {
    const m = (a + b) / 2;
    const pm = nurbsPoint(p, knots, ctrl, weights, m);
    const cx = pb[0] - pa[0], cy = pb[1] - pa[1];
    const len = Math.hypot(cx, cy);
    const dev = len > 0 ? Math.abs(cx * (pm[1] - pa[1]) - cy * (pm[0] - pa[0])) / len : Math.hypot(pm[0] - pa[0], pm[1] - pa[1]);
    if (depth < maxDepth && dev > tol) {
      refine(a, pa, m, pm, depth + 1);
      refine(m, pm, b, pb, depth + 1);
    } else out.push(pb[0], pb[1]);
  };
  for (let k = p; k < n; k++) {
    const a = Math.max(knots[k], u0), b = Math.min(knots[k + 1], u1);
    if (!(b > a)) continue;
    let prevU = a;
    let prev = nurbsPoint(p, knots, ctrl, weights, a);
    for (let q = 1; q <= 4; q++) {
      const u = q === 4 ? b - (b - a) * 1e-12 : a + ((b - a) * q) / 4;
      const pt = q === 4 ? nurbsPoint(p, knots, ctrl, weights, b >= u1 ? u : b) : nurbsPoint(p, knots, ctrl, weights, u);
      refine(prevU, prev, u, pt, 0);
      prevU = u;
      prev = pt;
    }
  }
  // the last knot span is half open: land exactly on the end control point of a clamped curve
  if (knots[n] === knots[n + p] && (!weights || weights[n - 1] > 0)) {
    out[out.length - 2] = ctrl[2 * n - 2];
    out[out.length - 1] = ctrl[2 * n - 1];
  }
  return out;
}

/**
 * A curve through fit points (a SPLINE saved with fit data only): centripetal Catmull-Rom, which passes through every
 * point like AutoCAD's fit spline and stays close to it; end tangents are used when the file gives them.
 */
export function fitPointCurve(pts: readonly number[], tol: number, startTangent?: [number, number], endTangent?: [number, number]): number[] {
  const n = pts.length / 2;
  if (n < 3 && !startTangent && !endTangent) return pts.slice();
  const P = (i: number): [number, number] => [pts[2 * i], pts[2 * i + 1]];
  const out: number[] = [pts[0], pts[1]];
  for (let i = 0; i < n - 1; i++) {
    const p1 = P(i), p2 = P(i + 1);
    const chord = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
    const tangent = (t: [number, number] | undefined): [number, number] => {
      const l = t ? Math.hypot(t[0], t[1]) : 0;
      return l > 0 ? [(t![0] / l) * chord, (t![1] / l) * chord] : [0, 0];
    };
    // tangents at p1/p2 from the neighbours (centripetal weighting), or the given end tangents
    const m1: [number, number] = i > 0 ? tangent(catmullTangent(P(i - 1), p1, p2)) : startTangent ? tangent(startTangent) : [p2[0] - p1[0], p2[1] - p1[1]];
    const m2: [number, number] = i < n - 2 ? tangent(catmullTangent(p1, p2, P(i + 2))) : endTangent ? tangent(endTangent) : [p2[0] - p1[0], p2[1] - p1[1]];
    const steps = Math.min(64, Math.max(2, Math.ceil(Math.sqrt(chord / Math.max(tol, 1e-12)) / 2)));
    for (let s = 1; s <= steps; s++) {
      const t = s / steps, t2 = t * t, t3 = t2 * t;
      const h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
      out.push(h00 * p1[0] + h10 * m1[0] + h01 * p2[0] + h11 * m2[0], h00 * p1[1] + h10 * m1[1] + h01 * p2[1] + h11 * m2[1]);
    }
  }
  return out;
}

function catmullTangent(a: [number, number], b: [number, number], c: [number, number]): [number, number] {
  const d1 = Math.sqrt(Math.hypot(b[0] - a[0], b[1] - a[1])) || 1e-12;
  const d2 = Math.sqrt(Math.hypot(c[0] - b[0], c[1] - b[1])) || 1e-12;
  // the direction only: the caller scales it to the chord of the segment it shapes
  const tx = (b[0] - a[0]) / d1 / (d1 + d2) * d2 + (c[0] - b[0]) / d2 / (d1 + d2) * d1;
  const ty = (b[1] - a[1]) / d1 / (d1 + d2) * d2 + (c[1] - b[1]) / d2 / (d1 + d2) * d1;
  return [tx, ty];
}
