// three.js objects (what its STL/OBJ/PLY loaders return) as the neutral scene.
import type { BufferGeometry, Material, Mesh, Object3D } from 'three';
import { node, type SceneMesh, type SceneNode, type SceneTexture, type TriangleBudget } from '../scene.ts';

const colorOf = (m: Material | undefined): SceneMesh['color'] => {
  const c = (m as { color?: { r: number; g: number; b: number } } | undefined)?.color;
  if (!c) return undefined;
  const opacity = m && m.transparent ? m.opacity : 1;
  return opacity < 1 ? [c.r, c.g, c.b, opacity] : [c.r, c.g, c.b];
};

/** the image an importer attached to a three.js material (`userData.texture`), with the geometry's UVs */
const textureOf = (m: Material | undefined): SceneTexture | undefined => m?.userData?.texture;

/** three's UVs have v up from the image's bottom (its textures flip on upload); glTF's run down from the top */
const gltfUvs = (uv: Float32Array) => uv.map((x, i) => (i % 2 ? 1 - x : x));

/** the triangles of a geometry from `start` for `count` indices (or positions when it has none) */
function part(g: BufferGeometry, start: number, count: number, name: string, material: Material | undefined, normals: boolean): SceneMesh {
  const color = colorOf(material);
  const texture = textureOf(material);
  const uv = texture ? (g.getAttribute('uv')?.array as Float32Array | undefined) : undefined;
  const uvs = uv && gltfUvs(uv);
  const pos = g.getAttribute('position').array as Float32Array;
  const nor = normals ? (g.getAttribute('normal')?.array as Float32Array | undefined) : undefined;
  const col = g.getAttribute('color');
  // RGB per vertex (three's loaders give them in the linear working space; an alpha channel is dropped)
  const colors = col ? Float32Array.from({ length: col.count * 3 }, (_, i) => col.getComponent(Math.floor(i / 3), i % 3)) : undefined;
  const index = g.getIndex()?.array;
  if (index) {
    const whole = start === 0 && count >= index.length;
    return { name, positions: Float32Array.from(pos), normals: nor && Float32Array.from(nor), colors, indices: Uint32Array.from(whole ? index : index.subarray(start, start + count)), color, ...(uvs ? { uvs, texture } : {}) };
  }
  const end = Math.min(pos.length / 3, start + count);
  return { name, positions: pos.slice(start * 3, end * 3), normals: nor?.slice(start * 3, end * 3), colors: colors?.slice(start * 3, end * 3), color, ...(uvs ? { uvs: uvs.slice(start * 2, end * 2), texture } : {}) };
}

/**
 * One three.js mesh: a geometry with several materials is split by its groups. `normals` false leaves out normals the
 * loader made per face (not the file's): without them shared corners weld, and the viewer shades flat.
 */
export function threeMesh(mesh: Mesh, name: string, budget: TriangleBudget, normals = true): SceneMesh[] {
  const g = mesh.geometry;
  const total = g.getIndex()?.count ?? g.getAttribute('position')?.count ?? 0;
  if (!total) return [];
  const mats = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
  if (!g.groups.length || mats.length === 1) return [budget.mesh(part(g, 0, total, name, mats[0], normals))];
  return g.groups.map((gr) => budget.mesh(part(g, gr.start, gr.count, mats[gr.materialIndex ?? 0]?.name || name, mats[gr.materialIndex ?? 0], normals)));
}

/** a three.js object tree: each object a node with its name and matrix, its meshes on it */
export function threeObject(o: Object3D, fallback: string, budget: TriangleBudget, normals = true): SceneNode {
  const name = o.name || fallback;
  o.updateMatrix();
  const identity = o.matrix.equals(o.matrix.clone().identity());
  const meshes = (o as Mesh).isMesh ? threeMesh(o as Mesh, name, budget, normals) : [];
  const properties: Record<string, unknown> = {};
  const material = (o as Mesh).material;
  if (material && !Array.isArray(material) && material.name) properties.material = material.name;
  return node(name, {
    matrix: identity ? undefined : [...o.matrix.elements],
    meshes,
    children: o.children.map((c, i) => threeObject(c, `${name} ${i + 1}`, budget, normals)),
    ...(Object.keys(properties).length ? { properties } : {}),
  });
}
