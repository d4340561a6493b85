// OBJ through three.js's OBJLoader, with its MTL (MTLLoader) when the file names one that was given beside it.
// Texture maps are left out (they need a DOM image loader; colours are kept). Comments promising counts are ignored:
// nothing is allocated before the lines are there.
import { MTLLoader } from 'three/addons/loaders/MTLLoader.js';
import { OBJLoader } from 'three/addons/loaders/OBJLoader.js';
import { badInput } from '../errors.ts';
import type { Scene, TriangleBudget } from '../scene.ts';
import { threeObject } from './three-mesh.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

export function importObj(input: Uint8Array, name: string, extraFiles: Map<string, Uint8Array>, budget: TriangleBudget): Scene {
  const source = text(input);
  if (!/^\s*f\s/m.test(source)) throw badInput('OBJ holds no faces');
  const loader = new OBJLoader();
  const libs = [...source.matchAll(/^\s*mtllib\s+(.+?)\s*$/gm)].map((m) => m[1]);
  for (const lib of libs) {
    const bytes = extraFiles.get(lib) ?? extraFiles.get(lib.split(/[\\/]/).pop()!);
    if (!bytes) continue;
    const mtl = text(bytes).replace(/^\s*(map_|bump|disp|decal|refl)\S*.*$/gim, '');
    const materials = new MTLLoader().parse(mtl, '');
    materials.preload();
    loader.setMaterials(materials);
  }
  const group = loader.parse(source);
  // normals only when the file has them (OBJLoader makes flat ones otherwise, which keep corners from welding)
  const root = threeObject(group, name, budget, /^\s*vn\s/m.test(source));
  root.name = name;
  if (!budget.count) throw badInput('OBJ holds no triangles');
  return { roots: [root], upAxis: 'Y' };
}
