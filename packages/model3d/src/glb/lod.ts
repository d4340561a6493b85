// The coarse level of detail of a big model (issue 21 part 3). Why a second, simplified GLB rather than meshlets or
// chunks: three.js draws a mesh with one draw call whatever its size, so what makes orbiting slow on weak GPUs (and
// on software rendering) is the triangle count itself, and only fewer triangles help while the camera moves; three
// culls per object already (a model's nodes are its chunks). A separate small file is also what the viewer can fetch
// and show first, long before the full GLB has arrived. Its nodes are the full model's (a clone: same names, order,
// hierarchy and properties), so the tree, hiding and picking work on either; only the meshes are simplified.
import type { Document } from '@gltf-transform/core';
import { cloneDocument, simplify } from '@gltf-transform/functions';
import { MeshoptSimplifier } from 'meshoptimizer';
import { BATCHES_EXTRAS } from './batch.ts';

/**
 * Each mesh's own error bound as a fraction of its radius: 2 % keeps a box a box and a wall a wall (small elements
 * stay as they are) while the dense, smooth meshes that make a model big give up most of their triangles.
 */
const LOD_ERROR = 0.02;

/** triangles the document draws (each mesh once per node that places it) */
export function drawnTriangles(doc: Document): number {
  let t = 0;
  for (const n of doc.getRoot().listNodes())
    for (const p of n.getMesh()?.listPrimitives() ?? []) if (p.getMode() === 4) t += Math.floor((p.getIndices()?.getCount() ?? p.getAttribute('POSITION')?.getCount() ?? 0) / 3);
  return t;
}

/** A clone of the (welded, uncompressed) document with its meshes simplified towards `target` triangles in all. */
export async function coarseLevel(doc: Document, triangles: number, target: number): Promise<{ doc: Document; triangles: number }> {
  const coarse = cloneDocument(doc);
  const ratio = Math.min(1, target / Math.max(1, triangles));
  await coarse.transform(simplify({ simplifier: MeshoptSimplifier, ratio, error: LOD_ERROR }));
  // a batched model's element ranges (batch.ts) count the full model's triangles: after simplifying they would point at
  // the wrong ones, so the coarse level carries none; while it is drawn (loading, orbiting) its elements are not told
  // apart, and hidden ones show until the full model is back
  for (const n of coarse.getRoot().listNodes()) {
    const { [BATCHES_EXTRAS]: ranges, ...rest } = (n.getExtras() ?? {}) as Record<string, unknown>;
    if (ranges !== undefined) n.setExtras(rest);
  }
  return { doc: coarse, triangles: drawnTriangles(coarse) };
}
