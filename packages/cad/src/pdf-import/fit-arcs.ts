import type { Pt, Segment, Subpath } from './page-content.ts';

/** A polyline vertex with the bulge (tan of a quarter of the included angle) of the segment leaving it. */
export interface Vertex {
  x: number;
  y: number;
  bulge: number;
}

export interface ArcFit {
  cx: number;
  cy: number;
  r: number;
  /** signed sweep, radians (positive: counter-clockwise) */
  sweep: number;
}

/** What a subpath is once its curves are fitted: a line, a circle, an arc, or a polyline with bulges. */
export type Fitted =
  | { kind: 'line'; a: Pt; b: Pt }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  | { kind: 'arc'; cx: number; cy: number; r: number; start: number; end: number }
  | { kind: 'polyline'; vertices: Vertex[]; closed: boolean }
  /** a chain of cubic Béziers as it is: its control points, 3 per curve after the first point (a closed chain ends on its start) */
  | { kind: 'spline'; controls: Pt[]; closed: boolean }
  /**
   * a subpath mixing straight runs and curves no arc fits, end to end: open polylines (lines and fitted arcs as
   * bulges; a lone straight segment a line) and splines (the curves' own Bézier control points), each starting where
   * the one before it ends
   */
  | { kind: 'chain'; parts: Fitted[] };

const bez = (p0: Pt, s: Extract<Segment, { kind: 'C' }>, t: number): Pt => {
  const u = 1 - t;
  const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  return [a * p0[0] + b * s.c1[0] + c * s.c2[0] + d * s.to[0], a * p0[1] + b * s.c1[1] + c * s.c2[1] + d * s.to[1]];
};

/** The circle through three points, or null when they lie on a line. */
function circleThrough(a: Pt, b: Pt, c: Pt): { cx: number; cy: number; r: number } | null {
  const d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
  if (Math.abs(d) < 1e-12) return null;
  const a2 = a[0] * a[0] + a[1] * a[1], b2 = b[0] * b[0] + b[1] * b[1], c2 = c[0] * c[0] + c[1] * c[1];
  const cx = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d;
  const cy = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d;
  return { cx, cy, r: Math.hypot(a[0] - cx, a[1] - cy) };
}

const TWO_PI = Math.PI * 2;
const norm = (a: number) => ((a % TWO_PI) + TWO_PI) % TWO_PI;

/**
 * A cubic Bézier as a circular arc when one lies within `tol` of it everywhere we look (nine points along it, and its
 * end tangents): a CAD program's arcs come out of PDF writers as one to four such curves per quarter circle.
 */
export function fitArc(p0: Pt, s: Extract<Segment, { kind: 'C' }>, tol: number): ArcFit | null {
  const mid = bez(p0, s, 0.5);
  const c = circleThrough(p0, mid, s.to);
  if (!c || c.r > 1e7) return null;
  const t = Math.max(tol, c.r * 1e-3);
  for (const u of [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9]) {
    const q = bez(p0, s, u);
    if (Math.abs(Math.hypot(q[0] - c.cx, q[1] - c.cy) - c.r) > t) return null;
  }
  const cross = (mid[0] - p0[0]) * (s.to[1] - mid[1]) - (mid[1] - p0[1]) * (s.to[0] - mid[0]);
  const a0 = Math.atan2(p0[1] - c.cy, p0[0] - c.cx), a1 = Math.atan2(s.to[1] - c.cy, s.to[0] - c.cx);
  const sweep = cross > 0 ? norm(a1 - a0) || TWO_PI : -(norm(a0 - a1) || TWO_PI);
  // a curve's end tangents point along the arc (a Bézier bulging off the circle between samples would not)
  const tan = (from: Pt, to: Pt, at: Pt) => {
    const tx = to[0] - from[0], ty = to[1] - from[1];
    const len = Math.hypot(tx, ty);
    if (len < 1e-12) return true;
    const rx = at[0] - c.cx, ry = at[1] - c.cy;
    return Math.abs((tx * rx + ty * ry) / (len * c.r)) < 0.05;
  };
  if (!tan(p0, s.c1, p0) || !tan(s.c2, s.to, s.to)) return null;
  return { ...c, sweep };
}

/** Points along a Bézier for the polyline that keeps a curve no arc fits (enough for the error to stay under `tol`). */
function flatten(p0: Pt, s: Extract<Segment, { kind: 'C' }>, tol: number): Pt[] {
  const len = Math.hypot(s.c1[0] - p0[0], s.c1[1] - p0[1]) + Math.hypot(s.c2[0] - s.c1[0], s.c2[1] - s.c1[1]) + Math.hypot(s.to[0] - s.c2[0], s.to[1] - s.c2[1]);
  const n = Math.max(2, Math.min(64, Math.ceil(Math.sqrt(len / Math.max(tol, 1e-6)))));
  const out: Pt[] = [];
  for (let i = 1; i <= n; i++) out.push(bez(p0, s, i / n));
  return out;
}

const near = (a: Pt, b: Pt, tol: number) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tol;

/** distance from p to the segment a–b */
function toSegment(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** a cubic whose control points lie on its chord (within `tol`): a straight segment written as a curve */
const straightCurve = (p0: Pt, s: Segment, tol: number) => s.kind === 'C' && toSegment(s.c1, p0, s.to) <= tol && toSegment(s.c2, p0, s.to) <= tol;

/**
 * One subpath as the entity that draws it: a lone segment is a LINE; curves that fit arcs of one circle are a CIRCLE
 * (closed, all the way round) or an ARC; with `splines`, a subpath of curves only that is no circle or arc is a spline
 * of its Béziers (exact, and editable as the curve it was: the "keep the rest as splines"); anything else a
 * polyline whose fitted curves are bulges and whose other curves are short chords. A hatch's boundary asks for no
 * splines (its loops are polylines). With `splines`, a subpath mixing straight segments (or arcs) and curves no arc
 * fits is a chain: its straight runs polylines (arcs as bulges), its free curves splines, end to end.
 */
export function fitSubpath(sp: Subpath, tol: number, splines = false): Fitted {
  const vertices: Vertex[] = [{ x: sp.start[0], y: sp.start[1], bulge: 0 }];
  const arcs: ArcFit[] = [];
  let allArcs = true;
  let free = 0;
  let prev = sp.start;
  for (const s of sp.segs) {
    if (s.kind === 'L' || straightCurve(prev, s, tol)) {
      allArcs = false;
      if (!near(prev, s.to, 1e-9)) vertices.push({ x: s.to[0], y: s.to[1], bulge: 0 });
      prev = s.to;
      continue;
    }
    const arc = fitArc(prev, s, tol);
    if (arc) {
      arcs.push(arc);
      vertices[vertices.length - 1].bulge = Math.tan(arc.sweep / 4);
      vertices.push({ x: s.to[0], y: s.to[1], bulge: 0 });
    } else {
      allArcs = false;
      free++;
      for (const p of flatten(prev, s, tol)) vertices.push({ x: p[0], y: p[1], bulge: 0 });
    }
    prev = s.to;
  }
  // a closing segment back to the start (the path's `h`) is drawn by the polyline's closed flag
  const closes = sp.closed || near(prev, sp.start, tol);
  if (allArcs && arcs.length) {
    const [a] = arcs;
    const same = arcs.every((b) => Math.abs(b.r - a.r) <= Math.max(tol, a.r * 2e-3) && Math.hypot(b.cx - a.cx, b.cy - a.cy) <= Math.max(tol, a.r * 2e-3) && Math.sign(b.sweep) === Math.sign(a.sweep));
    if (same) {
      const sweep = arcs.reduce((s, b) => s + b.sweep, 0);
      const r = arcs.reduce((s, b) => s + b.r, 0) / arcs.length;
      if (closes && near(prev, sp.start, Math.max(tol, r * 2e-3)) && Math.abs(Math.abs(sweep) - TWO_PI) < 0.02) return { kind: 'circle', cx: a.cx, cy: a.cy, r };
      if (!sp.closed && Math.abs(sweep) < TWO_PI - 0.02) {
        const s0 = Math.atan2(sp.start[1] - a.cy, sp.start[0] - a.cx), s1 = Math.atan2(prev[1] - a.cy, prev[0] - a.cx);
        // ARC runs counter-clockwise from start to end: a clockwise sweep is the same arc from its other end
        return sweep > 0 ? { kind: 'arc', cx: a.cx, cy: a.cy, r, start: s0, end: s1 } : { kind: 'arc', cx: a.cx, cy: a.cy, r, start: s1, end: s0 };
      }
    }
  }
  if (splines && sp.segs.length && sp.segs.every((g) => g.kind === 'C') && free) return splineOf(sp);
  // lines (or arcs) and free curves in one subpath: the curves keep their shape as splines between the straight runs
  if (splines && free) return chainOf(sp, tol);
  if (vertices.length === 2 && !sp.closed && vertices[0].bulge === 0) return { kind: 'line', a: [vertices[0].x, vertices[0].y], b: [vertices[1].x, vertices[1].y] };
  if (closes && vertices.length > 2 && near([vertices[vertices.length - 1].x, vertices[vertices.length - 1].y], sp.start, 1e-6)) vertices.pop();
  return { kind: 'polyline', vertices, closed: closes };
}

/** A subpath of Béziers as its control points; a closed one whose last curve stops short is closed by a straight cubic. */
function splineOf(sp: Subpath): Fitted {
  const controls: Pt[] = [sp.start];
  for (const g of sp.segs) if (g.kind === 'C') controls.push(g.c1, g.c2, g.to);
  const end = controls[controls.length - 1];
  if (sp.closed && !near(end, sp.start, 1e-9)) {
    const at = (t: number): Pt => [end[0] + (sp.start[0] - end[0]) * t, end[1] + (sp.start[1] - end[1]) * t];
    controls.push(at(1 / 3), at(2 / 3), sp.start);
  }
  return { kind: 'spline', controls, closed: sp.closed || near(controls[controls.length - 1], sp.start, 1e-9) };
}

/**
 * A subpath of straight segments, fitted arcs and free curves as a chain of open polylines and splines joined end to
 * end. A closed subpath's gap back to its start is one more straight segment, and the chain starts where a run of
 * free curves ends, so no run wraps round its start.
 */
function chainOf(sp: Subpath, tol: number): Fitted {
  const list: { from: Pt; seg: Segment; arc: ArcFit | null }[] = [];
  let prev = sp.start;
  for (const seg of sp.segs) {
    if (seg.kind === 'L' && near(prev, seg.to, 1e-9)) continue;
    const straight = seg.kind === 'L' || straightCurve(prev, seg, tol);
    list.push({ from: prev, seg: straight ? { kind: 'L', to: seg.to } : seg, arc: straight ? null : fitArc(prev, seg, tol) });
    prev = seg.to;
  }
  if (sp.closed && !near(prev, sp.start, 1e-9)) list.push({ from: prev, seg: { kind: 'L', to: sp.start }, arc: null });
  const isFree = (s: (typeof list)[number]) => s.seg.kind === 'C' && !s.arc;
  if (sp.closed) {
    const i = list.findIndex((s, k) => !isFree(s) && isFree(list[(k + list.length - 1) % list.length]));
    if (i > 0) list.push(...list.splice(0, i));
  }
  const parts: Fitted[] = [];
  for (let i = 0; i < list.length; ) {
    const free = isFree(list[i]);
    let j = i;
    while (j < list.length && isFree(list[j]) === free) j++;
    const run = list.slice(i, j);
    i = j;
    if (free) {
      parts.push({ kind: 'spline', controls: [run[0].from, ...run.flatMap((r) => (r.seg.kind === 'C' ? [r.seg.c1, r.seg.c2, r.seg.to] : []))], closed: false });
      continue;
    }
    const vertices: Vertex[] = [{ x: run[0].from[0], y: run[0].from[1], bulge: 0 }];
    for (const r of run) {
      if (r.arc) vertices[vertices.length - 1].bulge = Math.tan(r.arc.sweep / 4);
      vertices.push({ x: r.seg.to[0], y: r.seg.to[1], bulge: 0 });
    }
    parts.push(vertices.length === 2 && !vertices[0].bulge ? { kind: 'line', a: run[0].from, b: run[0].seg.to } : { kind: 'polyline', vertices, closed: false });
  }
  return { kind: 'chain', parts };
}
