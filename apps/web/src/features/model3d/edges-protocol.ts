import { FEATURE_ANGLE_DEG, featureEdgeSegments, SegmentGrid, type SegmentGridData } from './feature-edges.ts';

/**
 * What the page and the edges worker (edges.worker.ts) say to each other. A mesh's positions go over once per
 * position attribute (a big model's spatial chunks share one), the worker keeps them; each request then sends only
 * the triangles wanted (a chunk's, or a batch's shown ones) and gets back the feature edges in a grid, as typed
 * arrays moved, not copied.
 */
export interface EdgesRequest {
  id: number;
  /** names the position attribute in the worker's cache */
  attr: number;
  /** the attribute's real positions (x y z …), sent with the first request naming it */
  positions?: Float32Array;
  /** the triangles (vertex numbers, three each); null: the positions are a triangle soup */
  index: Uint32Array | null;
  thresholdDeg?: number;
}

export type EdgesAnswer = { id: number; grid: SegmentGridData } | { id: number; error: string };

/** Answers a request (in the worker; on the page where there are no workers). */
export function answerEdgesRequest(req: EdgesRequest, attrs: Map<number, Float32Array>): EdgesAnswer {
  if (req.positions) attrs.set(req.attr, req.positions);
  const all = attrs.get(req.attr);
  if (!all) return { id: req.id, error: `positions ${req.attr} not sent` };
  const { positions, index } = compact(all, req.index);
  const segments = featureEdgeSegments(xyzOf(positions), index, req.thresholdDeg ?? FEATURE_ANGLE_DEG);
  return { id: req.id, grid: new SegmentGrid(segments).data() };
}

/**
 * Only the vertices the triangles use, renumbered: a chunk of a big model names a few thousand of its shared
 * attribute's million vertices, and the edges' welding walks every vertex it is given.
 */
export function compact(positions: Float32Array, index: Uint32Array | null): { positions: Float32Array; index: Uint32Array } {
  if (!index) return { positions, index: Uint32Array.from({ length: positions.length / 3 }, (_, i) => i) };
  const map = new Int32Array(positions.length / 3).fill(-1);
  let n = 0;
  const out = new Uint32Array(index.length);
  for (let i = 0; i < index.length; i++) {
    const v = index[i];
    if (map[v] < 0) map[v] = n++;
    out[i] = map[v];
  }
  const used = new Float32Array(n * 3);
  for (let v = 0; v < map.length; v++) {
    const j = map[v];
    if (j >= 0) used.set(positions.subarray(v * 3, v * 3 + 3), j * 3);
  }
  return { positions: used, index: out };
}

function xyzOf(p: Float32Array) {
  return { count: p.length / 3, getX: (i: number) => p[i * 3], getY: (i: number) => p[i * 3 + 1], getZ: (i: number) => p[i * 3 + 2] };
}
