import earcut from 'earcut';
import { arcSteps, cross, dot, edgeFields, edgePolyline, isReversed, norm, recordReader, type RecordReader, type Vec3 } from './curves.ts';
import type { AcisModel, AcisRecord, Token } from './records.ts';

/**
 * Triangles of an ACIS model (3DSOLID, BODY, REGION) for the 3D viewer. Faces on the analytic surfaces (planes,
 * cones and cylinders, spheres, tori) are meshed; a face on any other surface (splines, offsets, blends) is given as
 * its edges. The walk is body → lump → shell → face → loop → coedge → edge; each edge is sampled once, so the faces
 * meeting at it share its points and a closed solid gives a closed mesh. Triangles face out: the face's sense, the
 * surface's own (a sphere of negative radius, a cone of negative cosine) and the body's transform are applied.
 */
export interface AcisMesh {
  /** x, y, z of each vertex (after the body's transform) */
  positions: Float64Array;
  /** three vertex indices a triangle, counter-clockwise seen from outside */
  indices: Uint32Array;
  /** the faces not meshed, as their loops: closed polylines of x, y, z triples */
  lines: number[][];
  faces: { meshed: number; asEdges: number };
}

export interface TessellateOptions {
  /** the largest distance of a chord from its curve or surface; default: TOLERANCE_OF_SIZE of the model's size */
  tolerance?: number;
  /** more triangles than this throw AcisTessellationLimit (before they are made, where it can be told) */
  maxTriangles?: number;
}

/** the default chord tolerance: this part of the model's bounding-box diagonal (a 1 m solid: 0.5 mm) */
export const TOLERANCE_OF_SIZE = 5e-4;
export const DEFAULT_MAX_TRIANGLES = 2_000_000;
/** no chord spans more than this angle of a circle, however large the tolerance (a small hole in a large part) */
const MAX_ANGLE = Math.PI / 18;

/** A model that would need more triangles than allowed: a clear refusal instead of running out of memory. */
export class AcisTessellationLimit extends Error {
  constructor(readonly limit: number) {
    super(`the ACIS model needs more than ${limit} triangles`);
    this.name = 'AcisTessellationLimit';
  }
}

/** A surface's parametrization: S(u, v) with S_u × S_v along its natural normal (out of a sphere, a cylinder, a torus). */
interface Param {
  at(u: number, v: number): Vec3;
  /** (u, v) of a point on the surface (u in (-π, π] where periodic) */
  uv(p: Vec3): [number, number];
  /** 2π when u is an angle around an axis */
  periodic: boolean;
  /** the surface's normal points against the natural one (a sphere of negative radius, a cone of negative cosine) */
  inverted: boolean;
  /** curved along v (sphere, torus): rows between loops are needed; a cone is straight along v */
  radiusV: number | null;
  /** the largest radius around the axis, for the steps along u */
  radiusU: number;
  /** the v where u collapses to one point on the side of `dir` (a sphere's poles, a cone's apex), if any */
  pole?(dir: number): number | null;
  /** the v range of a whole surface without loops (sphere: pole to pole; torus: once around) */
  full?: { v0: number; v1: number; periodicV: boolean };
  planar: boolean;
}


/** the numbers of a record, skipping words (SAT's "I" interval ends, SAB's logicals) between them */
function numbersOf(r: AcisRecord): number[] {
  const out: number[] = [];
  for (const t of r.data) {
    if (t.k === 'num') out.push(t.v);
    else if (t.k === 'ref' || t.k === 'open') break;
  }
  return out;
}

/** A frame across `n`: `a` made perpendicular to it (or any when it is not given), and n × a. */
function frame(n: Vec3, a?: number[]): [Vec3, Vec3] {
  let u: Vec3 | null = a && Math.hypot(a[0], a[1], a[2]) > 0 ? norm(a) : null;
  if (u) {
    const d = dot(u, n);
    u = norm([u[0] - d * n[0], u[1] - d * n[1], u[2] - d * n[2]]);
  }
  if (!u || !(Math.hypot(...u) > 0.5)) u = norm(Math.abs(n[2]) < 0.9 ? cross([0, 0, 1], n) : cross([1, 0, 0], n));
  return [u, cross(n, u)];
}

const add = (p: number[], ...terms: [number, number[]][]): Vec3 => {
  const r: Vec3 = [p[0], p[1], p[2]];
  for (const [s, v] of terms) for (let k = 0; k < 3; k++) r[k] += s * v[k];
  return r;
};
const sub = (p: number[], q: number[]): Vec3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];

/** The parametrization of an analytic surface record, or null for a surface this module does not mesh. */
function paramOf(s: AcisRecord | undefined): Param | null {
  if (!s) return null;
  const c = numbersOf(s);
  switch (s.type) {
    case 'plane-surface': {
      if (c.length < 6) return null;
      const P = c.slice(0, 3), n = norm(c.slice(3, 6));
      const [a, b] = frame(n, c.length >= 9 ? c.slice(6, 9) : undefined);
      return {
        at: (u, v) => add(P, [u, a], [v, b]),
        uv: (p) => [dot(sub(p, P), a), dot(sub(p, P), b)],
        periodic: false, inverted: false, radiusV: null, radiusU: 0, planar: true,
      };
    }
    case 'cone-surface': {
      // base ellipse (centre, normal, major axis, ratio), then sine and cosine of the half angle and a scale
      if (c.length < 12) return null;
      const C = c.slice(0, 3), n = norm(c.slice(3, 6)), M = c.slice(6, 9), ratio = c[9] || 1;
      const [sin, cos] = [c[10], c[11]];
      const m = Math.hypot(M[0], M[1], M[2]);
      if (!(m > 0) || cos === 0) return null;
      const [a, b] = frame(n, M);
      // the radius grows by sin / cos along the axis (a cylinder: sine 0)
      const k = (h: number) => 1 + (h * sin) / (cos * m);
      return {
        at: (u, h) => add(C, [h, n], [m * k(h) * Math.cos(u), a], [m * ratio * k(h) * Math.sin(u), b]),
        uv: (p) => {
          const d = sub(p, C);
          return [Math.atan2(dot(d, b) / ratio, dot(d, a)), dot(d, n)];
        },
        periodic: true, inverted: cos < 0, radiusV: null, radiusU: m * Math.max(1, ratio), planar: false,
        pole: () => (sin === 0 ? null : -(m * cos) / sin),
      };
    }
    case 'sphere-surface': {
      if (c.length < 4 || c[3] === 0) return null;
      const C = c.slice(0, 3), R = Math.abs(c[3]);
      const pole = c.length >= 10 ? norm(c.slice(7, 10)) : ([0, 0, 1] as Vec3);
      const [a, b] = frame(pole, c.length >= 10 ? c.slice(4, 7) : undefined);
      return {
        at: (u, v) => add(C, [R * Math.cos(v) * Math.cos(u), a], [R * Math.cos(v) * Math.sin(u), b], [R * Math.sin(v), pole]),
        uv: (p) => {
          const d = sub(p, C);
          return [Math.atan2(dot(d, b), dot(d, a)), Math.asin(Math.max(-1, Math.min(1, dot(d, pole) / R)))];
        },
        periodic: true, inverted: c[3] < 0, radiusV: R, radiusU: R, planar: false,
        pole: (dir) => (dir > 0 ? Math.PI / 2 : -Math.PI / 2),
        full: { v0: -Math.PI / 2, v1: Math.PI / 2, periodicV: false },
      };
    }
    case 'torus-surface': {
      if (c.length < 8) return null;
      const C = c.slice(0, 3), n = norm(c.slice(3, 6)), R = c[6], r = Math.abs(c[7]);
      if (!(r > 0) || !(R > r)) return null; // lemon and apple tori are not meshed
      const [a, b] = frame(n, c.length >= 11 ? c.slice(8, 11) : undefined);
      return {
        at: (u, v) => {
          const rho = R + r * Math.cos(v);
          return add(C, [rho * Math.cos(u), a], [rho * Math.sin(u), b], [r * Math.sin(v), n]);
        },
        uv: (p) => {
          const d = sub(p, C);
          const u = Math.atan2(dot(d, b), dot(d, a));
          const rho = Math.hypot(dot(d, a), dot(d, b));
          return [u, Math.atan2(dot(d, n), rho - R)];
        },
        periodic: true, inverted: c[7] < 0, radiusV: r, radiusU: R + r, planar: false,
        full: { v0: -Math.PI, v1: Math.PI, periodicV: true },
      };
    }
  }
  return null;
}

/** One point of a face's parameter domain: its u, v and the index of its 3D vertex. */
interface UV {
  u: number;
  v: number;
  id: number;
}

export function tessellateAcis(model: AcisModel, o: TessellateOptions = {}): AcisMesh {
  const read = recordReader(model);
  const { records } = model;
  const tol = o.tolerance ?? TOLERANCE_OF_SIZE * modelSize(model, read);
  const maxTriangles = o.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
  const out = { positions: [] as number[], indices: [] as number[], lines: [] as number[][], faces: { meshed: 0, asEdges: 0 } };
  const walked = new Set<number>();
  // a chain of records linked by their `field`th pointer (next face, next loop …), each once
  const chain = function* (first: Token | undefined, field: number) {
    let i = read.ref(first);
    while (i >= 0 && !walked.has(i)) {
      walked.add(i);
      yield records[i];
      i = read.ref(records[i].data[field]);
    }
  };
  for (const body of records) {
    if (body.type !== 'body') continue;
    const xf = transformOf(read.rec(body.data[2]));
    const from = out.positions.length / 3;
    const mesher = new FaceMesher(read, tol, maxTriangles - out.indices.length / 3, out.positions.length / 3);
    const faces: AcisRecord[] = [];
    for (const lump of chain(body.data[0], 0)) for (const shell of chain(lump.data[1], 0)) for (const face of chain(shell.data[2], 0)) faces.push(face);
    for (const face of faces) {
      const done = mesher.face(face);
      if (done) out.faces.meshed++;
      else {
        out.faces.asEdges++;
        for (const loop of mesher.loopsOf(face)) if (loop.length >= 2) out.lines.push(xf.points([...loop, loop[0]].flat()));
      }
    }
    out.positions.push(...xf.points(mesher.positions));
    for (let t = 0; t < mesher.indices.length; t += 3) {
      const [a, b, c] = [mesher.indices[t], mesher.indices[t + 1], mesher.indices[t + 2]];
      // a mirroring transform turns every triangle inside out
      if (xf.mirrors) out.indices.push(a, c, b);
      else out.indices.push(a, b, c);
    }
    void from;
  }
  return { positions: Float64Array.from(out.positions), indices: Uint32Array.from(out.indices), lines: out.lines, faces: out.faces };
}

/** The diagonal of the points' box, the whole spheres and tori counted by their centre and radius. */
function modelSize(model: AcisModel, read: RecordReader): number {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const take = (p: number[], r = 0) => {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k] - r);
      max[k] = Math.max(max[k], p[k] + r);
    }
  };
  for (const r of model.records) {
    const c = r.type === 'point' || r.type === 'sphere-surface' || r.type === 'torus-surface' ? read.nums(r) : [];
    if (c.length < 3 || !c.slice(0, 3).every(Number.isFinite)) continue;
    if (r.type === 'point') take(c);
    else if (r.type === 'sphere-surface' && c.length >= 4) take(c, Math.abs(c[3]));
    else if (c.length >= 8) take(c, Math.abs(c[6]) + Math.abs(c[7]));
  }
  const d = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return Number.isFinite(d) && d > 0 ? d : 1;
}

/**
 * The body's transform record: a 3 × 3 matrix by rows, a translation and a scale; ACIS multiplies a row vector:
 * p' = p · A · scale + t.
 */
function transformOf(t: AcisRecord | undefined): { points(xyz: number[]): number[]; mirrors: boolean } {
  const c = t?.type === 'transform' ? numbersOf(t) : [];
  if (c.length < 12 || !c.every(Number.isFinite)) return { points: (xyz) => xyz, mirrors: false };
  const s = c.length >= 13 && c[12] !== 0 ? c[12] : 1;
  const A = c.slice(0, 9), T = c.slice(9, 12);
  const det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]);
  return {
    mirrors: det * s < 0,
    points: (xyz) => {
      const r = new Array<number>(xyz.length);
      for (let i = 0; i < xyz.length; i += 3) {
        const [x, y, z] = [xyz[i], xyz[i + 1], xyz[i + 2]];
        for (let k = 0; k < 3; k++) r[i + k] = (x * A[k] + y * A[3 + k] + z * A[6 + k]) * s + T[k];
      }
      return r;
    },
  };
}

/** Meshes the faces of one body into one vertex list (shared edges sampled once: the faces meet without cracks). */
class FaceMesher {
  positions: number[] = [];
  indices: number[] = [];
  private ids = new Map<string, number>();
  private edges = new Map<number, number[]>();
  constructor(
    private readonly read: RecordReader,
    private readonly tol: number,
    private readonly maxTriangles: number,
    private readonly base: number,
  ) {}

  private id(p: readonly number[]): number {
    const key = `${p[0]} ${p[1]} ${p[2]}`;
    let i = this.ids.get(key);
    if (i === undefined) {
      i = this.base + this.positions.length / 3;
      this.positions.push(p[0], p[1], p[2]);
      this.ids.set(key, i);
    }
    return i;
  }

  private budget(n: number) {
    if (this.indices.length / 3 + n > this.maxTriangles) throw new AcisTessellationLimit(this.maxTriangles);
  }

  /** an edge's points from its start vertex to its end vertex, sampled once */
  private edgePoints(i: number): number[] {
    let pts = this.edges.get(i);
    if (!pts) {
      const e = edgeFields(this.read.rec({ k: 'ref', v: i })!, this.read);
      pts = e ? edgePolyline(e, this.read, this.tol, MAX_ANGLE).points : [];
      this.edges.set(i, pts);
    }
    return pts;
  }

  /** The face's loops as closed rings of 3D points (the first point not repeated), each run as its coedges run. */
  loopsOf(face: AcisRecord): Vec3[][] {
    const loops: Vec3[][] = [];
    const seen = new Set<number>();
    let li = this.read.ref(face.data[1]);
    while (li >= 0 && !seen.has(li)) {
      seen.add(li);
      const loop = this.read.rec({ k: 'ref', v: li })!;
      if (loop.type !== 'loop') break;
      const ring: Vec3[] = [];
      const coSeen = new Set<number>();
      let ci = this.read.ref(loop.data[1]);
      while (ci >= 0 && !coSeen.has(ci)) {
        coSeen.add(ci);
        const co = this.read.rec({ k: 'ref', v: ci })!;
        const ei = this.read.ref(co.data[3]);
        const pts = ei >= 0 ? this.edgePoints(ei) : [];
        const n = pts.length / 3;
        for (let k = 0; k < n; k++) {
          const j = isReversed(co.data[4]) ? n - 1 - k : k;
          const p: Vec3 = [pts[3 * j], pts[3 * j + 1], pts[3 * j + 2]];
          const last = ring[ring.length - 1];
          if (!last || last[0] !== p[0] || last[1] !== p[1] || last[2] !== p[2]) ring.push(p);
        }
        ci = this.read.ref(co.data[0]);
      }
      const [first, last] = [ring[0], ring[ring.length - 1]];
      if (ring.length > 1 && first[0] === last[0] && first[1] === last[1] && first[2] === last[2]) ring.pop();
      loops.push(ring);
      li = this.read.ref(loop.data[0]);
    }
    return loops;
  }

  /** Meshes one face; false when it is on a surface this module does not mesh or its loops are beyond it. */
  face(face: AcisRecord): boolean {
    const param = paramOf(this.read.rec(face.data[4]));
    if (!param) return false;
    // the face's outward side against the surface's natural normal
    const flip = isReversed(face.data[5]) !== param.inverted;
    const loops = this.loopsOf(face).filter((l) => l.length >= 2);
    const tris: UV[][] = [];
    if (param.planar) {
      if (!loops.length || !this.planar(loops, param, tris)) return false;
    } else if (!loops.length) {
      if (!param.full) return false;
      this.fullSurface(param, tris);
    } else if (!this.periodicFace(loops, param, flip, tris)) return false;
    this.budget(tris.length);
    for (const [a, b, c] of tris) {
      if (a.id === b.id || b.id === c.id || a.id === c.id) continue;
      const area = (b.u - a.u) * (c.v - a.v) - (c.u - a.u) * (b.v - a.v);
      // counter-clockwise in (u, v) faces along S_u × S_v, the natural normal
      if (area < 0 !== flip) this.indices.push(a.id, c.id, b.id);
      else this.indices.push(a.id, b.id, c.id);
    }
    return true;
  }

  /** A planar face: its loops in the plane's frame, the largest the outer one, the rest holes, cut into triangles. */
  private planar(loops: Vec3[][], param: Param, tris: UV[][]): boolean {
    const rings = loops.filter((l) => l.length >= 3).map((l) => l.map((p) => ({ ...uvOf(param, p), id: this.id(p) })));
    if (!rings.length) return false;
    rings.sort((a, b) => Math.abs(ringArea(b)) - Math.abs(ringArea(a)));
    triangulate(rings, tris);
    return true;
  }

  /**
   * A face on a surface around an axis (cone, cylinder, sphere, torus) bounded by loops that go once around it: two
   * loops (a cylinder's side between its end circles, a band of a sphere) or one loop and the pole or apex beyond
   * it (a cone's point, a sphere's cap). Rows of points run around the axis from one loop to the other, and
   * neighbouring rows are zipped into triangles. Loops that do not go around (a face cut along the axis) are
   * triangulated in (u, v) and refined until within the tolerance.
   */
  private periodicFace(loops: Vec3[][], param: Param, flip: boolean, tris: UV[][]): boolean {
    const unwrapped = loops.map((l) => unwrap(l.map((p) => ({ ...uvOf(param, p), id: this.id(p) }))));
    const turns = unwrapped.map((r) => Math.round((r[r.length - 1].u - r[0].u + stepU(r)) / (2 * Math.PI)));
    const around = unwrapped.filter((_, k) => turns[k] !== 0);
    if (around.length === 0) return this.patch(unwrapped, param, tris);
    if (around.length !== unwrapped.length || around.length > 2) return false;
    const rowA = closedRow(around[0]);
    let rowB: UV[];
    if (around.length === 2) {
      rowB = closedRow(around[1]);
      // the second row begins where the first does (within half a turn)
      const shift = Math.round((rowA[0].u - rowB[0].u) / (2 * Math.PI)) * 2 * Math.PI;
      rowB = rowB.map((p) => ({ ...p, u: p.u + shift }));
    } else {
      // one loop: the face lies on its left seen from outside, so past the pole on that side
      const turn = turns[unwrapped.indexOf(around[0])];
      const vPole = param.pole?.(flip ? -turn : turn);
      if (vPole === null || vPole === undefined || !Number.isFinite(vPole)) return false;
      const poleId = this.id(param.at(rowA[0].u, vPole));
      rowB = rowA.map((p) => ({ u: p.u, v: vPole, id: poleId }));
    }
    const rows = [rowA, ...this.between(rowA, rowB, param), rowB];
    for (let k = 0; k + 1 < rows.length; k++) zip(rows[k], rows[k + 1], tris);
    return true;
  }

  /** Rows between two rows around the axis on a surface curved along v (none on a cone or cylinder). */
  private between(a: UV[], b: UV[], param: Param): UV[][] {
    if (param.radiusV === null) return [];
    const dv = Math.max(...a.map((p) => Math.abs(p.v - vAt(b, p.u))), ...b.map((p) => Math.abs(p.v - vAt(a, p.u))));
    const k = arcSteps(param.radiusV, dv, this.tol, 1, MAX_ANGLE);
    if (k <= 1) return [];
    const m = arcSteps(param.radiusU, 2 * Math.PI, this.tol, 8, MAX_ANGLE);
    this.budget(2 * k * m);
    const rows: UV[][] = [];
    for (let i = 1; i < k; i++) {
      const row: UV[] = [];
      for (let j = 0; j <= m; j++) {
        const u = j === m ? row[0].u + 2 * Math.PI : a[0].u + (2 * Math.PI * j) / m;
        if (j === m) {
          row.push({ u, v: row[0].v, id: row[0].id });
          continue;
        }
        const v = vAt(a, u) + ((vAt(b, u) - vAt(a, u)) * i) / k;
        row.push({ u, v, id: this.id(param.at(u, v)) });
      }
      rows.push(row);
    }
    return rows;
  }

  /** A whole sphere or torus: a grid of rows from pole to pole, or once around the tube. */
  private fullSurface(param: Param, tris: UV[][]) {
    const { v0, v1, periodicV } = param.full!;
    const k = arcSteps(param.radiusV ?? param.radiusU, v1 - v0, this.tol, 4, MAX_ANGLE);
    const m = arcSteps(param.radiusU, 2 * Math.PI, this.tol, 8, MAX_ANGLE);
    this.budget(2 * k * m);
    const rows: UV[][] = [];
    for (let i = 0; i <= k; i++) {
      if (i === k && periodicV) {
        rows.push(rows[0].map((p) => ({ ...p, v: v1 })));
        break;
      }
      const v = v0 + ((v1 - v0) * i) / k;
      // a pole is one point (cos(±π/2) is not exactly 0: computed per u it would be many)
      const pole = !periodicV && (i === 0 || i === k) ? this.id(param.at(0, v)) : null;
      const row: UV[] = [];
      for (let j = 0; j <= m; j++) {
        const u = (2 * Math.PI * j) / m;
        row.push({ u, v, id: pole ?? (j === m ? row[0].id : this.id(param.at(u, v))) });
      }
      rows.push(row);
    }
    for (let i = 0; i < k; i++) zip(rows[i], rows[i + 1], tris);
  }

  /**
   * A patch of a curved surface bounded by loops that do not go around its axis (a half cylinder, a fillet): the
   * loops triangulated in (u, v), then every inner edge whose middle lies farther than the tolerance from the
   * surface is split (the boundary is the edges' own points and is left as it is, so neighbours still meet).
   */
  private patch(rings: UV[][], param: Param, tris: UV[][]): boolean {
    const usable = rings.filter((r) => r.length >= 3);
    if (!usable.length) return false;
    usable.sort((a, b) => Math.abs(ringArea(b)) - Math.abs(ringArea(a)));
    // holes moved by whole turns next to the outer loop
    const [outer, ...holes] = usable;
    const mid = (r: UV[]) => r.reduce((s, p) => s + p.u, 0) / r.length;
    const placed = [outer, ...holes.map((h) => {
      const shift = Math.round((mid(outer) - mid(h)) / (2 * Math.PI)) * 2 * Math.PI;
      return h.map((p) => ({ ...p, u: p.u + shift }));
    })];
    // lengths on the surface: u is an angle about the axis, v a length (cone) or an angle (sphere, torus)
    const su = param.radiusU, sv = param.radiusV ?? 1;
    let mesh = placed.length === 1 ? clipEars(outer, su, sv) : null;
    if (!mesh) {
      mesh = [];
      triangulate(placed, mesh);
    }
    refine(mesh, param, this.tol, (u, v) => this.id(param.at(u, v)), this.maxTriangles - this.indices.length / 3);
    for (const t of mesh) tris.push(t);
    return true;
  }
}

const uvOf = (param: Param, p: Vec3) => {
  const [u, v] = param.uv(p);
  return { u, v };
};

/** u made continuous along a ring (no jump of a whole turn between neighbours) */
function unwrap(ring: UV[]): UV[] {
  const out: UV[] = [];
  for (const p of ring) {
    const prev = out[out.length - 1];
    const u = prev ? p.u + Math.round((prev.u - p.u) / (2 * Math.PI)) * 2 * Math.PI : p.u;
    out.push({ ...p, u });
  }
  return out;
}

/** the step in u from a ring's last point back to its first (the ring is closed) */
function stepU(r: UV[]): number {
  const d = r[0].u - r[r.length - 1].u;
  return d - Math.round(d / (2 * Math.PI)) * 2 * Math.PI;
}

/** A ring that goes once around as a row of increasing u, closed by its first point a turn on. */
function closedRow(ring: UV[]): UV[] {
  const turn = ring[ring.length - 1].u + stepU(ring) - ring[0].u;
  const r = turn < 0 ? unwrap([ring[0], ...ring.slice(1).reverse()]) : ring;
  const end = r[r.length - 1].u + stepU(r);
  return [...r, { ...r[0], u: end }];
}

/** v of a row at u (linear between its points; the row's u increases) */
function vAt(row: UV[], u: number): number {
  const u0 = row[0].u;
  const t = u0 + ((((u - u0) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI));
  for (let i = 1; i < row.length; i++) {
    if (row[i].u >= t) {
      const [a, b] = [row[i - 1], row[i]];
      return b.u === a.u ? b.v : a.v + ((b.v - a.v) * (t - a.u)) / (b.u - a.u);
    }
  }
  return row[row.length - 1].v;
}

/** Triangles between two rows of increasing u (each closed), always advancing along the one whose next point comes first. */
function zip(a: UV[], b: UV[], tris: UV[][]) {
  let i = 0, j = 0;
  while (i < a.length - 1 || j < b.length - 1) {
    if (j === b.length - 1 || (i < a.length - 1 && a[i + 1].u <= b[j + 1].u)) {
      tris.push([a[i], a[i + 1], b[j]]);
      i++;
    } else {
      tris.push([a[i], b[j + 1], b[j]]);
      j++;
    }
  }
}

function ringArea(r: UV[]): number {
  let s = 0;
  for (let i = 0; i < r.length; i++) {
    const [p, q] = [r[i], r[(i + 1) % r.length]];
    s += p.u * q.v - q.u * p.v;
  }
  return s / 2;
}

/**
 * The first ring with the others as holes, cut into triangles by earcut. Earcut leaves out points that lie on a
 * straight line between their neighbours; they are put back by splitting the triangle on that line, so the face
 * keeps every point of its edges (its neighbours have them: no crack).
 */
function triangulate(rings: UV[][], tris: UV[][]) {
  const pts = rings.flat();
  const coords: number[] = [];
  const holes: number[] = [];
  let n = 0;
  for (const [k, r] of rings.entries()) {
    if (k > 0) holes.push(n);
    for (const p of r) coords.push(p.u, p.v);
    n += r.length;
  }
  const idx = earcut(coords, holes.length ? holes : undefined);
  const mesh: number[][] = [];
  for (let i = 0; i < idx.length; i += 3) mesh.push([idx[i], idx[i + 1], idx[i + 2]]);
  const used = new Set(idx);
  let offset = 0;
  for (const r of rings) {
    const len = r.length;
    for (let k = 0; k < len; k++) {
      const v = offset + k;
      if (used.has(v)) continue;
      // the nearest used ring points before and after it: the triangle side it lies on
      let p = k, q = k;
      do p = (p + len - 1) % len; while (!used.has(offset + p) && p !== k);
      do q = (q + 1) % len; while (!used.has(offset + q) && q !== k);
      const [a, b] = [offset + p, offset + q];
      const t = mesh.findIndex((tri) => tri.includes(a) && tri.includes(b));
      if (t < 0) continue;
      const tri = mesh[t];
      const c = tri.find((x) => x !== a && x !== b)!;
      // keep the triangle's winding: replace a→b by a→v→b
      const ia = tri.indexOf(a);
      const forward = tri[(ia + 1) % 3] === b;
      mesh.splice(t, 1, forward ? [a, v, c] : [b, v, c], forward ? [v, b, c] : [v, a, c]);
      used.add(v);
    }
    offset += len;
  }
  for (const [a, b, c] of mesh) tris.push([pts[a], pts[b], pts[c]]);
}

/** rings longer than this go to earcut (ear clipping here is quadratic in the ring's length) */
const MAX_CLIPPED_RING = 400;

/**
 * A ring cut into triangles by clipping, each time, the ear whose new side is the shortest on the surface (u and v
 * scaled by `su`, `sv`). Unlike earcut it keeps every point, also those on a straight run (a cylinder patch's arcs
 * are straight in (u, v)), and along a strip it zigzags instead of fanning from one point, so the refinement after
 * has little to do. Null when the ring is too long or not simple (no ear found): earcut takes it.
 */
function clipEars(ring: UV[], su: number, sv: number): UV[][] | null {
  if (ring.length > MAX_CLIPPED_RING) return null;
  const pts = ringArea(ring) < 0 ? [...ring].reverse() : [...ring];
  const tris: UV[][] = [];
  const cross = (a: UV, b: UV, c: UV) => (b.u - a.u) * (c.v - a.v) - (c.u - a.u) * (b.v - a.v);
  // a point inside the triangle or on one of its sides (but not a corner) blocks the ear
  const blocks = (p: UV, a: UV, b: UV, c: UV) => p !== a && p !== b && p !== c && !(p.u === a.u && p.v === a.v) && !(p.u === c.u && p.v === c.v) && cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
  while (pts.length > 3) {
    let best = -1, bestLen = Infinity;
    for (let i = 0; i < pts.length; i++) {
      const [a, b, c] = [pts[(i + pts.length - 1) % pts.length], pts[i], pts[(i + 1) % pts.length]];
      const area = cross(a, b, c);
      if (!(area > 1e-14 * (Math.abs(a.u) + Math.abs(a.v) + 1))) continue;
      const len = Math.hypot((c.u - a.u) * su, (c.v - a.v) * sv);
      if (len >= bestLen) continue;
      if (pts.some((p) => blocks(p, a, b, c))) continue;
      best = i;
      bestLen = len;
    }
    if (best < 0) return null;
    const n = pts.length;
    tris.push([pts[(best + n - 1) % n], pts[best], pts[(best + 1) % n]]);
    pts.splice(best, 1);
  }
  if (cross(pts[0], pts[1], pts[2]) !== 0) tris.push([pts[0], pts[1], pts[2]]);
  return tris;
}

/**
 * Splits inner edges of a (u, v) mesh whose middle is farther than `tol` from the surface: more than `cap` triangles
 * throw; past 50 times its triangles (at least 20 000) the face stops refining, coarser but whole.
 */
function refine(mesh: UV[][], param: Param, tol: number, idAt: (u: number, v: number) => number, cap: number) {
  const key = (a: UV, b: UV) => (a.id < b.id ? `${a.id} ${b.id}` : `${b.id} ${a.id}`);
  const point = new Map<number, Vec3>();
  const pos = (p: UV) => {
    let x = point.get(p.id);
    if (!x) point.set(p.id, (x = param.at(p.u, p.v)));
    return x;
  };
  const local = Math.max(20_000, mesh.length * 50);
  for (let pass = 0; pass < 32; pass++) {
    const owners = new Map<string, number[]>();
    mesh.forEach((t, i) => {
      for (let k = 0; k < 3; k++) {
        const kk = key(t[k], t[(k + 1) % 3]);
        const list = owners.get(kk);
        if (list) list.push(i);
        else owners.set(kk, [i]);
      }
    });
    // at most one cut side a triangle a pass: a side is cut on both its triangles, no point lands mid-side of another
    const split = new Map<string, UV>();
    const claimed = new Set<number>();
    for (const [kk, list] of owners) {
      if (list.length !== 2 || claimed.has(list[0]) || claimed.has(list[1])) continue;
      const t = mesh[list[0]];
      const k = [0, 1, 2].find((x) => key(t[x], t[(x + 1) % 3]) === kk)!;
      const [a, b] = [t[k], t[(k + 1) % 3]];
      const u = (a.u + b.u) / 2, v = (a.v + b.v) / 2;
      const m = param.at(u, v), pa = pos(a), pb = pos(b);
      const off = Math.hypot(m[0] - (pa[0] + pb[0]) / 2, m[1] - (pa[1] + pb[1]) / 2, m[2] - (pa[2] + pb[2]) / 2);
      if (off > tol) {
        split.set(kk, { u, v, id: idAt(u, v) });
        claimed.add(list[0]).add(list[1]);
      }
    }
    if (!split.size) return;
    const next: UV[][] = [];
    for (const t of mesh) {
      const mids = [0, 1, 2].map((k) => split.get(key(t[k], t[(k + 1) % 3])));
      const n = mids.filter(Boolean).length;
      if (n === 0) next.push(t);
      else {
        const k = mids.findIndex(Boolean);
        const [a, b, c] = [t[k], t[(k + 1) % 3], t[(k + 2) % 3]];
        const m = mids[k]!;
        next.push([a, m, c], [m, b, c]);
      }
    }
    if (next.length > cap) throw new AcisTessellationLimit(cap);
    mesh.length = 0;
    for (const t of next) mesh.push(t);
    // a face whose triangles keep multiplying (earcut's fans on a long patch) stays coarser rather than taking the model down
    if (mesh.length > local) return;
  }
}
