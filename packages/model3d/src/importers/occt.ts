// STEP/STP, IGES/IGS and BREP through occt-import-js (OpenCascade in WebAssembly, LGPL-2.1): its WASM is loaded from
// node_modules beside its script, never from a CDN. The assembly tree keeps the product and instance names; the
// library gives positions already placed in the model's space, so nodes carry no matrix.
import { badInput } from '../errors.ts';
import { loadEmscripten } from './emscripten.ts';
import { node, type Scene, type SceneNode, type TriangleBudget } from '../scene.ts';

interface OcctMesh {
  name?: string;
  color?: [number, number, number];
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

export async function importOcct(input: Uint8Array, format: OcctFormat, name: string, budget: TriangleBudget): Promise<Scene> {
  const lib = await loadEmscripten<Occt>('occt-import-js');
  const params = { linearUnit: 'millimeter', linearDeflectionType: 'bounding_box_ratio', linearDeflection: 0.001, angularDeflection: 0.5 };
  let r: OcctResult;
  try {
    r = format === 'step' ? lib.ReadStepFile(input, params) : format === 'iges' ? lib.ReadIgesFile(input, params) : lib.ReadBrepFile(input, params);
  } catch (e) {
    throw badInput(`${format.toUpperCase()} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!r?.success) throw badInput(`${format.toUpperCase()} could not be read`);
  if (!r.meshes.length) throw badInput(`${format.toUpperCase()} holds no solids or surfaces`);
  const walk = (n: OcctNode, fallback: string): SceneNode => {
    const label = n.name || fallback;
    const meshes = n.meshes.map((i) => {
      const m = r.meshes[i];
      return budget.mesh({
        name: m.name || label,
        positions: Float32Array.from(m.attributes.position.array),
        normals: m.attributes.normal ? Float32Array.from(m.attributes.normal.array) : undefined,
        indices: Uint32Array.from(m.index.array),
        color: m.color,
      });
    });
    const properties: Record<string, unknown> = { product: label };
    const color = n.meshes.map((i) => r.meshes[i].color).find(Boolean);
    if (color) properties.color = `#${color.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('')}`;
    return node(label, { meshes, children: n.children.map((c, i) => walk(c, `${label} ${i + 1}`)), properties });
  };
  // occt's root is an unnamed document node: its children are the file's top-level products; several (an IGES of
  // loose surfaces) are gathered under one node named after the file
  const root = r.root;
  const tops = !root.name && !root.meshes.length ? root.children : [root];
  const nodes = tops.map((t, i) => walk(t, tops.length === 1 ? name : `${name} ${i + 1}`));
  return { roots: nodes.length === 1 ? nodes : [node(name, { children: nodes })], upAxis: 'Z' };
}
