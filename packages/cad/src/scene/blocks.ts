import earcut from 'earcut';
import type { Flattened, Polyline2 } from '../geometry/flatten.ts';
import { eachPolyline, isIdentity, mapPoints } from '../geometry/block-instances.ts';
import type { SceneBlock, SceneBlockArrays } from './scene.types.ts';

/**
 * The scene side of block instancing (the flattener's `blocks`, see geometry/block-instances.ts): which block meshes
 * are drawn as instances, and their arrays. A mesh keeps each segment's and triangle's colour, lineweight and layer
 * resolved; an instance is 8 floats (2×2 matrix, offset, the INSERT's layer, 0) and the INSERT's entity index. The
 * other instances are baked back in drawing order, so the compiler's buffers are what they would be without them.
 */

/**
 * Like glyphs (compile.ts): a mesh is instanced when that saves at least this many bytes, the most saving ones
 * first, at most MAX_INSTANCED_BLOCKS of them (one or two draw calls each per frame).
 */
const BLOCK_MIN_SAVING = 1024;
const MAX_INSTANCED_BLOCKS = 768;
/** an instance: 8 floats and its entity */
const INSTANCE_BYTES = 32 + 4;
/** baked: a segment (positions, colour, weight), a triangle (positions, colour), an entity run per instance */
const SEGMENT_BYTES = 16 + 4 + 1;
const TRIANGLE_BYTES = 24 + 4;
const RUN_BYTES = 8;
/** in a mesh: a segment (positions, colour, layer, weight), a triangle (positions, colour, layer) */
const MESH_SEGMENT_BYTES = 16 + 4 + 4 + 1;
const MESH_TRIANGLE_BYTES = 24 + 4 + 4;

/** Triangle corner indices of a filled ring with its holes, as the compiler triangulates (earcut, SOLID shortcuts). */
export function triangulateFilled(p: Polyline2): { coords: number[]; idx: ArrayLike<number> } {
  let coords: number[] = p.points;
  const holes: number[] = [];
  if (p.holes?.length) {
    coords = p.points.slice();
    for (const h of p.holes) {
      if (h.length < 6) continue;
      holes.push(coords.length / 2);
      for (const v of h) coords.push(v);
    }
  }
  const idx = coords.length === 6 && !holes.length ? [0, 1, 2] : coords.length === 8 && !holes.length ? [0, 1, 2, 0, 2, 3] : earcut(coords, holes.length ? holes : undefined, 2);
  return { coords, idx };
}

const isFill = (p: Polyline2) => !!p.filled && p.points.length >= 6;

/** Segments `addLines` makes of a polyline (a single point is one zero-length segment). */
function segmentCount(p: Polyline2): number {
  if (p.segments) return p.points.length >> 2;
  const n = p.points.length >> 1;
  if (n === 1) return 1;
  return p.closed && p.points.length >= 4 && n > 2 ? n : Math.max(0, n - 1);
}

export interface BlockPlan {
  /** the flattener's polylines in drawing order, with the instances that are not instanced baked in place (`from` as `eachPolyline` says) */
  eachBakedPolyline(f: (p: Polyline2, from: number) => void): void;
  /** every instance's geometry into the bounds (its convex hull placed) */
  growBounds(grow: (pts: ArrayLike<number>) => void): void;
  /**
   * the instanced meshes and their instances as scene arrays (positions of instances relative to the origin);
   * `tiers`: each instance's depth tier (scene/tiers.ts), per `flat.blocks.instances`
   */
  build(ox: number, oy: number, layerOf: (name: string) => number, tiers?: Uint8Array): { blocks: SceneBlock[]; arrays: SceneBlockArrays };
}

export function emptyBlockArrays(): SceneBlockArrays {
  return {
    blockLinePositions: new Float32Array(0),
    blockLineColors: new Uint8Array(0),
    blockLineLayers: new Uint32Array(0),
    blockLineWeights: new Uint8Array(0),
    blockTriPositions: new Float32Array(0),
    blockTriColors: new Uint8Array(0),
    blockTriLayers: new Uint32Array(0),
    blockInstances: new Float32Array(0),
    blockInstanceEntities: new Uint32Array(0),
  };
}

/** `enabled` false bakes every instance (the scene without block instancing, for comparisons). */
export function planBlocks(flat: Flattened, enabled = true): BlockPlan {
  const meshes = flat.blocks?.meshes ?? [];
  const instances = flat.blocks?.instances ?? [];
  const uses = new Array<number>(meshes.length).fill(0);
  for (const i of instances) uses[i.mesh]++;
  // per mesh: segments, and triangles as the compiler would cut them (only for meshes that may pay)
  const segs = new Array<number>(meshes.length).fill(0);
  const tris: ({ coords: number[]; idx: ArrayLike<number> } | null)[][] = meshes.map(() => []);
  const triCount = new Array<number>(meshes.length).fill(0);
  const saving = meshes.map((m, k) => {
    if (!enabled || uses[k] < 2) return -Infinity;
    for (const p of m.polylines) {
      if (isFill(p)) {
        const t = triangulateFilled(p);
        tris[k].push(t);
        triCount[k] += Math.floor(t.idx.length / 3);
      } else {
        tris[k].push(null);
        segs[k] += segmentCount(p);
      }
    }
    const baked = segs[k] * SEGMENT_BYTES + triCount[k] * TRIANGLE_BYTES + RUN_BYTES;
    return uses[k] * (baked - INSTANCE_BYTES) - segs[k] * MESH_SEGMENT_BYTES - triCount[k] * MESH_TRIANGLE_BYTES;
  });
  const chosen = meshes.map((_, k) => k).filter((k) => saving[k] >= BLOCK_MIN_SAVING).sort((a, b) => saving[b] - saving[a]).slice(0, MAX_INSTANCED_BLOCKS).sort((a, b) => a - b);
  const slot = new Int32Array(meshes.length).fill(-1);
  chosen.forEach((k, s) => (slot[k] = s));

  return {
    eachBakedPolyline(f) {
      eachPolyline(flat, (i) => slot[i.mesh] < 0, f);
    },

    growBounds(grow) {
      const pts: number[] = [];
      // the extremes of a placed mesh are placed points of its convex hull (computed for meshes used more than once)
      const hulls: (number[] | undefined)[] = [];
      for (const i of instances) {
        if (uses[i.mesh] === 1) {
          // as the compiler grows baked polylines: their points placed as placePolyline places them (holes lie inside)
          const same = isIdentity(i.affine);
          for (const p of meshes[i.mesh].polylines) {
            if (same) grow(p.points);
            else {
              pts.length = p.points.length;
              grow(mapPoints(p.points, i.affine, pts));
            }
          }
          continue;
        }
        const h = (hulls[i.mesh] ??= hullOf(meshes[i.mesh].polylines)), a = i.affine;
        pts.length = h.length;
        for (let k = 0; k < h.length; k += 2) {
          pts[k] = a[0] * h[k] + a[2] * h[k + 1] + a[4];
          pts[k + 1] = a[1] * h[k] + a[3] * h[k + 1] + a[5];
        }
        grow(pts);
      }
    },

    build(ox, oy, layerOf, tiers) {
      const out = emptyBlockArrays();
      const blocks: SceneBlock[] = [];
      if (!chosen.length) return { blocks, arrays: out };
      let nSeg = 0, nTri = 0, nInst = 0;
      for (const k of chosen) {
        nSeg += segs[k];
        nTri += triCount[k];
        nInst += uses[k];
      }
      const lp = new Float32Array(nSeg * 4), lc = new Uint8Array(nSeg * 4), ll = new Uint32Array(nSeg), lw = new Uint8Array(nSeg);
      const tp = new Float32Array(nTri * 6), tc = new Uint8Array(nTri * 4), tl = new Uint32Array(nTri);
      const rgba = (dst: Uint8Array, at: number, c: number) => {
        dst[at * 4] = (c >> 16) & 255;
        dst[at * 4 + 1] = (c >> 8) & 255;
        dst[at * 4 + 2] = c & 255;
        dst[at * 4 + 3] = 255;
      };
      let s = 0, t = 0, firstInst = 0;
      const firstOf = new Int32Array(meshes.length);
      for (const k of chosen) {
        const s0 = s, t0 = t;
        // a mesh's primitives by layer, as the baked buffers order them (what overlaps paints over in the same order)
        const polys = meshes[k].polylines;
        const layers = polys.map((p) => layerOf(p.layer));
        const order = polys.map((_, j) => j).sort((x, y) => layers[x] - layers[y] || x - y);
        order.forEach((j) => {
          const p = polys[j], layer = layers[j];
          const tri = tris[k][j];
          if (tri) {
            const n = Math.floor(tri.idx.length / 3);
            for (let i = 0; i < n * 3; i++) {
              const v = tri.idx[i];
              tp[t * 6 + (i % 3) * 2] = tri.coords[v * 2];
              tp[t * 6 + (i % 3) * 2 + 1] = tri.coords[v * 2 + 1];
              if (i % 3 === 2) {
                rgba(tc, t, p.color);
                tl[t] = layer;
                t++;
              }
            }
            return;
          }
          const pts = p.points, n = pts.length >> 1;
          const weight = Math.max(0, Math.min(255, p.lineweight ?? 0));
          const put = (x0: number, y0: number, x1: number, y1: number) => {
            lp.set([x0, y0, x1, y1], s * 4);
            rgba(lc, s, p.color);
            ll[s] = layer;
            lw[s] = weight;
            s++;
          };
          if (p.segments) {
            for (let i = 0; i + 3 < pts.length; i += 4) put(pts[i], pts[i + 1], pts[i + 2], pts[i + 3]);
            return;
          }
          if (n === 1) return put(pts[0], pts[1], pts[0], pts[1]);
          const last = p.closed && pts.length >= 4 && n > 2 ? n : n - 1;
          for (let i = 0; i < last; i++) {
            const j2 = (i + 1) % n;
            put(pts[i * 2], pts[i * 2 + 1], pts[j2 * 2], pts[j2 * 2 + 1]);
          }
        });
        firstOf[k] = firstInst;
        blocks.push([s0 * 2, (s - s0) * 2, t0 * 3, (t - t0) * 3, firstInst, uses[k]]);
        firstInst += uses[k];
      }
      // instances grouped by mesh, in drawing order within each
      const inst = new Float32Array(nInst * 8), ent = new Uint32Array(nInst);
      const next = firstOf.slice();
      instances.forEach((i, k) => {
        if (slot[i.mesh] < 0) return;
        const at = next[i.mesh]++;
        const a = i.affine;
        // the 8th float is the instance's depth tier: a mesh never holds a wipeout, so all of it shares the INSERT's
        inst.set([a[0], a[1], a[2], a[3], a[4] - ox, a[5] - oy, layerOf(i.layer), tiers?.[k] ?? 0], at * 8);
        ent[at] = i.entity;
      });
      Object.assign(out, { blockLinePositions: lp, blockLineColors: lc, blockLineLayers: ll, blockLineWeights: lw, blockTriPositions: tp, blockTriColors: tc, blockTriLayers: tl, blockInstances: inst, blockInstanceEntities: ent });
      return { blocks, arrays: out };
    },
  };
}

/** Convex hull (monotone chain) of the polylines' points (not their holes, as the compiler's bounds). */
function hullOf(polylines: Polyline2[]): number[] {
  const pts: [number, number][] = [];
  for (const p of polylines) {
    for (let i = 0; i + 1 < p.points.length; i += 2) pts.push([p.points[i], p.points[i + 1]]);
  }
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length <= 2) return pts.flat();
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [], upper: [number, number][] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)].flat();
}
