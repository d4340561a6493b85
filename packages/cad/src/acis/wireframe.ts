import { nurbsPoint } from '../geometry/spline.ts';
import type { AcisModel, AcisRecord, Token } from './records.ts';

/**
 * The 2D wireframe of an ACIS model seen from above (AutoCAD's plan view in "2D wireframe"): every edge of every
 * face and wire, each as a polyline of x, y pairs (z dropped). Straight edges are exact; elliptic edges (circles,
 * arcs, ellipses) and B-spline edges (intcurve with its NURBS approximation) are tessellated to `tol`. An edge
 * on a curve this reader does not know (helix, offset and blend curves without a spline) is drawn as the chord
 * between its vertices. A whole sphere or torus (a face without edges) is drawn by its outline; other silhouettes
 * of curved faces are not drawn.
 */
export function acisEdges(model: AcisModel, tol: number): number[][] {
  const { records } = model;
  const rec = (t: Token | undefined): AcisRecord | undefined => (t?.k === 'ref' && t.v >= 0 ? records[t.v] : undefined);
  const nums = (r: AcisRecord, from = 0) => {
    const out: number[] = [];
    for (let i = from; i < r.data.length; i++) {
      const t = r.data[i];
      if (t.k !== 'num') break;
      out.push(t.v);
    }
    return out;
  };
  const vertexPoint = (t: Token | undefined): number[] | null => {
    const v = rec(t);
    if (!v || (v.type !== 'vertex' && v.type !== 'tvertex')) return null;
    // the point is the vertex's last pointer (before it: its edge, and from ACIS 7 a use count)
    let p: AcisRecord | undefined;
    for (let i = v.data.length - 1; i >= 0 && !p; i--) if (v.data[i].k === 'ref') p = rec(v.data[i]);
    if (!p || p.type !== 'point') return null;
    const c = nums(p);
    return c.length >= 3 && c.every(Number.isFinite) ? c.slice(0, 3) : null;
  };
  const out: number[][] = [];
  for (const r of records) {
    if (r.type !== 'edge' && r.type !== 'tedge') continue;
    const f = r.data;
    // from ACIS 5 on: $start startParam $end endParam $coedge $curve sense …; before: $start $end $coedge $curve sense
    const withParams = f[1]?.k === 'num';
    const start = vertexPoint(f[0]);
    const end = vertexPoint(withParams ? f[2] : f[1]);
    if (!start || !end) continue;
    const curve = rec(withParams ? f[5] : f[3]);
    const senseTok = f[withParams ? 6 : 4];
    const reversed = senseTok?.k === 'word' && (senseTok.v === 'reversed' || senseTok.v === '#T');
    const params: [number, number] | null = withParams ? [(f[1] as { v: number }).v, (f[3] as { v: number }).v] : null;
    let pts: number[] | null = null;
    if (curve?.type === 'ellipse-curve') pts = ellipseEdge(nums(curve), start, end, params, tol);
    else if (curve?.type === 'intcurve-curve') pts = splineEdge(curve, start, end, params, reversed, tol);
    if (!pts) {
      // a zero-length edge (the apex of a cone) draws nothing
      if (Math.hypot(start[0] - end[0], start[1] - end[1], start[2] - end[2]) === 0 && curve?.type !== 'ellipse-curve') continue;
      pts = [start[0], start[1], end[0], end[1]];
    }
    if (pts.every(Number.isFinite)) out.push(pts);
  }
  // a face without loops (a whole sphere or torus) has no edge to draw: its outline stands in
  for (const r of records) {
    if (r.type !== 'face' || r.data[1]?.k !== 'ref' || r.data[1].v !== -1) continue;
    const surface = rec(r.data[4]);
    if (surface) for (const ring of outlineOf(surface.type, nums(surface), tol)) if (ring.every(Number.isFinite)) out.push(ring);
  }
  return out;
}

/**
 * The outline seen from above of a closed surface that has no edges: a sphere's circle (centre, radius); a torus's
 * outer and inner circles (centre, axis, major and minor radius), drawn in the torus's plane (exact when its axis
 * is vertical, the usual case).
 */
function outlineOf(type: string, c: number[], tol: number): number[][] {
  if (type === 'sphere-surface' && c.length >= 4 && c[3] !== 0) return [circle3(c.slice(0, 3), [0, 0, 1], Math.abs(c[3]), tol)];
  if (type === 'torus-surface' && c.length >= 8) {
    const [R, r] = [Math.abs(c[6]), Math.abs(c[7])];
    const rings = [R + r, Math.abs(R - r)].filter((v) => v > 0);
    return rings.map((radius) => circle3(c.slice(0, 3), norm(c.slice(3, 6)), radius, tol));
  }
  return [];
}

/** A circle of `radius` about `centre` in the plane of normal `n`, tessellated to `tol`, as x, y pairs. */
function circle3(centre: number[], n: number[], radius: number, tol: number): number[] {
  // any unit vector across the normal, and the one across both
  const u = norm(Math.abs(n[2]) < 0.9 ? cross([0, 0, 1], n) : cross([1, 0, 0], n));
  const v = cross(n, u);
  const at = (t: number) => [0, 1, 2].map((k) => centre[k] + radius * (u[k] * Math.cos(t) + v[k] * Math.sin(t)));
  const steps = Math.min(512, Math.max(16, Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - tol / Math.max(radius, tol))))));
  return sample(at, 0, Math.PI * 2, steps);
}

const dist = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

/** Parameter range [t0, t1] of an edge on its curve, run so that it starts on the start vertex. */
function runRange(at: (t: number) => number[], start: number[], params: [number, number]): [number, number] {
  // the edge's parameters are the curve's, negated when the edge runs against the curve
  const fwd = dist(at(params[0]), start), back = dist(at(-params[0]), start);
  return fwd <= back ? params : [-params[0], -params[1]];
}

/** Samples of `at` over [t0, t1]: `n` chords. */
function sample(at: (t: number) => number[], t0: number, t1: number, n: number): number[] {
  const pts: number[] = [];
  for (let i = 0; i <= n; i++) {
    const p = at(t0 + ((t1 - t0) * i) / n);
    pts.push(p[0], p[1]);
  }
  return pts;
}

/**
 * An elliptic edge: centre, normal, major axis (its length the major radius) and ratio. The edge's parameter range
 * is used in the direction whose ends land on the edge's vertices (a reversed edge runs the curve backwards);
 * without parameters (old SAT) the angles of the vertices are taken, counter-clockwise about the normal.
 */
function ellipseEdge(c: number[], start: number[], end: number[], params: [number, number] | null, tol: number): number[] | null {
  if (c.length < 10) return null;
  const C = [c[0], c[1], c[2]], N = norm([c[3], c[4], c[5]]), M = [c[6], c[7], c[8]], ratio = c[9] || 1;
  const m = Math.hypot(M[0], M[1], M[2]);
  if (!(m > 0)) return null;
  const minor = cross(N, M).map((v) => v * ratio);
  const at = (t: number) => [C[0] + M[0] * Math.cos(t) + minor[0] * Math.sin(t), C[1] + M[1] * Math.cos(t) + minor[1] * Math.sin(t), C[2] + M[2] * Math.cos(t) + minor[2] * Math.sin(t)];
  const paramOf = (p: number[]) => {
    const d = [p[0] - C[0], p[1] - C[1], p[2] - C[2]];
    return Math.atan2(dot(d, minor) / (ratio * ratio * m * m), dot(d, M) / (m * m));
  };
  let t0: number, t1: number;
  const closed = dist(start, end) < 1e-9 * Math.max(1, m);
  if (params && Math.abs(params[1] - params[0]) > 1e-12) [t0, t1] = runRange(at, start, params);
  else if (closed) {
    t0 = 0;
    t1 = Math.PI * 2;
  } else {
    t0 = paramOf(start);
    t1 = paramOf(end);
    if (t1 <= t0) t1 += Math.PI * 2;
  }
  const sweep = t1 - t0;
  const n = Math.min(512, Math.max(4, Math.ceil(Math.abs(sweep) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(m, tol)))))));
  return sample(at, t0, t1, n);
}

/**
 * A B-spline edge: the intcurve's NURBS ("nubs" or "nurbs": degree, closure, the distinct knots with their
 * multiplicities, then the control points, with a weight each for "nurbs"). ACIS leaves out the first and last
 * knot of the usual knot vector; they are put back here. Null when the data is not in that form (the caller
 * draws the chord).
 */
function splineEdge(curve: AcisRecord, start: number[], end: number[], params: [number, number] | null, reversed: boolean, tol: number): number[] | null {
  const d = curve.data;
  let i = d.findIndex((t) => t.k === 'word' && (t.v === 'nubs' || t.v === 'nurbs'));
  if (i < 0) return null;
  const rational = (d[i] as { v: string }).v === 'nurbs';
  const num = () => {
    const t = d[++i];
    return t?.k === 'num' ? t.v : NaN;
  };
  const degree = num();
  // the closure: a word in SAT (open, closed, periodic), a number in SAB
  i++;
  const nKnots = num();
  if (!(degree >= 1 && degree <= 25 && nKnots >= 2 && nKnots < 100_000)) return null;
  const knots: number[] = [];
  for (let k = 0; k < nKnots; k++) {
    const v = num(), mult = num();
    if (!Number.isFinite(v) || !(mult >= 1 && mult <= degree + 1)) return null;
    for (let j = 0; j < mult; j++) knots.push(v);
  }
  const nCtrl = knots.length - degree + 1;
  const dim = rational ? 4 : 3;
  if (nCtrl < 2) return null;
  const ctrl: number[] = [], ctrlZ: number[] = [], weights: number[] = [];
  for (let k = 0; k < nCtrl; k++) {
    const x = num(), y = num(), z = num();
    const w = dim === 4 ? num() : 1;
    if (![x, y, z, w].every(Number.isFinite)) return null;
    ctrl.push(x, y);
    ctrlZ.push(0, z);
    weights.push(w);
  }
  const full = [knots[0], ...knots, knots[knots.length - 1]];
  const lo = full[degree], hi = full[full.length - degree - 1];
  const clamp = (t: number) => Math.min(hi, Math.max(lo, t));
  const at = (t: number) => {
    const [x, y] = nurbsPoint(degree, full, ctrl, rational ? weights : undefined, clamp(t));
    const [, z] = nurbsPoint(degree, full, ctrlZ, rational ? weights : undefined, clamp(t));
    return [x, y, z];
  };
  let t0: number, t1: number;
  if (params && Math.abs(params[1] - params[0]) > 1e-12) [t0, t1] = runRange(at, start, params);
  else [t0, t1] = reversed ? [hi, lo] : [lo, hi];
  // chords enough for the control polygon's length at the tolerance, at least a few per span
  let length = 0;
  for (let k = 2; k < ctrl.length; k += 2) length += Math.hypot(ctrl[k] - ctrl[k - 2], ctrl[k + 1] - ctrl[k - 1]);
  const n = Math.min(1024, Math.max(4 * (nCtrl - degree), Math.ceil(Math.sqrt(length / Math.max(tol, 1e-12)) * 2)));
  const pts = sample(at, t0, t1, n);
  // the ends are the vertices exactly (the approximation may miss them by its fit tolerance)
  pts[0] = start[0];
  pts[1] = start[1];
  pts[pts.length - 2] = end[0];
  pts[pts.length - 1] = end[1];
  return pts;
}

const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: number[]) => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
