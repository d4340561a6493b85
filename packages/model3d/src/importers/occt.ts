// STEP/STP, IGES/IGS and BREP through occt-import-js (OpenCascade in WebAssembly, LGPL-2.1): its WASM is loaded from
// node_modules beside its script, never from a CDN. The assembly tree keeps the product and instance names; the
// library gives positions already placed in the model's space, so nodes carry no matrix.
import { badInput } from '../errors.ts';
import { loadEmscripten } from './emscripten.ts';
import type { ImportProgress } from '../progress.ts';
import { node, type Scene, type SceneMesh, type SceneNode, type TriangleBudget } from '../scene.ts';

type Rgb = [number, number, number];
interface OcctMesh {
  name?: string;
  color?: Rgb;
  /** triangles first..last of each face of the solid, with the face's own colour */
  brep_faces?: Array<{ first: number; last: number; color: Rgb | null }>;
  attributes: { position: { array: number[] }; normal?: { array: number[] } };
  index: { array: number[] };
}
interface OcctNode {
  name: string;
  meshes: number[];
  children: OcctNode[];
}
interface OcctResult {
  success: boolean;
  root: OcctNode;
  meshes: OcctMesh[];
}
interface Occt {
  ReadStepFile(content: Uint8Array, params: unknown): OcctResult;
  ReadIgesFile(content: Uint8Array, params: unknown): OcctResult;
  ReadBrepFile(content: Uint8Array, params: unknown): OcctResult;
}

export type OcctFormat = 'step' | 'iges' | 'brep';

const hex = (c: Rgb) => `#${c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('')}`;

/** a mesh of occt's as one mesh a colour: faces coloured apart from their solid become meshes of their own */
function byColor(m: OcctMesh, label: string): SceneMesh[] {
  const positions = Float32Array.from(m.attributes.position.array);
  const normals = m.attributes.normal ? Float32Array.from(m.attributes.normal.array) : undefined;
  const index = m.index.array;
  const groups = new Map<string, { color?: Rgb; faces: Array<[number, number]> }>();
  for (const f of m.brep_faces ?? []) {
    const color = f.color ?? m.color;
    const key = color ? hex(color) : '';
    (groups.get(key) ?? groups.set(key, { color, faces: [] }).get(key)!).faces.push([f.first, f.last]);
  }
  if (groups.size <= 1) return [{ name: m.name || label, positions, normals, indices: Uint32Array.from(index), color: m.color }];
  return [...groups.values()].map(({ color, faces }) => {
    // the group's triangles, its vertices renumbered so each mesh holds only its own
    const remap = new Map<number, number>();
    const tri: number[] = [];
    for (const [first, last] of faces) for (let t = first; t <= last; t++) for (let k = 0; k < 3; k++) {
      const v = index[t * 3 + k];
      if (!remap.has(v)) remap.set(v, remap.size);
      tri.push(remap.get(v)!);
    }
    const pos = new Float32Array(remap.size * 3);
    const nor = normals ? new Float32Array(remap.size * 3) : undefined;
    for (const [from, to] of remap) for (let k = 0; k < 3; k++) {
      pos[to * 3 + k] = positions[from * 3 + k];
      if (nor) nor[to * 3 + k] = normals![from * 3 + k];
    }
    return { name: m.name || label, positions: pos, normals: nor, indices: Uint32Array.from(tri), color };
  });
}

/** the tessellation asked of occt-import-js (the bench calls the library alone with the same) */
export const OCCT_PARAMS = { linearUnit: 'millimeter', linearDeflectionType: 'bounding_box_ratio', linearDeflection: 0.001, angularDeflection: 0.5 };

export async function importOcct(input: Uint8Array, format: OcctFormat, name: string, budget: TriangleBudget, progress: ImportProgress = () => undefined): Promise<Scene> {
  const lib = await loadEmscripten<Occt>('occt-import-js');
  const params = OCCT_PARAMS;
  let r: OcctResult;
  try {
    r = format === 'step' ? lib.ReadStepFile(input, params) : format === 'iges' ? lib.ReadIgesFile(input, params) : lib.ReadBrepFile(input, params);
  } catch (e) {
    throw badInput(`${format.toUpperCase()} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!r?.success) throw badInput(`${format.toUpperCase()} could not be read`);
  if (!r.meshes.length) throw badInput(`${format.toUpperCase()} holds no solids or surfaces`);
  // reading and tessellating is one call into the library (no news from inside it); its meshes then count as parts
  let done = 0;
  const walk = (n: OcctNode, fallback: string): SceneNode => {
    const label = n.name || fallback;
    const meshes = n.meshes.flatMap((i) => {
      const own = byColor(r.meshes[i], label);
      progress(++done, r.meshes.length);
      return own;
    }).map((m) => budget.mesh(m));
    const properties: Record<string, unknown> = { product: label };
    const color = n.meshes.map((i) => r.meshes[i].color).find(Boolean);
    if (color) properties.color = hex(color);
    return node(label, { meshes, children: n.children.map((c, i) => walk(c, `${label} ${i + 1}`)), properties });
  };
  // occt's root is an unnamed document node: its children are the file's top-level products; several (an IGES of
  // loose surfaces) are gathered under one node named after the file
  const root = r.root;
  const tops = !root.name && !root.meshes.length ? root.children : [root];
  const nodes = tops.map((t, i) => walk(t, tops.length === 1 ? name : `${name} ${i + 1}`));
  return { roots: nodes.length === 1 ? nodes : [node(name, { children: nodes })], upAxis: 'Z' };
}
