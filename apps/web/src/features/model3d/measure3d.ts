/**
 * Distance measurement with vertex snapping: a clicked point snaps to the nearest vertex of the hit triangle (or any
 * vertex given) that lies within a few pixels on screen; the distance is in model units (the GLB keeps the source's).
 */
export type Vec3 = readonly [number, number, number];

/** Projects a world point to CSS pixels (x right, y down) of a viewport; null when behind the camera. */
export type Project = (p: Vec3) => [number, number] | null;

export const SNAP_PX = 8;

/**
 * The vertex of `candidates` nearest on screen to `hit`'s screen position, if within `px` pixels; otherwise `hit`.
 */
export function snapToVertex(hit: Vec3, candidates: readonly Vec3[], project: Project, px = SNAP_PX): { point: Vec3; snapped: boolean } {
  const h = project(hit);
  if (!h) return { point: hit, snapped: false };
  let best: Vec3 | null = null;
  let bestD = px * px;
  for (const c of candidates) {
    const s = project(c);
    if (!s) continue;
    const d = (s[0] - h[0]) ** 2 + (s[1] - h[1]) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = c;
    }
  }
  return best ? { point: best, snapped: true } : { point: hit, snapped: false };
}

export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** A distance as shown: up to 6 significant digits, no exponent for usual sizes. */
export function formatDistance(d: number): string {
  if (!Number.isFinite(d)) return '-';
  const digits = d === 0 ? 0 : Math.max(0, 5 - Math.floor(Math.log10(Math.abs(d))));
  return String(Number(d.toFixed(Math.min(digits, 9))));
}
