import { type Document, type Node as GltfNode } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { ifcBuilding } from '../fixtures/ifc.ts';
import { readBack } from '../fixtures/read-back.ts';
import { stepManyParts } from '../fixtures/step.ts';
import type { ModelNode } from './finish.ts';
import { BATCH_ABOVE } from './batch.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const leaves = (ns: ModelNode[]): ModelNode[] => ns.flatMap((n) => (n.children.length ? leaves(n.children) : [n]));

/** the merged meshes (children of the node marked extras.batches) and every element's ranges, read from the GLB */
function batchesOf(doc: Document) {
  const nodes = doc.getRoot().listNodes();
  const holder = nodes.find((n) => (n.getExtras() as { batches?: unknown }).batches === true)!;
  const batches = holder.listChildren();
  const ranges = new Map<GltfNode, number[]>();
  for (const n of nodes) {
    const r = (n.getExtras() as { batches?: unknown }).batches;
    if (Array.isArray(r)) ranges.set(n, r as number[]);
  }
  return { holder, batches, ranges };
}

/** the world box of an element's triangles in the merged meshes (the batch node's quantization transform applied) */
function elementBox(batches: GltfNode[], ranges: number[]) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < ranges.length; i += 3) {
    const node = batches[ranges[i]];
    const prim = node.getMesh()!.listPrimitives()[0];
    const index = prim.getIndices()!;
    const pos = prim.getAttribute('POSITION')!;
    const m = node.getWorldMatrix();
    for (let k = ranges[i + 1] * 3; k < (ranges[i + 1] + ranges[i + 2]) * 3; k++) {
      const p = pos.getElement(index.getScalar(k), []);
      const w = [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
      w.forEach((v, a) => ((min[a] = Math.min(min[a], v)), (max[a] = Math.max(max[a], v))));
    }
  }
  return { min, max };
}

describe('batching many elements into few primitives', () => {
  it(`an IFC of 100 elements (more than ${BATCH_ABOVE}): every element keeps its tree entry, name and properties; its triangle ranges add up to the total; fewer primitives than elements; each element where it stands`, async () => {
    const r = await convertToGlb(enc(ifcBuilding({ storeys: 1, perStorey: 25 })), 'tower.ifc');
    const elements = leaves(r.tree);
    expect(elements).toHaveLength(100);
    expect(elements.slice(0, 4).map((e) => e.name)).toEqual(['Wall 0-0', 'Slab 0-0', 'Door 0-0', 'Window 0-0']);
    expect(elements[0].properties).toMatchObject({ type: 'IfcWall', Pset_WallCommon: { Reference: 'W-0-0', FireRating: 'EI 60' }, Qto_BaseQuantities: { Length: 5 } });
    expect(elements[6].properties).toMatchObject({ type: 'IfcDoor', Pset_DoorCommon: { Reference: 'D-0-1' } });
    // an extruded box is 12 triangles; the tree's counts are the ranges'
    expect(elements.every((e) => e.triangles === 12)).toBe(true);
    expect(r.stats.triangles).toBe(1200);

    const back = await readBack(r.glb);
    expect(back.triangles).toBe(1200);
    const { batches, ranges } = batchesOf(back.doc);
    const primitives = back.doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives());
    expect(primitives.length).toBeLessThan(10);
    // the tree's node numbers are the elements' nodes in the GLB, with their names, properties and ranges
    const nodes = back.doc.getRoot().listNodes();
    for (const e of elements) {
      const n = nodes[e.node];
      expect(n.getName()).toBe(e.name);
      expect(n.getMesh()).toBeNull();
      expect((n.getExtras() as { properties: unknown }).properties).toEqual(e.properties);
      const own = ranges.get(n)!;
      expect(own.filter((_, i) => i % 3 === 2).reduce((a, b) => a + b, 0)).toBe(e.triangles);
    }
    // the ranges tile each merged primitive exactly: no triangle owned twice, none owned by nobody
    const owned = batches.map((b) => new Uint8Array(b.getMesh()!.listPrimitives()[0].getIndices()!.getCount() / 3));
    for (const own of ranges.values()) for (let i = 0; i < own.length; i += 3) for (let t = own[i + 1]; t < own[i + 1] + own[i + 2]; t++) owned[own[i]][t]++;
    expect(owned.every((o) => o.every((c) => c === 1))).toBe(true);

    // door 0-1 stands at x 7–7.9, 2.1 m high, 0.3–0.4 m into the bay (IFC's Z up is web-ifc's Y up, its Y is −Z)
    const door = nodes[elements[6].node];
    const box = elementBox(batches, ranges.get(door)!);
    const expected = { min: [7, 0, -0.4], max: [7.9, 2.1, -0.3] };
    for (let a = 0; a < 3; a++) {
      expect(box.min[a]).toBeCloseTo(expected.min[a], 2);
      expect(box.max[a]).toBeCloseTo(expected.max[a], 2);
    }
  });

  it('a STEP assembly of 12 parts in six colours, batched (batchAbove 0): 12 named parts in the tree, one primitive per colour', async () => {
    // 12 parts: OpenCascade takes ~0.1–0.3 s a part in an assembly, the threshold is lowered instead
    const r = await convertToGlb(enc(stepManyParts(12)), 'plant.stp', { batchAbove: 0 });
    expect(r.tree).toHaveLength(1);
    expect(r.tree[0].name).toBe('Plant');
    const parts = r.tree[0].children;
    expect(parts.map((p) => p.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Part ${i + 1}`));
    expect(parts[0].properties).toMatchObject({ product: 'Part 1', color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(parts.reduce((n, p) => n + p.triangles, 0)).toBe(r.stats.triangles);
    expect(r.stats.triangles).toBe(12 * 12);
    const back = await readBack(r.glb);
    expect(back.triangles).toBe(144);
    const materials = back.doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).map((p) => p.getMaterial()!.getBaseColorFactor().slice(0, 3).map((c) => +c.toFixed(2)).join(','));
    expect(materials).toHaveLength(6);
    expect(new Set(materials).size).toBe(6);
  });
});
