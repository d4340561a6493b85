import type { Scene, SceneBlockArrays, SceneMeta } from './scene.types.ts';
import { meshBoxes } from './mesh-boxes.ts';

/**
 * Reading instanced block geometry (scene format 4) back: every instance expanded, and the queries picking,
 * snapping and zooming need (a point is taken into each instance's mesh frame and tested against the mesh's box
 * first). Browser-safe. Positions are relative to the scene origin, as everywhere in a scene.
 */

type BlockScene = SceneBlockArrays & { meta: Pick<SceneMeta, 'blocks'> };

export interface ExpandedBlocks {
  /** x y per vertex, 2 per segment (float64: the instance's placement applied to the float32 mesh) */
  linePositions: Float64Array;
  /** r g b a, entity, layer, weight per segment */
  lineColors: Uint8Array;
  lineEntities: Uint32Array;
  lineLayers: Uint32Array;
  lineWeights: Uint8Array;
  /** x y per vertex, 3 per triangle */
  triPositions: Float64Array;
  triColors: Uint8Array;
  triEntities: Uint32Array;
  triLayers: Uint32Array;
}

const expanded = new WeakMap<object, ExpandedBlocks>();

/** Every block instance's segments and triangles, mesh by mesh, instance by instance (the draw order). */
export function expandBlockInstances(s: BlockScene): ExpandedBlocks {
  let e = expanded.get(s);
  if (e) return e;
  const blocks = s.meta.blocks ?? [];
  let nSeg = 0, nTri = 0;
  for (const [, lc, , tc, , ic] of blocks) {
    nSeg += (lc / 2) * ic;
    nTri += (tc / 3) * ic;
  }
  e = {
    linePositions: new Float64Array(nSeg * 4), lineColors: new Uint8Array(nSeg * 4), lineEntities: new Uint32Array(nSeg), lineLayers: new Uint32Array(nSeg), lineWeights: new Uint8Array(nSeg),
    triPositions: new Float64Array(nTri * 6), triColors: new Uint8Array(nTri * 4), triEntities: new Uint32Array(nTri), triLayers: new Uint32Array(nTri),
  };
  const I = s.blockInstances, L = s.blockLinePositions, T = s.blockTriPositions;
  let sg = 0, tr = 0;
  for (const [lf, lc, tf, tc, first, count] of blocks) {
    for (let i = first; i < first + count; i++) {
      const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], ex = I[i * 8 + 4], fy = I[i * 8 + 5];
      const entity = s.blockInstanceEntities[i];
      for (let v = lf; v < lf + lc; v += 2, sg++) {
        for (let k = 0; k < 2; k++) {
          const x = L[(v + k) * 2], y = L[(v + k) * 2 + 1];
          e.linePositions[sg * 4 + k * 2] = a * x + c * y + ex;
          e.linePositions[sg * 4 + k * 2 + 1] = b * x + d * y + fy;
        }
        const seg = v / 2;
        e.lineColors.set(s.blockLineColors.subarray(seg * 4, seg * 4 + 4), sg * 4);
        e.lineEntities[sg] = entity;
        e.lineLayers[sg] = s.blockLineLayers[seg];
        e.lineWeights[sg] = s.blockLineWeights[seg];
      }
      for (let v = tf; v < tf + tc; v += 3, tr++) {
        for (let k = 0; k < 3; k++) {
          const x = T[(v + k) * 2], y = T[(v + k) * 2 + 1];
          e.triPositions[tr * 6 + k * 2] = a * x + c * y + ex;
          e.triPositions[tr * 6 + k * 2 + 1] = b * x + d * y + fy;
        }
        const t = v / 3;
        e.triColors.set(s.blockTriColors.subarray(t * 4, t * 4 + 4), tr * 4);
        e.triEntities[tr] = entity;
        e.triLayers[tr] = s.blockTriLayers[t];
      }
    }
  }
  expanded.set(s, e);
  return e;
}

/** Each block mesh's box in its own frame, [minX, minY, maxX, maxY] per mesh. */
const boxCache = new WeakMap<object, Float64Array>();
function boxesOf(s: BlockScene): Float64Array {
  let out = boxCache.get(s);
  if (out) return out;
  out = meshBoxes(s.meta.blocks ?? [], s.blockLinePositions, s.blockTriPositions);
  boxCache.set(s, out);
  return out;
}

/**
 * Visits the instances whose mesh box, grown by `tolerance` drawing units, holds the point (px, py relative to the
 * origin): f(mesh, instance, mx, my) with the point in the mesh frame.
 */
function instancesNear(s: BlockScene, px: number, py: number, tolerance: number, f: (mesh: number, inst: number, mx: number, my: number) => void) {
  const blocks = s.meta.blocks;
  if (!blocks?.length) return;
  const boxes = boxesOf(s);
  const I = s.blockInstances;
  blocks.forEach(([, , , , first, count], m) => {
    const minX = boxes[m * 4], minY = boxes[m * 4 + 1], maxX = boxes[m * 4 + 2], maxY = boxes[m * 4 + 3];
    for (let i = first; i < first + count; i++) {
      const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3];
      const det = a * d - b * c;
      if (!det) continue;
      const qx = px - I[i * 8 + 4], qy = py - I[i * 8 + 5];
      const mx = (d * qx - c * qy) / det, my = (a * qy - b * qx) / det;
      // the tolerance circle in the mesh frame lies within tolerance × ‖M‖ / |det| of the point
      const tol = (tolerance * Math.sqrt(a * a + b * b + c * c + d * d)) / Math.abs(det);
      if (mx < minX - tol || mx > maxX + tol || my < minY - tol || my > maxY + tol) continue;
      f(m, i, mx, my);
    }
  });
}

function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  const ex = ax + t * dx - px, ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/** The instance segment nearest to (px, py) within √maxD2 (later ones win ties, as in the baked search), or null. */
export function nearestBlockSegment(s: BlockScene, px: number, py: number, maxD2: number, visibleLayers?: Set<number>): { entity: number; d2: number } | null {
  let best: { entity: number; d2: number } | null = null, bestD = maxD2;
  const I = s.blockInstances, L = s.blockLinePositions;
  instancesNear(s, px, py, Math.sqrt(maxD2), (m, i) => {
    const [lf, lc] = s.meta.blocks![m];
    const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], f = I[i * 8 + 5];
    for (let v = lf; v < lf + lc; v += 2) {
      if (visibleLayers && !visibleLayers.has(s.blockLineLayers[v / 2])) continue;
      const x0 = L[v * 2], y0 = L[v * 2 + 1], x1 = L[v * 2 + 2], y1 = L[v * 2 + 3];
      const d2 = segDist2(px, py, a * x0 + c * y0 + e, b * x0 + d * y0 + f, a * x1 + c * y1 + e, b * x1 + d * y1 + f);
      if (d2 <= bestD) {
        bestD = d2;
        best = { entity: s.blockInstanceEntities[i], d2 };
      }
    }
  });
  return best;
}

function inTriangle(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  const d1 = (px - bx) * (ay - by) - (ax - bx) * (py - by);
  const d2 = (px - cx) * (by - cy) - (bx - cx) * (py - cy);
  const d3 = (px - ax) * (cy - ay) - (cx - ax) * (py - ay);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

/** The entity of the topmost (last drawn) instance triangle holding (px, py), or null. */
export function blockTriangleAt(s: BlockScene, px: number, py: number, visibleLayers?: Set<number>): number | null {
  let best: number | null = null;
  const T = s.blockTriPositions;
  instancesNear(s, px, py, 0, (m, i, mx, my) => {
    const [, , tf, tc] = s.meta.blocks![m];
    for (let v = tf; v < tf + tc; v += 3) {
      if (visibleLayers && !visibleLayers.has(s.blockTriLayers[v / 3])) continue;
      if (inTriangle(mx, my, T[v * 2], T[v * 2 + 1], T[v * 2 + 2], T[v * 2 + 3], T[v * 2 + 4], T[v * 2 + 5])) best = s.blockInstanceEntities[i];
    }
  });
  return best;
}

/** The instance vertex nearest to (px, py) within √maxD2 (what measuring snaps to), or null. */
export function nearestBlockVertex(s: BlockScene, px: number, py: number, maxD2: number, visibleLayers?: Set<number>): [number, number] | null {
  let best: [number, number] | null = null, bestD = maxD2;
  const I = s.blockInstances, L = s.blockLinePositions;
  instancesNear(s, px, py, Math.sqrt(maxD2), (m, i) => {
    const [lf, lc] = s.meta.blocks![m];
    const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], f = I[i * 8 + 5];
    for (let v = lf; v < lf + lc; v++) {
      if (visibleLayers && !visibleLayers.has(s.blockLineLayers[v >> 1])) continue;
      const x = a * L[v * 2] + c * L[v * 2 + 1] + e, y = b * L[v * 2] + d * L[v * 2 + 1] + f;
      const d2 = (x - px) ** 2 + (y - py) ** 2;
      if (d2 < bestD) {
        bestD = d2;
        best = [x, y];
      }
    }
  });
  return best;
}

/** Every instance vertex of `entity` into `add` (relative to the origin). */
export function blockEntityPoints(s: BlockScene, entity: number, add: (x: number, y: number) => void) {
  const blocks = s.meta.blocks ?? [];
  const I = s.blockInstances;
  blocks.forEach(([lf, lc, tf, tc, first, count]) => {
    for (let i = first; i < first + count; i++) {
      if (s.blockInstanceEntities[i] !== entity) continue;
      const a = I[i * 8], b = I[i * 8 + 1], c = I[i * 8 + 2], d = I[i * 8 + 3], e = I[i * 8 + 4], f = I[i * 8 + 5];
      const mesh = (p: Float32Array, v0: number, n: number) => {
        for (let v = v0; v < v0 + n; v++) add(a * p[v * 2] + c * p[v * 2 + 1] + e, b * p[v * 2] + d * p[v * 2 + 1] + f);
      };
      mesh(s.blockLinePositions, lf, lc);
      mesh(s.blockTriPositions, tf, tc);
    }
  });
}

/** Whether the scene draws any block by instances. */
export const hasBlockInstances = (s: Scene) => !!s.meta.blocks?.length;
