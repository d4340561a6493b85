import type { Scene } from './scene.types.ts';
import { GLYPH_TIER_UNIT } from './tiers.ts';
import { forRunsOf, runValueAt } from './runs.ts';
import { meshBoxes } from './mesh-boxes.ts';
import { blockEntityPoints, blockTriangleAt, nearestBlockSegment } from './block-query.ts';
import { curveEntityBounds, nearestCurve, nearestCurveSnap } from './curves.ts';

/** Each instanced glyph's mesh box in its own frame, [minX, minY, maxX, maxY] per glyph; computed once per scene. */
const glyphBoxes = new WeakMap<Scene, Float64Array>();
function boxesOf(s: Scene): Float64Array {
  let out = glyphBoxes.get(s);
  if (out) return out;
  out = meshBoxes(s.meta.glyphs ?? [], s.glyphLinePositions, s.glyphTriPositions);
  glyphBoxes.set(s, out);
  return out;
}

/** Squared distance from (px, py) to the segment a–b. */
function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  const ex = ax + t * dx - px, ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

function inTriangle(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  const d1 = (px - bx) * (ay - by) - (ax - bx) * (py - by);
  const d2 = (px - cx) * (by - cy) - (bx - cx) * (py - cy);
  const d3 = (px - ax) * (cy - ay) - (cx - ax) * (py - ay);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

/**
 * Visits the glyph instances whose mesh box, grown by `tolerance` drawing units, holds the point (px, py
 * relative to the origin): f(glyph, instance, gx, gy) with the point in the glyph's frame.
 */
function glyphsNear(s: Scene, px: number, py: number, tolerance: number, visibleLayers: Set<number> | undefined, f: (glyph: number, inst: number, gx: number, gy: number) => void) {
  const glyphs = s.meta.glyphs;
  if (!glyphs?.length) return;
  const boxes = boxesOf(s);
  const I = s.glyphInstances;
  glyphs.forEach(([, , , , first, count], g) => {
    const minX = boxes[g * 4], minY = boxes[g * 4 + 1], maxX = boxes[g * 4 + 2], maxY = boxes[g * 4 + 3];
    for (let i = first; i < first + count; i++) {
      // the layer float holds the depth tier above the layer (scene/tiers.ts)
      if (visibleLayers && !visibleLayers.has(I[i * 8 + 6] % GLYPH_TIER_UNIT)) continue;
      const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], ff = I[i * 8 + 5];
      const det = a * d - b * c;
      if (!det) continue;
      const qx = px - e, qy = py - ff;
      const gx = (d * qx - c * qy) / det, gy = (a * qy - b * qx) / det;
      // the tolerance circle in the glyph frame lies within tolerance × ‖M‖ / |det| of the point
      const tol = (tolerance * Math.sqrt(a * a + b * b + c * c + d * d)) / Math.abs(det);
      if (gx < minX - tol || gx > maxX + tol || gy < minY - tol || gy > maxY + tol) continue;
      f(g, i, gx, gy);
    }
  });
}

/**
 * The entity under a point: the nearest segment (text strokes included) within `tolerance` (drawing units),
 * else the topmost filled triangle containing the point. A linear scan: ~10 ms for a million segments, only on click.
 */
export function pickEntity(s: Scene, x: number, y: number, tolerance: number, visibleLayers?: Set<number>): number | null {
  const px = x - s.meta.origin[0], py = y - s.meta.origin[1];
  let best = -1, bestD = tolerance * tolerance;
  const p = s.linePositions;
  for (const [layer, first, count] of s.meta.lineRanges) {
    if (visibleLayers && !visibleLayers.has(layer)) continue;
    for (let v = first; v < first + count; v += 2) {
      const d2 = segDist2(px, py, p[v * 2], p[v * 2 + 1], p[v * 2 + 2], p[v * 2 + 3]);
      if (d2 <= bestD) {
        bestD = d2;
        best = runValueAt(s.lineEntityRuns, v / 2);
      }
    }
  }
  // exact curves: the distance to the true curve
  const curve = nearestCurve(s, px, py, Math.sqrt(bestD), visibleLayers);
  if (curve) {
    bestD = curve.d * curve.d;
    best = curve.entity;
  }
  const I = s.glyphInstances, G = s.glyphLinePositions;
  glyphsNear(s, px, py, tolerance, visibleLayers, (g, i) => {
    const [lf, lc] = s.meta.glyphs![g];
    const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], f = I[i * 8 + 5];
    for (let v = lf; v < lf + lc; v += 2) {
      const x0 = G[v * 2], y0 = G[v * 2 + 1], x1 = G[v * 2 + 2], y1 = G[v * 2 + 3];
      const d2 = segDist2(px, py, a * x0 + c * y0 + e, b * x0 + d * y0 + f, a * x1 + c * y1 + e, b * x1 + d * y1 + f);
      if (d2 <= bestD) {
        bestD = d2;
        best = s.glyphInstanceEntities[i];
      }
    }
  });
  // instanced blocks (block-query.ts), drawn after the baked geometry
  const inBlock = nearestBlockSegment(s, px, py, bestD, visibleLayers);
  if (inBlock) best = inBlock.entity;
  if (best >= 0) return best;
  const t = s.triPositions;
  for (const [layer, first, count] of s.meta.triRanges) {
    if (visibleLayers && !visibleLayers.has(layer)) continue;
    for (let v = first; v < first + count; v += 3) {
      if (inTriangle(px, py, t[v * 2], t[v * 2 + 1], t[v * 2 + 2], t[v * 2 + 3], t[v * 2 + 4], t[v * 2 + 5])) best = runValueAt(s.triEntityRuns, v / 3);
    }
  }
  const blockHit = blockTriangleAt(s, px, py, visibleLayers);
  if (blockHit !== null) best = blockHit;
  const T = s.glyphTriPositions;
  glyphsNear(s, px, py, 0, visibleLayers, (g, i, gx, gy) => {
    const [, , tf, tc] = s.meta.glyphs![g];
    for (let v = tf; v < tf + tc; v += 3) {
      if (inTriangle(gx, gy, T[v * 2], T[v * 2 + 1], T[v * 2 + 2], T[v * 2 + 3], T[v * 2 + 4], T[v * 2 + 5])) {
        best = s.glyphInstanceEntities[i];
        return;
      }
    }
  });
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
  const lp = s.linePositions, tp = s.triPositions;
  forRunsOf(s.lineEntityRuns, lp.length >> 2, entity, (first, end) => {
    for (let i = first * 4; i < end * 4; i += 2) add(lp[i], lp[i + 1]);
  });
  forRunsOf(s.triEntityRuns, Math.floor(tp.length / 6), entity, (first, end) => {
    for (let i = first * 6; i < end * 6; i += 2) add(tp[i], tp[i + 1]);
  });
  curveEntityBounds(s, entity, add);
  const glyphs = s.meta.glyphs ?? [];
  if (glyphs.length) {
    const I = s.glyphInstances;
    glyphs.forEach(([lf, lc, tf, tc, first, count]) => {
      for (let i = first; i < first + count; i++) {
        if (s.glyphInstanceEntities[i] !== entity) continue;
        const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], f = I[i * 8 + 5];
        const mesh = (p: Float32Array, v0: number, n: number) => {
          for (let v = v0; v < v0 + n; v++) add(a * p[v * 2] + c * p[v * 2 + 1] + e, b * p[v * 2] + d * p[v * 2 + 1] + f);
        };
        mesh(s.glyphLinePositions, lf, lc);
        mesh(s.glyphTriPositions, tf, tc);
      }
    });
  }
  blockEntityPoints(s, entity, add);
  if (!Number.isFinite(minX)) return null;
  const [ox, oy] = s.meta.origin;
  return { minX: minX + ox, minY: minY + oy, maxX: maxX + ox, maxY: maxY + oy };
}

/**
 * Where a measuring click snaps: the nearest drawn vertex (segment ends) or curve snap point (centres, arc ends)
 * within `radius` drawing units of (x, y), in drawing coordinates; null when there is none.
 */
export function snapPoint(s: Scene, x: number, y: number, radius: number, visibleLayers?: Set<number>): { x: number; y: number } | null {
  const [ox, oy] = s.meta.origin;
  const px = x - ox, py = y - oy;
  let best = radius * radius, hit: { x: number; y: number } | null = null;
  const p = s.linePositions;
  for (const [layer, first, count] of s.meta.lineRanges) {
    if (visibleLayers && !visibleLayers.has(layer)) continue;
    for (let v = first; v < first + count; v++) {
      const dx = p[v * 2] - px, dy = p[v * 2 + 1] - py;
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        hit = { x: p[v * 2] + ox, y: p[v * 2 + 1] + oy };
      }
    }
  }
  const c = nearestCurveSnap(s, px, py, Math.sqrt(best), visibleLayers);
  if (c && (!hit || c.d * c.d < best)) hit = { x: c.x + ox, y: c.y + oy };
  return hit;
}
