import { arcSteps, cross, edgeFields, edgePolyline, norm, recordReader, sample3 } from './curves.ts';
import type { AcisModel } from './records.ts';

/**
 * The 2D wireframe of an ACIS model seen from above (AutoCAD's plan view in "2D wireframe"): every edge of every
 * face and wire, each as a polyline of x, y pairs (z dropped), sampled as curves.ts reads them. A whole sphere or
 * torus (a face without edges) is drawn by its outline; other silhouettes of curved faces are not drawn.
 */
export function acisEdges(model: AcisModel, tol: number): number[][] {
  const { records } = model;
  const read = recordReader(model);
  const out: number[][] = [];
  for (const r of records) {
    if (r.type !== 'edge' && r.type !== 'tedge') continue;
    const e = edgeFields(r, read);
    if (!e) continue;
    const { points, known } = edgePolyline(e, read, tol);
    // a zero-length edge (the apex of a cone) draws nothing
    if (!known || e.curve?.type !== 'ellipse-curve') {
      const [s, t] = [e.start, e.end];
      if (points.length === 6 && Math.hypot(s[0] - t[0], s[1] - t[1], s[2] - t[2]) === 0) continue;
    }
    const xy = dropZ(points);
    if (xy.every(Number.isFinite)) out.push(xy);
  }
  // a face without loops (a whole sphere or torus) has no edge to draw: its outline stands in
  for (const r of records) {
    if (r.type !== 'face' || r.data[1]?.k !== 'ref' || r.data[1].v !== -1) continue;
    const surface = read.rec(r.data[4]);
    if (surface) for (const ring of outlineOf(surface.type, read.nums(surface), tol)) if (ring.every(Number.isFinite)) out.push(ring);
  }
  return out;
}

const dropZ = (xyz: number[]) => xyz.filter((_, i) => i % 3 !== 2);

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
  return dropZ(sample3(at, 0, Math.PI * 2, arcSteps(radius, Math.PI * 2, tol, 16)));
}
