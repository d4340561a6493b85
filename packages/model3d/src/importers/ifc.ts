// IFC: geometry through web-ifc (MPL-2.0; its WASM loaded from node_modules), the lines of the tree and the property
// sets through our own reader (step-lines.ts says why). The node tree is the spatial structure read from
// the relations themselves (IfcRelAggregates, IfcRelContainedInSpatialStructure), walked once per entity; an entity
// that contains itself, directly or through others, is invalid IFC and ends the conversion as bad input (issue 21
// names "an IFC with a cyclic reference" among the inputs that end in the spec's message, not in a guessed tree); each element's property sets and quantities (IfcRelDefinesByProperties) go in its properties.
// web-ifc places geometry Y-up in metres of the model; an element of one representation item carries its placement as
// its node's matrix and shares the item's mesh with the other elements placing it.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as WebIFC from 'web-ifc';
import { badInput } from '../errors.ts';
import { StepLines, type StepValue } from './step-lines.ts';
import type { ImportProgress } from '../progress.ts';
import { node, type NodeProperties, type Scene, type SceneMesh, type SceneNode, type TriangleBudget } from '../scene.ts';

const require = createRequire(import.meta.url);
let api: Promise<WebIFC.IfcAPI> | null = null;

function load(): Promise<WebIFC.IfcAPI> {
  if (!api) {
    const a = new WebIFC.IfcAPI();
    a.SetWasmPath(`${path.dirname(require.resolve('web-ifc'))}/`, true);
    api = a.Init(undefined, true).then(() => a);
  }
  return api;
}

/** an attribute as the tree and the property panel show it: a typed value's value, IFCBOOLEAN/IFCLOGICAL as true/false
 * (unknown: null), other enumerations by name */
function plain(v: StepValue | undefined): unknown {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return v ?? null;
  if ('type' in v) return plain(v.value);
  if ('enum' in v) return v.enum === 'T' ? true : v.enum === 'F' ? false : v.enum === 'U' ? null : v.enum;
  return v.ref;
}
const ref = (v: StepValue | undefined): number | null => (v && typeof v === 'object' && 'ref' in v ? v.ref : null);
const refs = (v: StepValue | undefined): number[] => (Array.isArray(v) ? v.map(ref).filter((x): x is number => x !== null) : []);

// attribute positions (the same in IFC2X3 and IFC4): IfcRoot's GlobalId 0 and Name 2; the relations' two sides
const GLOBAL_ID = 0, NAME = 2;
const RELATIONS = { IFCRELAGGREGATES: { parent: 4, kids: 5 }, IFCRELCONTAINEDINSPATIALSTRUCTURE: { parent: 5, kids: 4 } } as const;
/** IfcRelDefinesByProperties: RelatedObjects, RelatingPropertyDefinition */
const DEFINED = 4, DEFINITION = 5;
/** where a property definition lists its properties: IfcPropertySet's HasProperties, IfcElementQuantity's Quantities */
const PROPERTY_LISTS: Record<string, number> = { IFCPROPERTYSET: 4, IFCELEMENTQUANTITY: 5 };
/** IfcPropertySingleValue's NominalValue and the simple quantities' value (Name is 0 in every IfcProperty/IfcPhysicalQuantity) */
const VALUE_AT: Record<string, number> = { IFCPROPERTYSINGLEVALUE: 2, IFCQUANTITYLENGTH: 3, IFCQUANTITYAREA: 3, IFCQUANTITYVOLUME: 3, IFCQUANTITYCOUNT: 3, IFCQUANTITYWEIGHT: 3, IFCQUANTITYTIME: 3 };

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** applies a column-major 4×4 to interleaved position+normal data (6 floats a vertex) */
function place(data: Float32Array, m: number[]): { positions: Float32Array; normals: Float32Array } {
  const n = data.length / 6;
  const positions = new Float32Array(n * 3);
  const normals = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    // plain reads: a subarray per vertex was most of the conversion's garbage
    const x = data[i * 6], y = data[i * 6 + 1], z = data[i * 6 + 2], nx = data[i * 6 + 3], ny = data[i * 6 + 4], nz = data[i * 6 + 5];
    positions[i * 3] = m[0] * x + m[4] * y + m[8] * z + m[12];
    positions[i * 3 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    positions[i * 3 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    const a = m[0] * nx + m[4] * ny + m[8] * nz;
    const b = m[1] * nx + m[5] * ny + m[9] * nz;
    const c = m[2] * nx + m[6] * ny + m[10] * nz;
    const l = Math.hypot(a, b, c) || 1;
    normals[i * 3] = a / l;
    normals[i * 3 + 1] = b / l;
    normals[i * 3 + 2] = c / l;
  }
  return { positions, normals };
}

export async function importIfc(input: Uint8Array, name: string, budget: TriangleBudget, progress: ImportProgress = () => undefined): Promise<Scene> {
  const ifc = await load();
  const text = new TextDecoder('latin1').decode(input.subarray(0, 64));
  if (!/^\s*ISO-10303-21/.test(text)) throw badInput('IFC is not a STEP physical file (ISO-10303-21)');
  let model: number;
  try {
    model = ifc.OpenModel(input, { COORDINATE_TO_ORIGIN: false });
  } catch (e) {
    throw badInput(`IFC could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (model < 0) throw badInput('IFC could not be read');
  try {
    let lines: StepLines;
    try {
      lines = new StepLines(input);
    } catch (e) {
      throw badInput(`IFC could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    // the lines of the tree and the property sets are ours to read (step-lines.ts says why); a malformed one is bad input
    const line = (id: number): StepValue[] | null => {
      try {
        return lines.get(id);
      } catch (e) {
        throw badInput(`IFC could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    };

    // the spatial structure: parent → children, from the relations
    const children = new Map<number, number[]>();
    const relate = (parent: number | null, kids: number[]) => {
      if (parent === null) return;
      const list = children.get(parent) ?? [];
      for (const k of kids) if (k !== parent) list.push(k);
      children.set(parent, list);
    };
    for (const [type, at] of Object.entries(RELATIONS))
      for (const id of lines.ids(type)) {
        const l = line(id);
        if (l) relate(ref(l[at.parent]), refs(l[at.kids]));
      }

    // property sets by element: a property set's single values, or an element quantity's lengths, areas, volumes …
    const psets = new Map<number, NodeProperties>();
    const sets = new Map<number, { name: string; values: Record<string, unknown> } | null>();
    const propertySet = (set: number) => {
      if (sets.has(set)) return sets.get(set)!;
      const def = line(set);
      const type = lines.type(set) ?? '';
      let result: { name: string; values: Record<string, unknown> } | null = null;
      if (def) {
        const values: Record<string, unknown> = {};
        for (const p of type in PROPERTY_LISTS ? refs(def[PROPERTY_LISTS[type]]) : []) {
          const prop = line(p);
          if (!prop) continue;
          const at = VALUE_AT[lines.type(p) ?? ''];
          values[String(plain(prop[0]) ?? p)] = at === undefined ? null : plain(prop[at]);
        }
        result = { name: String(plain(def[NAME]) ?? `#${set}`), values };
      }
      sets.set(set, result);
      return result;
    };
    for (const id of lines.ids('IFCRELDEFINESBYPROPERTIES')) {
      const l = line(id);
      const set = l && ref(l[DEFINITION]);
      const def = set !== null && set !== undefined ? propertySet(set) : null;
      if (!l || !def) continue;
      for (const e of refs(l[DEFINED])) (psets.get(e) ?? psets.set(e, {}).get(e)!)[def.name] = def.values;
    }

    // geometry by element: each representation item read once (its mesh in its own space, shared by the elements that
    // place it, as doors and windows of one type do), placed by its element's transformation
    const local = new Map<string, { data: Float32Array; indices: Uint32Array }>();
    const placed = new Map<number, Array<{ key: string; matrix: number[]; color: SceneMesh['color'] }>>();
    // web-ifc does not say how many elements it will stream: the elements the spatial structure holds (and the parts
    // aggregated into them) are the estimate; the reporter never lets the bar move back
    const expected = [...children.values()].reduce((n, kids) => n + kids.length, 0);
    ifc.StreamAllMeshes(model, (flat) => {
      progress(placed.size, Math.max(expected, placed.size + 1));
      const list = placed.get(flat.expressID) ?? [];
      for (let i = 0; i < flat.geometries.size(); i++) {
        const g = flat.geometries.get(i);
        const key = String(g.geometryExpressID);
        if (!local.has(key)) {
          const geo = ifc.GetGeometry(model, g.geometryExpressID);
          // web-ifc returns copies out of its heap already (a second copy with from() walked an iterator per value)
          const data = ifc.GetVertexArray(geo.GetVertexData(), geo.GetVertexDataSize());
          const indices = ifc.GetIndexArray(geo.GetIndexData(), geo.GetIndexDataSize());
          geo.delete();
          local.set(key, { data, indices });
        }
        const { data, indices } = local.get(key)!;
        if (!indices.length) continue;
        // web-ifc's vertex data: position and normal, six floats a vertex
        budget.add(indices.length / 3, data.length / 6);
        list.push({ key, matrix: [...g.flatTransformation], color: [g.color.x, g.color.y, g.color.z, g.color.w] });
      }
      placed.set(flat.expressID, list);
    });
    /** one mesh per representation item and colour, in the item's own space */
    const shared = new Map<string, SceneMesh>();
    const sharedMesh = (key: string, color: SceneMesh['color']): SceneMesh => {
      const k = `${key}|${color}`;
      let m = shared.get(k);
      if (!m) {
        const { data, indices } = local.get(key)!;
        m = { ...place(data, IDENTITY), indices, color };
        shared.set(k, m);
      }
      return m;
    };

    const seen = new Set<number>();
    const projects = lines.ids('IFCPROJECT');
    // web-ifc's names of the types (IfcWallStandardCase, as the schema spells it), asked once a type
    const typeNames = new Map<string, string>();
    const typeName = (upper: string) => typeNames.get(upper) ?? typeNames.set(upper, ifc.GetNameFromTypeCode(ifc.GetTypeCodeFromName(upper)) || upper).get(upper)!;
    const longName = (id: number): unknown => {
      try {
        return (ifc.GetLine(model, id) as { LongName?: { value?: unknown } } | null)?.LongName?.value;
      } catch {
        return undefined;
      }
    };
    // the entities being built, from the root down to the current one: meeting one again is a cycle
    const path = new Set<number>();
    const build = (id: number): SceneNode | null => {
      if (path.has(id)) throw badInput(`the spatial structure is cyclic: #${id} contains itself`);
      // reached before through another relation (an element in two containers): shown once, where first met
      if (seen.has(id)) return null;
      seen.add(id);
      path.add(id);
      try {
        return buildNode(id);
      } finally {
        path.delete(id);
      }
    };
    const buildNode = (id: number): SceneNode => {
      const l = line(id);
      const upper = lines.type(id);
      const type = upper ? typeName(upper) : ifc.GetNameFromTypeCode(ifc.GetLineType(model, id));
      // no Name: a spatial element's or project's LongName (where it sits differs by type: web-ifc knows, and is asked)
      let named = plain(l?.[NAME]);
      if ((named === null || named === undefined) && l) named = longName(id);
      const label = String(named ?? '') || `${type} #${id}`;
      const properties: NodeProperties = { type, expressID: id };
      const guid = plain(l?.[GLOBAL_ID]);
      if (guid) properties.GlobalId = guid;
      Object.assign(properties, psets.get(id));
      const kids = (children.get(id) ?? []).map(build).filter((n): n is SceneNode => n !== null);
      const geometry = placed.get(id) ?? [];
      // one item and no children: the element's node carries the placement and shares the item's mesh; otherwise
      // (several items, or parts whose own placements are absolute) the placements are applied to copies
      if (geometry.length === 1 && !kids.length) return node(label, { matrix: geometry[0].matrix, meshes: [sharedMesh(geometry[0].key, geometry[0].color)], properties });
      const meshes = geometry.map((g) => ({ ...place(local.get(g.key)!.data, g.matrix), indices: local.get(g.key)!.indices, color: g.color }));
      return node(label, { meshes, children: kids, properties });
    };
    const roots = projects.map(build).filter((n): n is SceneNode => n !== null);
    // elements with geometry the structure does not reach still show
    const loose = [...placed.keys()].filter((id) => !seen.has(id) && placed.get(id)!.length);
    if (loose.length) roots.push(node('Not in the spatial structure', { children: loose.map(build).filter((n): n is SceneNode => n !== null) }));
    if (!budget.count) throw badInput('IFC holds no geometry');
    if (roots.length === 1 && !roots[0].meshes.length) roots[0].name ||= name;
    return { roots, upAxis: 'Y' };
  } finally {
    ifc.CloseModel(model);
  }
}
