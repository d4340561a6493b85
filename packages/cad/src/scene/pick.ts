import type { Scene } from './scene.types.ts';

/**
 * The entity under a point: the nearest segment within `tolerance` (drawing units), else the topmost
 * filled triangle containing the point. A linear scan: ~10 ms for a million segments, only on click.
 */
export function pickEntity(s: Scene, x: number, y: number, tolerance: number, visibleLayers?: Set<number>): number | null {
  const px = x - s.meta.origin[0], py = y - s.meta.origin[1];
  let best = -1, bestD = tolerance * tolerance;
  for (const [layer, first, count] of s.meta.lineRanges) {
    if (visibleLayers && !visibleLayers.has(layer)) continue;
    const p = s.linePositions;
    for (let v = first; v < first + count; v += 2) {
      const ax = p[v * 2], ay = p[v * 2 + 1], bx = p[v * 2 + 2], by = p[v * 2 + 3];
      const dx = bx - ax, dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
      const ex = ax + t * dx - px, ey = ay + t * dy - py;
      const d2 = ex * ex + ey * ey;
      if (d2 <= bestD) {
        bestD = d2;
        best = s.lineEntities[v / 2];
      }
    }
  }
  if (best >= 0) return best;
  for (const [layer, first, count] of s.meta.triRanges) {
    if (visibleLayers && !visibleLayers.has(layer)) continue;
    const p = s.triPositions;
    for (let v = first; v < first + count; v += 3) {
      const ax = p[v * 2], ay = p[v * 2 + 1], bx = p[v * 2 + 2], by = p[v * 2 + 3], cx = p[v * 2 + 4], cy = p[v * 2 + 5];
      const d1 = (px - bx) * (ay - by) - (ax - bx) * (py - by);
      const d2 = (px - cx) * (by - cy) - (bx - cx) * (py - cy);
      const d3 = (px - ax) * (cy - ay) - (cx - ax) * (py - ay);
      const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
      if (!(neg && pos)) best = s.triEntities[v / 3];
    }
  }
  return best >= 0 ? best : null;
}

/** Bounds of one entity's geometry (for zooming to a found text or a changed entity). */
export function entityBounds(s: Scene, entity: number) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const add = (x: number, y: number) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (let i = 0; i < s.lineEntities.length; i++) {
    if (s.lineEntities[i] !== entity) continue;
    add(s.linePositions[i * 4], s.linePositions[i * 4 + 1]);
    add(s.linePositions[i * 4 + 2], s.linePositions[i * 4 + 3]);
  }
  for (let i = 0; i < s.triEntities.length; i++) {
    if (s.triEntities[i] !== entity) continue;
    for (let k = 0; k < 3; k++) add(s.triPositions[i * 6 + k * 2], s.triPositions[i * 6 + k * 2 + 1]);
  }
  if (!Number.isFinite(minX)) return null;
  const [ox, oy] = s.meta.origin;
  return { minX: minX + ox, minY: minY + oy, maxX: maxX + ox, maxY: maxY + oy };
}
