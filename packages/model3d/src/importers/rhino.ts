// 3DM (Rhino) through rhino3dm (its WASM from node_modules). Layers become nodes (nested by their parent layer),
// objects nodes under their layer: meshes as they are, breps and extrusions through the render meshes Rhino saved
// with them; saved without them, their planar faces are triangulated from their edges (rhino-planar.ts: rhino3dm
// cannot mesh a brep) and curved faces are left out (counted in the node's properties).
// Colours: the object's own when it says so, else its layer's. Coordinates stay Z up, in the file's units.
import { badInput } from '../errors.ts';
import { loadEmscripten } from './emscripten.ts';
import type { ImportProgress } from '../progress.ts';
import { meshPlanarFaces } from './rhino-planar.ts';
import { node, type NodeProperties, type Scene, type SceneMesh, type SceneNode, type TriangleBudget } from '../scene.ts';

/** rhino3dm's embind objects (its typings disagree with the library in places: BrepFace.setMesh's order) */
type Rhino = any;

interface RhinoColor {
  r: number;
  g: number;
  b: number;
}
const hex = (c: RhinoColor) => `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const linear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const NO_PARENT = '00000000-0000-0000-0000-000000000000';

export async function importRhino(input: Uint8Array, name: string, budget: TriangleBudget, progress: ImportProgress = () => undefined): Promise<Scene> {
  const rhino = await loadEmscripten<Rhino>('rhino3dm');
  let doc: Rhino;
  try {
    doc = rhino.File3dm.fromByteArray(input);
  } catch (e) {
    throw badInput(`3DM could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!doc) throw badInput('3DM could not be read');

  const layers: Array<{ node: SceneNode; id: string; parent: string; color: RhinoColor; used: boolean }> = [];
  for (let i = 0; i < doc.layers().count; i++) {
    const l = doc.layers().get(i);
    layers.push({ node: node(l.name || `Layer ${i + 1}`, { properties: { layer: l.fullPath || l.name, color: hex(l.color) } }), id: l.id, parent: l.parentLayerId, color: l.color, used: false });
  }
  const byId = new Map(layers.map((l) => [l.id, l]));
  const root = node(name);
  let withoutMesh = 0;

  const meshOf = (m: Rhino, color: RhinoColor): SceneMesh | null => {
    const b = m?.toThreejsBuffers?.(false);
    if (!b?.index?.length) return null;
    return budget.mesh({ positions: Float32Array.from(b.position), normals: b.normal ? Float32Array.from(b.normal) : undefined, indices: Uint32Array.from(b.index), color: [linear(color.r), linear(color.g), linear(color.b)] });
  };

  const objects = doc.objects().count;
  for (let i = 0; i < objects; i++) {
    progress(i, objects);
    const o = doc.objects().get(i);
    const g = o.geometry();
    const a = o.attributes();
    const layer = layers[a.layerIndex];
    const color: RhinoColor = a.colorSource === rhino.ObjectColorSource.ColorFromObject ? a.objectColor : (layer?.color ?? { r: 204, g: 204, b: 204 });
    const raw: Rhino[] = [];
    let type = g?.constructor?.name ?? 'Object';
    if (g instanceof rhino.Mesh) {
      type = 'Mesh';
      raw.push(g);
    } else if (g instanceof rhino.Brep) {
      type = 'Brep';
      for (let f = 0; f < g.faces().count; f++) raw.push(g.faces().get(f).getMesh(rhino.MeshType.Any));
    } else if (g instanceof rhino.Extrusion) {
      type = 'Extrusion';
      raw.push(g.getMesh(rhino.MeshType.Any));
    } else continue; // curves, points, annotations: not shown in 3D
    const meshes = raw.map((m) => meshOf(m, color)).filter((m): m is SceneMesh => m !== null);
    const properties: NodeProperties = { type, layer: layer ? layer.node.properties!.layer : undefined, color: hex(color) };
    if (!meshes.length && type !== 'Mesh') {
      // saved without render meshes: its planar faces are triangulated here (rhino3dm cannot mesh a brep)
      const brep = type === 'Brep' ? g : g.toBrep?.(true);
      const planar = brep ? meshPlanarFaces(rhino, brep) : null;
      if (planar?.indices.length) meshes.push(budget.mesh({ positions: planar.positions, indices: planar.indices, color: [linear(color.r), linear(color.g), linear(color.b)] }));
      if (planar) properties.meshedFromPlanarFaces = true;
      if (planar?.curvedFaces) properties.curvedFacesWithoutMesh = planar.curvedFaces;
    }
    if (!meshes.length) withoutMesh++;
    const n = node(a.name || `${type} ${i + 1}`, { meshes, properties });
    if (layer) (layer.node.children.push(n), (layer.used = true));
    else root.children.push(n);
  }
  if (!budget.count) throw badInput(withoutMesh ? `3DM holds ${withoutMesh} objects without render meshes (curved faces need render meshes: save them with render meshes in Rhino)` : '3DM holds no meshes, breps or extrusions');

  // a layer is kept when it or a sublayer holds objects; sublayers under their parent
  const keep = (l: (typeof layers)[number]): boolean => l.used || layers.some((c) => c.parent === l.id && keep(c));
  for (const l of layers) {
    if (!keep(l)) continue;
    const parent = l.parent !== NO_PARENT ? byId.get(l.parent) : undefined;
    if (parent && parent !== l) parent.node.children.push(l.node);
    else root.children.push(l.node);
  }
  if (withoutMesh) root.properties = { objectsWithoutRenderMesh: withoutMesh };
  return { roots: [root], upAxis: 'Z' };
}
