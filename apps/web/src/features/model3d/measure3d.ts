/**
 * The maths of measurement: snapping a pointer to a vertex, else to a feature edge, else to the face under it (the
 * order CAD viewers use); distances and angles in model units and degrees (the GLB keeps the source's units).
 * Pure functions on plain triples, so the tests need no WebGL.
 */
export type Vec3 = readonly [number, number, number];

/** Projects a world point to CSS pixels (x right, y down) of a viewport; null when behind the camera. */
export type Project = (p: Vec3) => [number, number] | null;

export type SnapKind = 'vertex' | 'edge' | 'face';

/** How far (CSS pixels) a vertex or an edge pulls the pointer; a finger covers more than a mouse pointer. */
export const SNAP_PX = 8;
export const SNAP_PX_TOUCH = 16;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const along = (a: Vec3, d: Vec3, t: number): Vec3 => [a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t];

/** The candidate nearest on screen to the screen point `at`, if within `px` pixels. */
function nearestOnScreen(at: [number, number], candidates: Iterable<Vec3>, project: Project, px: number): Vec3 | null {
  let best: Vec3 | null = null;
  let bestD = px * px;
  for (const c of candidates) {
    const s = project(c);
    if (!s) continue;
    const d = (s[0] - at[0]) ** 2 + (s[1] - at[1]) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/**
 * The vertex of `candidates` nearest on screen to `hit`'s screen position, if within `px` pixels; otherwise `hit`.
 */
export function snapToVertex(hit: Vec3, candidates: readonly Vec3[], project: Project, px = SNAP_PX): { point: Vec3; snapped: boolean } {
  const h = project(hit);
  const best = h && nearestOnScreen(h, candidates, project, px);
  return best ? { point: best, snapped: true } : { point: hit, snapped: false };
}

/** The point of segment a–b nearest to point p. */
export function closestOnSegment(p: Vec3, a: Vec3, b: Vec3): Vec3 {
  const d = sub(b, a);
  const len2 = dot(d, d);
  if (len2 === 0) return a;
  return along(a, d, Math.min(1, Math.max(0, dot(sub(p, a), d) / len2)));
}

/**
 * The point of segment a–b nearest to the ray from `origin` along `dir` (the pointer's pick ray): where a click near
 * an edge lands on it. Under a perspective camera this is not the point whose projection is nearest to the pointer
 * measured along the screen, but it is the edge point the pointer's line of sight passes closest to.
 */
export function closestOnSegmentToRay(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3): Vec3 {
  const u = sub(b, a);
  const w = sub(a, origin);
  const uu = dot(u, u);
  if (uu === 0) return a;
  const dd = dot(dir, dir);
  const ud = dot(u, dir);
  const denom = uu * dd - ud * ud;
  // the segment's parameter on the infinite ray line (parallel lines: any point, take the one nearest the origin)
  let s = denom > 1e-12 * uu * dd ? (ud * dot(dir, w) - dd * dot(u, w)) / denom : -dot(u, w) / uu;
  s = Math.min(1, Math.max(0, s));
  const q = along(a, u, s);
  // the ray starts at the camera: a segment point behind it is nearest to the origin itself
  if (dot(sub(q, origin), dir) < 0) return closestOnSegment(origin, a, b);
  return q;
}

export interface SnapInput {
  /** the pointer in CSS pixels of the canvas */
  pointer: [number, number];
  /** the pick ray (world) */
  origin: Vec3;
  dir: Vec3;
  /** the surface point under the pointer */
  hit: Vec3;
  /** vertices near the hit (the hit triangle's corners and the nearby feature edges' ends) */
  vertices: Iterable<Vec3>;
  /** nearby feature edges as [a, b] */
  edges: Iterable<readonly [Vec3, Vec3]>;
  project: Project;
  px?: number;
  /** false for points cut away by the section plane */
  kept?: (p: Vec3) => boolean;
}

/** Vertex first, then the nearest edge point, then the face point itself. */
export function snapPoint(input: SnapInput): { point: Vec3; kind: SnapKind } {
  const { pointer, project, px = SNAP_PX, kept = () => true } = input;
  const keptOnly = function* <T>(items: Iterable<T>, at: (t: T) => Vec3) {
    for (const i of items) if (kept(at(i))) yield at(i);
  };
  const vertex = nearestOnScreen(pointer, keptOnly(input.vertices, (v) => v), project, px);
  if (vertex) return { point: vertex, kind: 'vertex' };
  const onEdges = keptOnly(input.edges, ([a, b]) => closestOnSegmentToRay(input.origin, input.dir, a, b));
  const edge = nearestOnScreen(pointer, onEdges, project, px);
  if (edge) return { point: edge, kind: 'edge' };
  return { point: input.hit, kind: 'face' };
}

export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The angle a–apex–c in degrees (0–180); null when a or c coincides with the apex. */
export function angleAt(a: Vec3, apex: Vec3, c: Vec3): number | null {
  return angleBetween(sub(a, apex), sub(c, apex));
}

/** The angle between two directions in degrees (0–180); null for a zero vector. */
export function angleBetween(u: Vec3, v: Vec3): number | null {
  const lu = Math.hypot(...u);
  const lv = Math.hypot(...v);
  if (lu === 0 || lv === 0) return null;
  // atan2 of |u×v| and u·v: exact near 0° and 180°, where acos of the dot product loses half the digits
  const cross: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  return (Math.atan2(Math.hypot(...cross), dot(u, v)) * 180) / Math.PI;
}

/**
 * The angle between two planar faces given by their normals, 0–90°: how far one face is tilted against the other,
 * whichever way either normal points (a mesh's winding is not always outward).
 */
export function faceAngle(n1: Vec3, n2: Vec3): number | null {
  const a = angleBetween(n1, n2);
  return a === null ? null : Math.min(a, 180 - a);
}

/** A distance as shown: up to 6 significant digits, no exponent for usual sizes. */
export function formatDistance(d: number): string {
  if (!Number.isFinite(d)) return '-';
  const digits = d === 0 ? 0 : Math.max(0, 5 - Math.floor(Math.log10(Math.abs(d))));
  return String(Number(d.toFixed(Math.min(digits, 9))));
}

/** An angle as shown: degrees to a hundredth, as CAD viewers print them. */
export function formatAngle(deg: number): string {
  return Number.isFinite(deg) ? `${deg.toFixed(2)}°` : '-';
}
