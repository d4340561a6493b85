import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { daeCube, fbxCube, tdsCube, threeMfCube } from '../fixtures/exchange.ts';
import { cube } from '../fixtures/mesh.ts';
import { expectModel } from '../fixtures/read-back.ts';

const enc = (s: string) => new TextEncoder().encode(s);
/** a 1 × 2 × 3 box: its bounds show any turn of the axes */
const box = () => {
  const c = cube(1);
  for (const v of c.vertices) (v[1] *= 2), (v[2] *= 3);
  return c;
};

describe('FBX, DAE, 3DS, 3MF through assimpjs', () => {
  it.each([
    ['box.dae', () => enc(daeCube(box())), [0, 0, 0], [1, 2, 3], 'Box'],
    ['box.fbx', () => enc(fbxCube(box())), [0, 0, 0], [1, 2, 3], 'Box'],
    ['box.3mf', () => threeMfCube(box()), [0, 0, 0], [1, 2, 3], 'Object_1'],
    // 3DS is Z up: assimp turns it to Y up (z → y, y → −z)
    ['box.3ds', () => tdsCube(box()), [0, 0, -2], [1, 3, 0], '3DSMesh_0'],
  ] as const)('%s: a box of 12 triangles under a root named after the file', async (name, bytes, min, max, child) => {
    const t = performance.now();
    const r = await convertToGlb(bytes(), name);
    console.log(`${name}: ${Math.round(performance.now() - t)} ms`);
    await expectModel(r, 12, [...min], [...max]);
    expect(r.tree.map((n) => [n.name, n.children.map((c) => c.name)])).toEqual([['box', [child]]]);
  });
});
