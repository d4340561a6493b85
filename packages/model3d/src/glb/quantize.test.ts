import { Logger } from '@gltf-transform/core';
import { quantize } from '@gltf-transform/functions';
import { describe, expect, it } from 'vitest';
import { node, type Scene } from '../scene.ts';
import { sceneToBatches } from './batch.ts';
import { gltfIO } from './finish.ts';
import { quantizeMerged } from './quantize.ts';

/** a scene of many small boxes in a few colours, placed (and some mirrored) far from the origin */
function boxes(count: number, colours: boolean): Scene {
  const kids = Array.from({ length: count }, (_, i) => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1.5, 1, 0, 1.5, 1, 1, 1.5, 0, 1, 1.5].map((v, k) => v * (1 + (i % 7) / 10) + (k % 3) * 0.013 * i));
    const normals = new Float32Array(positions.length).map((_, k) => [0.6, 0, 0.8][k % 3]);
    const indices = new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4]);
    const mesh = { positions, normals, indices, color: [i % 3 / 2, 0.5, 0.25, 1] as [number, number, number, number], ...(colours ? { colors: new Float32Array(positions.length).fill(0.3) } : {}) };
    return node(`box ${i}`, { meshes: [mesh], matrix: [i % 5 ? 1 : -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1000 + i * 2.5, -300, 42.125, 1], properties: { n: i } });
  });
  return { roots: [node('site', { children: kids })], upAxis: 'Z' };
}

describe('quantizeMerged: gltf-transform quantize() in typed arrays', () => {
  for (const colours of [false, true])
    it(`writes the same GLB as quantize() for merged primitives${colours ? ' with vertex colours' : ''}`, async () => {
      const io = await gltfIO();
      const theirs = sceneToBatches(boxes(300, colours)).doc.setLogger(new Logger(Logger.Verbosity.ERROR));
      await theirs.transform(quantize({ pattern: /.*/, patternTargets: /.*/, quantizePosition: 16 }));
      const ours = sceneToBatches(boxes(300, colours)).doc;
      await quantizeMerged(ours, 16);
      const [a, b] = [await io.writeBinary(theirs), await io.writeBinary(ours)];
      expect(b.length).toBe(a.length);
      expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
      // and it did quantize: 16-bit positions, 10-bit normals in 16-bit storage
      const prim = ours.getRoot().listMeshes()[0].listPrimitives()[0];
      expect(prim.getAttribute('POSITION')!.getArray()).toBeInstanceOf(Int16Array);
      expect(prim.getAttribute('NORMAL')!.getArray()).toBeInstanceOf(Int16Array);
      if (colours) expect(prim.getAttribute('COLOR_0')!.getArray()).toBeInstanceOf(Uint8Array);
    });
});
