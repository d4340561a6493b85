import { nurbsPoint } from '../geometry/spline.ts';
import type { AcisModel, AcisRecord, Token } from './records.ts';

/**
 * Reading ACIS records shared by the wireframe (wireframe.ts) and the tessellation (tessellate.ts): pointers,
 * numbers, vertices, and an edge as a 3D polyline from its start vertex to its end vertex. Straight edges are exact;
 * elliptic edges (circles, arcs, ellipses) and B-spline edges (intcurve with its NURBS approximation) are sampled
 * to `tol`.
 */
export type Vec3 = [number, number, number];

export interface RecordReader {
  rec(t: Token | undefined): AcisRecord | undefined;
  /** the index of the record a pointer names, or -1 */
  ref(t: Token | undefined): number;
  /** the numbers of `r` from field `from` up to the first field that is not a number */
  nums(r: AcisRecord, from?: number): number[];
  /** a vertex record's point, or null */
  vertexPoint(t: Token | undefined): Vec3 | null;
}

export function recordReader(model: AcisModel): RecordReader {
  const { records } = model;
  const ref = (t: Token | undefined) => (t?.k === 'ref' && t.v >= 0 && t.v < records.length ? t.v : -1);
  const rec = (t: Token | undefined): AcisRecord | undefined => {
    const i = ref(t);
    return i < 0 ? undefined : records[i];
  };
  const nums = (r: AcisRecord, from = 0) => {
    const out: number[] = [];
    for (let i = from; i < r.data.length; i++) {
      const t = r.data[i];
      if (t.k !== 'num') break;
      out.push(t.v);
    }
    return out;
  };
  const vertexPoint = (t: Token | undefined): Vec3 | null => {
    const v = rec(t);
    if (!v || (v.type !== 'vertex' && v.type !== 'tvertex')) return null;
    // the point is the vertex's last pointer (before it: its edge, and from ACIS 7 a use count)
    let p: AcisRecord | undefined;
    for (let i = v.data.length - 1; i >= 0 && !p; i--) if (v.data[i].k === 'ref') p = rec(v.data[i]);
    if (!p || p.type !== 'point') return null;
    const c = nums(p);
    return c.length >= 3 && c.slice(0, 3).every(Number.isFinite) ? [c[0], c[1], c[2]] : null;
  };
  return { rec, ref, nums, vertexPoint };
}

/**
 * Whether a sense field says "reversed": a word in SAT ("reversed"), a logical in SAB ("#T"), and a number in the SAT
 * of R13/R14 drawings as LibreDWG gives it (1).
 */
export const isReversed = (t: Token | undefined) => (t?.k === 'word' && (t.v === 'reversed' || t.v === '#T')) || (t?.k === 'num' && t.v === 1);

/** An edge's vertices, parameters on its curve (ACIS 5 on) and curve. */
export interface EdgeFields {
  start: Vec3;
  end: Vec3;
  curve: AcisRecord | undefined;
  params: [number, number] | null;
  reversed: boolean;
}

export function edgeFields(r: AcisRecord, read: RecordReader): EdgeFields | null {
  const f = r.data;
  // from ACIS 5 on: $start startParam $end endParam $coedge $curve sense …; before: $start $end $coedge $curve sense
  const withParams = f[1]?.k === 'num';
  const start = read.vertexPoint(f[0]);
  const end = read.vertexPoint(withParams ? f[2] : f[1]);
  if (!start || !end) return null;
  const senseTok = f[withParams ? 6 : 4];
  return {
    start,
    end,
    curve: read.rec(withParams ? f[5] : f[3]),
    params: withParams ? [(f[1] as { v: number }).v, (f[3] as { v: number }).v] : null,
    reversed: isReversed(senseTok),
  };
}

/**
 * The edge as x, y, z triples from its start vertex to its end vertex: its curve sampled to `tol`, or the chord
 * between its vertices when the curve is straight or one this reader does not know (helix, offset and blend curves
 * without a spline). `known` tells which.
 */
export function edgePolyline(e: EdgeFields, read: RecordReader, tol: number, maxAngle = Math.PI): { points: number[]; known: boolean } {
  const { curve, start, end, params, reversed } = e;
  let pts: number[] | null = null;
  if (curve?.type === 'ellipse-curve') pts = ellipseEdge(read.nums(curve), start, end, params, tol, maxAngle);
  else if (curve?.type === 'intcurve-curve') pts = splineEdge(curve, start, end, params, reversed, tol);
  if (pts && pts.every(Number.isFinite)) return { points: pts, known: true };
  return { points: [...start, ...end], known: curve?.type === 'straight-curve' };
}

const dist = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

/** Parameter range [t0, t1] of an edge on its curve, run so that it starts on the start vertex. */
function runRange(at: (t: number) => number[], start: number[], params: [number, number]): [number, number] {
  // the edge's parameters are the curve's, negated when the edge runs against the curve
  const fwd = dist(at(params[0]), start), back = dist(at(-params[0]), start);
  return fwd <= back ? params : [-params[0], -params[1]];
}

/** Samples of `at` over [t0, t1]: `n` chords, as x, y, z triples. */
export function sample3(at: (t: number) => number[], t0: number, t1: number, n: number): number[] {
  const pts: number[] = [];
  for (let i = 0; i <= n; i++) {
    const p = at(t0 + ((t1 - t0) * i) / n);
    pts.push(p[0], p[1], p[2]);
  }
  return pts;
}

/**
 * Chords enough for an arc of `radius` over `sweep` radians to stay within `tol` of it, each spanning at most
 * `maxAngle` (4 to 512).
 */
export function arcSteps(radius: number, sweep: number, tol: number, min = 4, maxAngle = Math.PI): number {
  const step = Math.min(maxAngle, 2 * Math.acos(Math.max(-1, 1 - tol / Math.max(radius, tol))));
  return Math.min(512, Math.max(min, Math.ceil(Math.abs(sweep) / step)));
}

/**
 * An elliptic edge: centre, normal, major axis (its length the major radius) and ratio. The edge's parameter range
 * is used in the direction whose ends land on the edge's vertices (a reversed edge runs the curve backwards);
 * without parameters (old SAT) the angles of the vertices are taken, counter-clockwise about the normal. The ends
 * are the vertices exactly, so the faces meeting at the edge share its points.
 */
function ellipseEdge(c: number[], start: Vec3, end: Vec3, params: [number, number] | null, tol: number, maxAngle: number): number[] | null {
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
    t0 = paramOf(start);
    t1 = t0 + Math.PI * 2;
  } else {
    t0 = paramOf(start);
    t1 = paramOf(end);
    if (t1 <= t0) t1 += Math.PI * 2;
  }
  const pts = sample3(at, t0, t1, arcSteps(m, t1 - t0, tol, 4, maxAngle));
  pts.splice(0, 3, ...start);
  pts.splice(pts.length - 3, 3, ...end);
  return pts;
}

/**
 * A B-spline edge: the intcurve's NURBS ("nubs" or "nurbs": degree, closure, the distinct knots with their
 * multiplicities, then the control points, with a weight each for "nurbs"). ACIS leaves out the first and last
 * knot of the usual knot vector; they are put back here. Null when the data is not in that form (the caller
 * draws the chord).
 */
function splineEdge(curve: AcisRecord, start: Vec3, end: Vec3, params: [number, number] | null, reversed: boolean, tol: number): number[] | null {
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
  const ctrlXY: number[] = [], ctrlZ: number[] = [], weights: number[] = [];
  for (let k = 0; k < nCtrl; k++) {
    const x = num(), y = num(), z = num();
    const w = dim === 4 ? num() : 1;
    if (![x, y, z, w].every(Number.isFinite)) return null;
    ctrlXY.push(x, y);
    ctrlZ.push(0, z);
    weights.push(w);
  }
  const full = [knots[0], ...knots, knots[knots.length - 1]];
  const lo = full[degree], hi = full[full.length - degree - 1];
  const clamp = (t: number) => Math.min(hi, Math.max(lo, t));
  // nurbsPoint is planar: z is evaluated as the y of a second curve with the same knots and weights
  const at = (t: number) => {
    const [x, y] = nurbsPoint(degree, full, ctrlXY, rational ? weights : undefined, clamp(t));
    const [, z] = nurbsPoint(degree, full, ctrlZ, rational ? weights : undefined, clamp(t));
    return [x, y, z];
  };
  let t0: number, t1: number;
  if (params && Math.abs(params[1] - params[0]) > 1e-12) [t0, t1] = runRange(at, start, params);
  else [t0, t1] = reversed ? [hi, lo] : [lo, hi];
  // chords enough for the control polygon's length at the tolerance, at least a few per span
  let length = 0;
  for (let k = 1; k < nCtrl; k++) length += Math.hypot(ctrlXY[2 * k] - ctrlXY[2 * k - 2], ctrlXY[2 * k + 1] - ctrlXY[2 * k - 1], ctrlZ[2 * k + 1] - ctrlZ[2 * k - 1]);
  const n = Math.min(1024, Math.max(4 * (nCtrl - degree), Math.ceil(Math.sqrt(length / Math.max(tol, 1e-12)) * 2)));
  const pts = sample3(at, t0, t1, n);
  // the ends are the vertices exactly (the approximation may miss them by its fit tolerance)
  pts.splice(0, 3, ...start);
  pts.splice(pts.length - 3, 3, ...end);
  return pts;
}

export const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: readonly number[], b: readonly number[]): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: readonly number[]): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
