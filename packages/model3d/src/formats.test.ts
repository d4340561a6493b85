// Issue 21's first test: a small model of every format we convert, written here, converted to a GLB whose triangle
// count, bounding box and node names are the ones the source holds. One row per format (and per encoding).
import { describe, expect, it } from 'vitest';
import { convertToGlb } from './convert.ts';
import type { ModelNode } from './glb/finish.ts';
import { brepBox } from './fixtures/brep.ts';
import { daeCube, fbxCube, tdsCube, threeMfCube } from './fixtures/exchange.ts';
import { gltfCube } from './fixtures/gltf.ts';
import { ifcWallAndDoor } from './fixtures/ifc.ts';
import { igesBox } from './fixtures/iges.ts';
import { asciiPly, asciiStl, binaryPly, binaryStl, cube, mtl, obj, off } from './fixtures/mesh.ts';
import { expectModel } from './fixtures/read-back.ts';
import { rhinoFile } from './fixtures/rhino.ts';
import { stepAssembly, stepPart } from './fixtures/step.ts';

const enc = (s: string) => new TextEncoder().encode(s);
/** the tree as nested names: a leaf its name, a node with children { name: [children] } */
const names = (n: ModelNode): unknown => (n.children.length ? { [n.name]: n.children.map(names) } : n.name);
/** a 1 × 2 × 3 box: its bounds show any turn of the axes */
const box123 = () => {
  const c = cube(1);
  for (const v of c.vertices) (v[1] *= 2), (v[2] *= 3);
  return c;
};

interface Row {
  format: string;
  file: string;
  bytes: () => Promise<Uint8Array> | Uint8Array;
  extra?: () => Promise<Record<string, Uint8Array>> | Record<string, Uint8Array>;
  triangles: number;
  min: number[];
  max: number[];
  tree: unknown[];
}

const ROWS: Row[] = [
  { format: 'STEP (a cube)', file: 'cube.stp', bytes: () => enc(stepPart({ name: 'Cube', min: [0, 0, 0], max: [10, 10, 10] })), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: ['Cube'] },
  {
    format: 'STEP (an assembly of two parts)', file: 'gearbox.step',
    bytes: () => enc(stepAssembly('Gearbox', [{ name: 'Housing', min: [0, 0, 0], max: [10, 10, 10], at: [0, 0, 0] }, { name: 'Shaft', min: [0, 0, 0], max: [5, 5, 5], at: [20, 0, 0] }])),
    triangles: 24, min: [0, 0, 0], max: [25, 10, 10], tree: [{ Gearbox: ['Housing', 'Shaft'] }],
  },
  { format: 'IGES', file: 'box.igs', bytes: () => enc(igesBox([0, 0, 0], [3, 4, 5])), triangles: 12, min: [0, 0, 0], max: [3, 4, 5], tree: [{ box: ['FACE', 'FACE', 'FACE', 'FACE', 'FACE', 'FACE'] }] },
  { format: 'BREP', file: 'block.brep', bytes: () => enc(brepBox([-1, -2, -3], [1, 2, 3])), triangles: 12, min: [-1, -2, -3], max: [1, 2, 3], tree: ['block'] },
  {
    // web-ifc turns IFC's Z up to Y up: the wall's 5 m along x, 3 m up along y, 0.2 m thick along −z
    format: 'IFC (a wall and a door)', file: 'house.ifc', bytes: () => enc(ifcWallAndDoor()), triangles: 24, min: [0, 0, -0.2], max: [5, 3, 0],
    tree: [{ House: [{ Site: [{ 'Building A': [{ 'Ground floor': ['Wall 1', 'Door 1'] }] }] }] }],
  },
  { format: '3DM', file: 'house.3dm', bytes: rhinoFile, triangles: 36, min: [0, 0, 0], max: [10, 10, 6], tree: [{ house: [{ Building: ['Slab', { Doors: ['Door', 'Unmeshed', 'Ball'] }] }] }] },
  { format: 'OBJ + MTL', file: 'box.obj', bytes: () => enc(obj()), extra: () => ({ 'cube.mtl': enc(mtl) }), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: [{ box: ['Bottom', 'Top'] }] },
  { format: 'STL (ASCII)', file: 'box.stl', bytes: () => enc(asciiStl()), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: ['box'] },
  { format: 'STL (binary)', file: 'box.stl', bytes: () => binaryStl(), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: ['box'] },
  { format: 'PLY (ASCII)', file: 'box.ply', bytes: () => enc(asciiPly()), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: ['box'] },
  { format: 'PLY (binary)', file: 'box.ply', bytes: () => binaryPly(), triangles: 12, min: [0, 0, 0], max: [10, 10, 10], tree: ['box'] },
  { format: 'OFF', file: 'box.off', bytes: () => enc(off(cube(4, [1, 2, 3]))), triangles: 12, min: [1, 2, 3], max: [5, 6, 7], tree: ['box'] },
  { format: '3MF', file: 'box.3mf', bytes: () => threeMfCube(box123()), triangles: 12, min: [0, 0, 0], max: [1, 2, 3], tree: [{ box: ['Box'] }] },
  { format: 'FBX', file: 'box.fbx', bytes: () => enc(fbxCube(box123())), triangles: 12, min: [0, 0, 0], max: [1, 2, 3], tree: [{ box: ['Box'] }] },
  { format: 'DAE', file: 'box.dae', bytes: () => enc(daeCube(box123())), triangles: 12, min: [0, 0, 0], max: [1, 2, 3], tree: [{ box: ['Box'] }] },
  // 3DS is Z up: assimp turns it to Y up (z → y, y → −z)
  { format: '3DS', file: 'box.3ds', bytes: () => tdsCube(box123()), triangles: 12, min: [0, 0, -2], max: [1, 3, 0], tree: [{ box: ['Box'] }] },
  { format: 'glTF (with its .bin)', file: 'fixture.gltf', bytes: async () => (await gltfCube()).gltf, extra: async () => (await gltfCube()).resources, triangles: 12, min: [10, 0, 0], max: [12, 2, 2], tree: [{ Fixture: ['Bolt'] }] },
  { format: 'GLB', file: 'fixture.glb', bytes: async () => (await gltfCube()).glb, triangles: 12, min: [10, 0, 0], max: [12, 2, 2], tree: [{ Fixture: ['Bolt'] }] },
];

describe('every format converts a small model to the GLB it holds', () => {
  it.each(ROWS.map((r) => [r.format, r] as const))('%s', async (_, row) => {
    const r = await convertToGlb(await row.bytes(), row.file, { extraFiles: row.extra ? await row.extra() : undefined });
    await expectModel(r, row.triangles, row.min, row.max);
    expect(r.tree.map(names)).toEqual(row.tree);
  });
});
