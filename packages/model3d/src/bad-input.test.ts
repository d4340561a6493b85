import { describe, expect, it } from 'vitest';
import { convertToGlb } from './convert.ts';
import { asciiPly, asciiStl, binaryStl, obj, off } from './fixtures/mesh.ts';
import { ifcWallAndDoor } from './fixtures/ifc.ts';
import { expectModel } from './fixtures/read-back.ts';
import { rhinoFile } from './fixtures/rhino.ts';
import { stepPart } from './fixtures/step.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const kind = (p: Promise<unknown>, k: string) => expect(p).rejects.toMatchObject({ name: 'Model3dError', kind: k });

describe('bad input ends with its kind', () => {
  it('a 0-byte file of every format is bad input', async () => {
    for (const name of ['a.step', 'a.igs', 'a.brep', 'a.ifc', 'a.3dm', 'a.stl', 'a.obj', 'a.ply', 'a.off', 'a.glb', 'a.gltf', 'a.fbx', 'a.dae', 'a.3ds', 'a.3mf']) await kind(convertToGlb(new Uint8Array(0), name), 'bad-input');
  });

  it('random bytes are bad input in every format', async () => {
    let seed = 7;
    const bytes = Uint8Array.from({ length: 4096 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0), seed >>> 24));
    for (const name of ['a.step', 'a.iges', 'a.brep', 'a.ifc', 'a.3dm', 'a.stl', 'a.obj', 'a.ply', 'a.off', 'a.glb', 'a.gltf', 'a.fbx', 'a.dae', 'a.3ds', 'a.3mf']) await kind(convertToGlb(bytes, name), 'bad-input');
  });

  it('an unknown extension is unsupported', async () => {
    await kind(convertToGlb(enc('x'), 'house.rvt'), 'unsupported');
  });

  it('an OBJ whose header promises a billion faces converts what it holds, allocating nothing for the promise', async () => {
    const before = process.memoryUsage().rss;
    const r = await convertToGlb(enc(obj(undefined, '# faces: 1000000000\n# element face 1000000000\n')), 'big.obj');
    await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('PLY, OFF and binary STL headers promising a billion faces the file cannot hold are bad input, refused before allocating', async () => {
    const ply = 'ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1000000000\nproperty list uchar int vertex_indices\nend_header\n';
    await kind(convertToGlb(enc(ply), 'big.ply', { limits: { maxTriangles: 2e9 } }), 'bad-input');
    await kind(convertToGlb(enc('OFF\n3 1000000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n'), 'big.off', { limits: { maxTriangles: 2e9 } }), 'bad-input');
    const stl = new Uint8Array(84 + 50);
    new DataView(stl.buffer).setUint32(80, 1_000_000_000, true);
    await kind(convertToGlb(stl, 'big.stl', { limits: { maxTriangles: 2e9 } }), 'bad-input');
  });

  it('headers counting more faces than the limit are too large, refused before reading them', async () => {
    await kind(convertToGlb(enc(asciiPly()), 'box.ply', { limits: { maxTriangles: 11 } }), 'too-large');
    await kind(convertToGlb(enc(off()), 'box.off', { limits: { maxTriangles: 5 } }), 'too-large');
    await kind(convertToGlb(binaryStl(), 'box.stl', { limits: { maxTriangles: 11 } }), 'too-large');
  });

  it('the triangle and input size limits refuse a model above them', async () => {
    await kind(convertToGlb(enc(asciiStl()), 'box.stl', { limits: { maxTriangles: 11 } }), 'too-large');
    // counted inside web-ifc's mesh stream and after occt's and rhino3dm's reading
    await kind(convertToGlb(enc(ifcWallAndDoor()), 'house.ifc', { limits: { maxTriangles: 20 } }), 'too-large');
    await kind(convertToGlb(enc(stepPart({ name: 'C', min: [0, 0, 0], max: [1, 1, 1] })), 'c.stp', { limits: { maxTriangles: 11 } }), 'too-large');
    await kind(convertToGlb(await rhinoFile(), 'house.3dm', { limits: { maxTriangles: 20 } }), 'too-large');
    // and the file still converts with room
    expect((await convertToGlb(enc(ifcWallAndDoor()), 'house.ifc')).stats.triangles).toBe(24);
    await kind(convertToGlb(enc(asciiStl()), 'box.stl', { limits: { maxInputBytes: 100 } }), 'too-large');
    // the files beside it count: an OBJ under the limit with a large MTL is over it
    const model = enc(obj());
    await kind(convertToGlb(model, 'box.obj', { limits: { maxInputBytes: model.length + 100 }, extraFiles: { 'cube.mtl': new Uint8Array(200) } }), 'too-large');
  });
});
