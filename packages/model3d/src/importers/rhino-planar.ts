// rhino3dm's WebAssembly build cannot mesh a brep (no Mesh.createFromBrep in rhino3dm 8): a brep saved without render
// meshes gets its planar faces triangulated here from their trim loops (outer and holes, edges sampled), which covers
// boxes, extrusions of polylines and most architectural solids. Curved faces stay without geometry (counted).
import { ShapeUtils, Vector2 } from 'three';

type Rhino = any;
type P3 = [number, number, number];

/** segments an edge that is not a line is sampled into */
const CURVE_SEGMENTS = 32;

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: P3, b: P3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: P3): P3 => {
  const l = Math.hypot(...a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** a loop as a ring of 3D points: each trim's edge from its start to its end, the last point left to the next trim */
function ring(brep: Rhino, loop: Rhino): P3[] {
  const points: P3[] = [];
  const trims = loop.trims;
  for (let i = 0; i < trims.count; i++) {
    const trim = trims.get(i);
    if (trim.edgeIndex < 0) continue; // a singular trim (a cone's apex) has no edge
    const edge = brep.edges().get(trim.edgeIndex);
    const [t0, t1] = edge.domain as [number, number];
    const n = edge.isLinear(1e-9) ? 1 : CURVE_SEGMENTS;
    const pts: P3[] = Array.from({ length: n + 1 }, (_, k) => edge.pointAt(t0 + ((t1 - t0) * k) / n) as P3);
    if (trim.isReversed) pts.reverse();
    points.push(...pts.slice(0, -1));
  }
  return points;
}

/** the triangles of a brep's planar faces (positions, indices) and how many faces were curved and left out */
export function meshPlanarFaces(rhino: Rhino, brep: Rhino): { positions: Float32Array; indices: Uint32Array; curvedFaces: number } {
  const positions: number[] = [];
  const indices: number[] = [];
  let curvedFaces = 0;
  for (let f = 0; f < brep.faces().count; f++) {
    const face = brep.faces().get(f);
    const surface = face.underlyingSurface();
    if (!surface.isPlanar(1e-6)) {
      curvedFaces++;
      continue;
    }
    const [u0, u1] = surface.domain(0) as [number, number];
    const [v0, v1] = surface.domain(1) as [number, number];
    let normal = unit(surface.normalAt((u0 + u1) / 2, (v0 + v1) / 2) as P3);
    if (face.orientationIsReversed) normal = [-normal[0], -normal[1], -normal[2]];
    // a basis of the face's plane (x, y, normal right-handed): triangles made in it wind about the outward normal
    const x = unit(cross(Math.abs(normal[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0], normal));
    const y = cross(normal, x);
    let outer: P3[] = [];
    const holes: P3[][] = [];
    for (let l = 0; l < face.loops.count; l++) {
      const loop = face.loops.get(l);
      if (loop.loopType === rhino.BrepLoopType.Outer) outer = ring(brep, loop);
      else if (loop.loopType === rhino.BrepLoopType.Inner) holes.push(ring(brep, loop));
    }
    if (outer.length < 3) continue;
    const origin = outer[0];
    const flat = (p: P3) => new Vector2(dot(sub(p, origin), x), dot(sub(p, origin), y));
    const contour = outer.map(flat);
    const holes2 = holes.map((h) => h.map(flat));
    // triangulateShape wants the contour anticlockwise and holes clockwise (in the plane's basis)
    if (ShapeUtils.isClockWise(contour)) contour.reverse(), outer.reverse();
    holes2.forEach((h, i) => {
      if (!ShapeUtils.isClockWise(h)) h.reverse(), holes[i].reverse();
    });
    const base = positions.length / 3;
    for (const p of [outer, ...holes].flat()) positions.push(...p);
    for (const t of ShapeUtils.triangulateShape(contour, holes2)) indices.push(base + t[0], base + t[1], base + t[2]);
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices), curvedFaces };
}
