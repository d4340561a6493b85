// OBJ through three.js's OBJLoader, with its MTL (MTLLoader) when the file names one that was given beside it, and
// the MTL's diffuse maps (map_Kd, PNG or JPEG) given beside it embedded in the GLB; a map not given, or in another
// image format, leaves the material's colour. Comments promising counts are ignored: nothing is allocated before
// the lines are there.
import { MTLLoader } from 'three/addons/loaders/MTLLoader.js';
import { OBJLoader } from 'three/addons/loaders/OBJLoader.js';
import { badInput } from '../errors.ts';
import type { Scene, SceneTexture, TriangleBudget } from '../scene.ts';
import { threeObject } from './three-mesh.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const baseName = (n: string) => n.split(/[\\/]/).pop()!;

/** the MTL files an OBJ names (mtllib takes several names on one line) */
export const mtlNamesOf = (obj: string): string[] => [...obj.matchAll(/^\s*mtllib\s+(.+?)\s*$/gm)].flatMap((m) => (/\.mtl\s+\S/i.test(m[1]) ? m[1].split(/\s+/) : [m[1]]));

/** each material's diffuse map file name (map_Kd's options skipped: the name is what follows the last option) */
export function diffuseMapsOf(mtl: string): Map<string, string> {
  const maps = new Map<string, string>();
  let current: string | null = null;
  for (const line of mtl.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    if (m[1] === 'newmtl') current = m[2];
    else if (current && m[1].toLowerCase() === 'map_kd') maps.set(current, m[2].replace(/^(?:-\S+\s+(?:[-\d.]+\s+)*)*/, ''));
  }
  return maps;
}

/** a PNG or JPEG by its signature (glTF embeds only these) */
function imageType(b: Uint8Array): SceneTexture['mimeType'] | null {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  return null;
}

const given = (files: Map<string, Uint8Array>, name: string) => files.get(name) ?? files.get(baseName(name));

export function importObj(input: Uint8Array, name: string, extraFiles: Map<string, Uint8Array>, budget: TriangleBudget): Scene {
  const source = text(input);
  if (!/^\s*f\s/m.test(source)) throw badInput('OBJ holds no faces');
  const loader = new OBJLoader();
  for (const lib of mtlNamesOf(source)) {
    const bytes = given(extraFiles, lib);
    if (!bytes) continue;
    const mtl = text(bytes);
    // maps are left out of three's materials (its TextureLoader needs a DOM): the images are attached below
    const materials = new MTLLoader().parse(mtl.replace(/^\s*(map_|bump|disp|decal|refl)\S*.*$/gim, ''), '');
    materials.preload();
    for (const [material, file] of diffuseMapsOf(mtl)) {
      const image = given(extraFiles, file);
      const mimeType = image && imageType(image);
      const m = materials.materials[material];
      if (m && image && mimeType) m.userData.texture = { name: baseName(file), image, mimeType } satisfies SceneTexture;
    }
    loader.setMaterials(materials);
  }
  const group = loader.parse(source);
  // normals only when the file has them (OBJLoader makes flat ones otherwise, which keep corners from welding)
  const root = threeObject(group, name, budget, /^\s*vn\s/m.test(source));
  root.name = name;
  if (!budget.count) throw badInput('OBJ holds no triangles');
  return { roots: [root], upAxis: 'Y' };
}
