// STL, binary and ASCII, through three.js's STLLoader. A binary file's triangle count is checked against its length
// and the limit first: STLLoader allocates for the count its header states.
import { Mesh } from 'three';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';
import { badInput, overLimit } from '../errors.ts';
import type { Model3dLimits } from '../limits.ts';
import { node, type Scene, type TriangleBudget } from '../scene.ts';
import { threeMesh } from './three-mesh.ts';

const isAsciiStart = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 512)).trimStart().toLowerCase().startsWith('solid');

export function importStl(input: Uint8Array, name: string, limits: Model3dLimits, budget: TriangleBudget): Scene {
  if (input.length < 15) throw badInput('STL too short');
  const count = input.length >= 84 ? new DataView(input.buffer, input.byteOffset, input.byteLength).getUint32(80, true) : -1;
  const binary = count >= 0 && (84 + count * 50 === input.length || !isAsciiStart(input));
  if (binary) {
    if (84 + count * 50 > input.length) throw badInput(`STL states ${count} triangles but holds ${Math.max(0, Math.floor((input.length - 84) / 50))}`);
    if (count > limits.maxTriangles) throw overLimit('triangles', count, limits.maxTriangles);
  } else if (!/facet/i.test(new TextDecoder().decode(input.subarray(0, 4096)))) {
    throw badInput('STL holds no facets');
  }
  const ab = input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength) as ArrayBuffer;
  const geometry = new STLLoader().parse(ab);
  const mesh = new Mesh(geometry);
  // facet normals are flat: without them the corners weld (a third of the size); the viewer shades flat
  const meshes = threeMesh(mesh, name, budget, false);
  if (!meshes.length) throw badInput('STL holds no triangles');
  return { roots: [node(name, { meshes })], upAxis: 'Z' };
}
