import type { Entity } from '../model/drawing.ts';

/**
 * The wireframe of a REGION, 3DSOLID or BODY read from its ACIS SAT text (group codes 1 and 3, every character
 * but the space stored as 159 − code): every edge of the model seen from above, as AutoCAD's 2D wireframe shows
 * it. Straight and elliptic edges are exact; other curves (intcurve: splines, intersections) are drawn as the
 * chord between their vertices. Files from AutoCAD 2013 on keep the ACIS data as binary SAB in the ACDSDATA
 * section, which the model does not hold: then this returns null and the entity stays counted as skipped.
 */
export function acisWireframe(e: Entity, tol: number): number[][] | null {
  const text: string[] = [];
  for (const [code, v] of e.pairs) {
    if (code === 1) text.push(String(v));
    else if (code === 3 && text.length) text[text.length - 1] += String(v);
  }
  if (text.length < 4) return null;
  // a literal ^ is written as "^ " in DXF (caret escapes); the reader leaves it, so it is undone here
  const sat = text.map((t) => decode(t.replaceAll('^ ', '^'))).join('\n');
  const head = sat.split('\n', 3);
  const version = Number(head[0].trim().split(/\s+/)[0]);
  if (!Number.isFinite(version) || version <= 0) return null;
  // records follow the three header lines; each ends with #, and $n refers to record n
  const body = sat.split('\n').slice(3).join(' ');
  const records = body.split('#').map((r) => r.trim().split(/\s+/)).filter((r) => r.length && r[0]);
  const ref = (t: string | undefined) => (t && t.startsWith('$') ? Number(t.slice(1)) : -1);
  const isNum = (t: string | undefined) => t !== undefined && /^-?[\d.]+(e[-+]?\d+)?$/i.test(t);
  // from version 7 on every record starts with $attribute, an id and $history; before, with $attribute alone
  const fields = (r: string[]) => (r[1]?.startsWith('$') && isNum(r[2]) && r[3]?.startsWith('$') ? r.slice(4) : r.slice(2));
  const point = (i: number): [number, number, number] | null => {
    const r = records[i];
    if (!r || r[0] !== 'point') return null;
    const f = fields(r).filter(isNum).map(Number);
    return f.length >= 3 ? [f[0], f[1], f[2]] : null;
  };
  const vertexPoint = (i: number) => {
    const r = records[i];
    if (!r || (r[0] !== 'vertex' && r[0] !== 'tvertex')) return null;
    const refs = fields(r).filter((t) => t.startsWith('$'));
    return point(ref(refs[refs.length - 1]));
  };
  const out: number[][] = [];
  for (const r of records) {
    if (r[0] !== 'edge' && r[0] !== 'tedge') continue;
    const f = fields(r);
    // version 7+: $start startParam $end endParam $coedge $curve sense; before: $start $end $coedge $curve sense
    const withParams = isNum(f[1]);
    const start = vertexPoint(ref(f[0]));
    const end = vertexPoint(ref(withParams ? f[2] : f[1]));
    const curve = records[ref(withParams ? f[5] : f[3])];
    if (!start || !end) continue;
    if (curve?.[0] === 'ellipse-curve') {
      const c = fields(curve).filter(isNum).map(Number);
      if (c.length >= 10) {
        out.push(ellipseEdge(c, start, end, withParams ? [Number(f[1]), Number(f[3])] : null, tol));
        continue;
      }
    }
    out.push([start[0], start[1], end[0], end[1]]);
  }
  return out.length ? out : null;
}

function decode(s: string): string {
  let r = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    r += c === 32 ? ' ' : String.fromCharCode(159 - c);
  }
  return r;
}

/**
 * An elliptic edge: centre, normal, major axis (with its length) and ratio. The edge's parameter range is used in
 * the direction whose ends land on the edge's vertices (a reversed edge runs the curve backwards); without
 * parameters (old SAT) the angles of the vertices are taken, counter-clockwise about the normal.
 */
function ellipseEdge(c: number[], start: number[], end: number[], params: [number, number] | null, tol: number): number[] {
  const C = [c[0], c[1], c[2]], N = norm([c[3], c[4], c[5]]), M = [c[6], c[7], c[8]], ratio = c[9] || 1;
  const m = Math.hypot(M[0], M[1], M[2]);
  const minor = cross(N, M).map((v) => v * ratio);
  const at = (t: number) => [C[0] + M[0] * Math.cos(t) + minor[0] * Math.sin(t), C[1] + M[1] * Math.cos(t) + minor[1] * Math.sin(t), C[2] + M[2] * Math.cos(t) + minor[2] * Math.sin(t)];
  const dist = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  const paramOf = (p: number[]) => {
    const d = [p[0] - C[0], p[1] - C[1], p[2] - C[2]];
    return Math.atan2(dot(d, minor) / (ratio * ratio * m * m), dot(d, M) / (m * m));
  };
  let t0: number, t1: number;
  const closed = dist(start, end) < 1e-9 * Math.max(1, m);
  if (params && Math.abs(params[1] - params[0]) > 1e-12) {
    // forward, or the curve run backwards: keep the one that starts on the start vertex
    const fwd = dist(at(params[0]), start), back = dist(at(-params[0]), start);
    [t0, t1] = fwd <= back ? params : [-params[0], -params[1]];
  } else if (closed) {
    t0 = 0;
    t1 = Math.PI * 2;
  } else {
    t0 = paramOf(start);
    t1 = paramOf(end);
    if (t1 <= t0) t1 += Math.PI * 2;
  }
  const sweep = t1 - t0;
  const n = Math.min(512, Math.max(4, Math.ceil(Math.abs(sweep) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(m, tol)))))));
  const pts: number[] = [];
  for (let i = 0; i <= n; i++) {
    const p = at(t0 + (sweep * i) / n);
    pts.push(p[0], p[1]);
  }
  return pts;
}

const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: number[]) => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
