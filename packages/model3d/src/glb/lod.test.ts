import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { asciiStl, cube } from '../fixtures/mesh.ts';
import { readBack } from '../fixtures/read-back.ts';
import { sphereTriangles, spheresGlb } from '../fixtures/spheres.ts';
import { convertInWorker } from '../worker/run-in-worker.ts';

describe('a big model', () => {
  it('gets a coarse level of detail: the same nodes, names and properties, a fraction of the triangles', async () => {
    const input = await spheresGlb(16, 40, 0.01); // 16 × 6240 = 99 840 triangles, slightly rough (as scans are)
    const r = await convertToGlb(input, 'spheres.glb', { limits: { lodAboveTriangles: 50_000, lodTargetTriangles: 10_000 } });
    expect(r.stats.triangles).toBe(16 * sphereTriangles(40));
    expect(r.lod).toBeInstanceOf(Uint8Array);
    const full = await readBack(r.glb);
    const coarse = await readBack(r.lod!);
    expect(full.triangles).toBe(r.stats.triangles);
    expect(coarse.extensions).toContain('EXT_meshopt_compression');
    // near the target (the simplifier's error bound may stop it a little above), far below the full model
    expect(coarse.triangles).toBeLessThan(20_000);
    expect(coarse.triangles).toBeGreaterThan(2_000);
    expect(r.stats.lod).toEqual({ triangles: coarse.triangles, bytes: r.lod!.byteLength });
    expect(r.lod!.byteLength).toBeLessThan(r.glb.byteLength / 2);
    // node for node the same model: the tree's node numbers name the same nodes in both, with their properties
    expect(coarse.names).toEqual(full.names);
    const props = (glb: Awaited<ReturnType<typeof readBack>>) => glb.doc.getRoot().listNodes().map((n) => JSON.stringify(n.getExtras()));
    expect(props(coarse)).toEqual(props(full));
    for (const k of [0, 1, 2]) expect(Math.abs(coarse.bbox.max[k] - full.bbox.max[k])).toBeLessThan(0.05);
  });

  it('a model at or below the threshold gets none', async () => {
    const r = await convertToGlb(await spheresGlb(2, 20), 'two.glb', { limits: { lodAboveTriangles: 2 * sphereTriangles(20) } });
    expect(r.lod).toBeUndefined();
    expect(r.stats.lod).toBeUndefined();
  });
});

describe('the count limits', () => {
  const two = () => {
    const a = cube(10);
    const b = cube(10, [20, 0, 0]);
    return new TextEncoder().encode(asciiStl('two', { vertices: [...a.vertices, ...b.vertices], triangles: [...a.triangles, ...b.triangles.map((t) => t.map((i) => i + 8) as typeof t)] }));
  };

  it('a model over the triangle limit is refused with the count and the limit; at the limit it converts', async () => {
    await expect(convertToGlb(two(), 'two.stl', { limits: { maxTriangles: 20 } })).rejects.toMatchObject({ kind: 'too-large', overLimit: { what: 'triangles', count: 24, limit: 20 } });
    expect((await convertToGlb(two(), 'two.stl', { limits: { maxTriangles: 24 } })).stats.triangles).toBe(24);
  });

  it('a model over the vertex limit is refused with the count and the limit', async () => {
    await expect(convertToGlb(two(), 'two.stl', { limits: { maxVertices: 40 } })).rejects.toMatchObject({ kind: 'too-large', overLimit: { what: 'vertices', limit: 40 } });
  });

  it('a glTF is refused from the counts its JSON states, before its buffers are read; the numbers come through the worker', async () => {
    const input = await spheresGlb(4, 40);
    await expect(convertInWorker(input, 'big.glb', { limits: { maxTriangles: 10_000 } })).rejects.toMatchObject({ kind: 'too-large', overLimit: { what: 'triangles', count: 4 * sphereTriangles(40), limit: 10_000 } });
    // the glTF's buffer cut away: a refusal from the header alone, not a read error
    const header = input.slice(0, 20 + new DataView(input.buffer).getUint32(12, true));
    await expect(convertToGlb(header, 'big.glb', { limits: { maxVertices: 1000 } })).rejects.toMatchObject({ overLimit: { what: 'vertices' } });
  });
});
