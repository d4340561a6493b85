// Many elements (a building's walls, an assembly's parts) as few draw calls: the neutral scene's meshes are merged, one
// primitive per material and attribute set (split at BATCH_VERTICES), each placed in the model's space. Every element
// keeps a glTF node of its own (name, hierarchy, properties), now without a mesh: its `extras.batches` lists the
// triangle ranges it owns in the merged primitives, which the viewer uses to pick, hide, isolate and highlight it.
// Built with typed arrays, never a gltf-transform pass per element: with 20 000 elements those passes were 90 % of a
// conversion. The element nodes are not gltf-transform nodes either (creating, parenting and copying the extras of
// 55 000 of them was a fifth of a 50 MB IFC's conversion): they are plain glTF JSON, put before the document's own
// nodes when the GLB is written (withElements), so the GLB is the one a document holding them would write.
import { Document, type Material } from '@gltf-transform/core';
import type { NodeProperties } from '../scene.ts';
import type { Scene, SceneMesh, SceneNode } from '../scene.ts';

/** a scene with more nodes holding meshes than this is batched; fewer keep one glTF mesh per node */
export const BATCH_ABOVE = 64;
/** vertices of one merged primitive at most (16-bit indices; a bounded chunk the viewer can cull or simplify) */
export const BATCH_VERTICES = 65_536;

/** `extras.batches` of an element: [batch, first triangle, triangle count] repeated; batch = child of the batches node */
export type TriangleRanges = number[];
/** `extras` of the node holding the merged meshes (the viewer and the tree leave it out) */
export const BATCHES_EXTRAS = 'batches';

/** the triangles of an element's ranges (0 for anything else) */
export function rangeTriangles(ranges: unknown): number {
  if (!Array.isArray(ranges)) return 0;
  let n = 0;
  for (let i = 2; i < ranges.length; i += 3) n += Number(ranges[i]) || 0;
  return n;
}

type Mat4 = number[];
const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
  return out;
}

/** the inverse transpose of the matrix's 3×3 (normals under non-uniform scale), row-major, and its determinant */
function normalMatrix(m: Mat4): { n: number[]; det: number } {
  const [a, b, c, d, e, f, g, h, i] = [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const k = det ? 1 / det : 0;
  // cofactor matrix / det = inverse transpose
  return { n: [(e * i - f * h) * k, -(d * i - f * g) * k, (d * h - e * g) * k, -(b * i - c * h) * k, (a * i - c * g) * k, -(a * h - b * g) * k, (b * f - c * e) * k, -(a * f - c * d) * k, (a * e - b * d) * k], det };
}

const isIdentity = (m: Mat4) => m.every((v, i) => v === IDENTITY[i]);
const triangles = (m: SceneMesh) => (m.indices ? m.indices.length : m.positions.length / 3) / 3 | 0;

interface Placed {
  mesh: SceneMesh;
  matrix: Mat4;
  element: number;
}
interface Batch {
  key: string;
  color: [number, number, number, number];
  normals: boolean;
  colors: boolean;
  parts: Placed[];
  vertices: number;
  triangles: number;
}

/** the number of scene nodes holding at least one mesh */
export function meshNodeCount(scene: Scene): number {
  let n = 0;
  const walk = (s: SceneNode) => {
    if (s.meshes.some((m) => m.positions.length >= 9)) n++;
    s.children.forEach(walk);
  };
  scene.roots.forEach(walk);
  return n;
}

/** the merged positions (and normals, colours) and indices of a batch, each part placed by its matrix */
function merge(b: Batch) {
  const positions = new Float32Array(b.vertices * 3);
  const normals = b.normals ? new Float32Array(b.vertices * 3) : undefined;
  const colors = b.colors ? new Float32Array(b.vertices * 3) : undefined;
  const indices = b.vertices > 65_535 ? new Uint32Array(b.triangles * 3) : new Uint16Array(b.triangles * 3);
  let v = 0;
  let t = 0;
  for (const { mesh, matrix: m } of b.parts) {
    const count = mesh.positions.length / 3;
    const p = mesh.positions;
    if (isIdentity(m)) positions.set(p, v * 3);
    else
      for (let i = 0; i < count; i++) {
        const x = p[i * 3], y = p[i * 3 + 1], z = p[i * 3 + 2];
        const o = (v + i) * 3;
        positions[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
        positions[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
        positions[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      }
    const { n, det } = normalMatrix(m);
    if (normals && mesh.normals) {
      const q = mesh.normals;
      if (isIdentity(m)) normals.set(q, v * 3);
      else
        for (let i = 0; i < count; i++) {
          const x = q[i * 3], y = q[i * 3 + 1], z = q[i * 3 + 2];
          const a = n[0] * x + n[1] * y + n[2] * z;
          const bb = n[3] * x + n[4] * y + n[5] * z;
          const c = n[6] * x + n[7] * y + n[8] * z;
          const l = Math.hypot(a, bb, c) || 1;
          const o = (v + i) * 3;
          normals[o] = a / l;
          normals[o + 1] = bb / l;
          normals[o + 2] = c / l;
        }
    }
    if (colors && mesh.colors) colors.set(mesh.colors, v * 3);
    // a mirroring placement turns the triangles inside out: their winding is flipped back
    const flip = det < 0;
    const tris = triangles(mesh);
    const idx = mesh.indices;
    for (let k = 0; k < tris; k++) {
      const a = idx ? idx[k * 3] : k * 3;
      const bb = idx ? idx[k * 3 + 1] : k * 3 + 1;
      const c = idx ? idx[k * 3 + 2] : k * 3 + 2;
      const o = (t + k) * 3;
      indices[o] = v + a;
      indices[o + 1] = v + (flip ? c : bb);
      indices[o + 2] = v + (flip ? bb : c);
    }
    v += count;
    t += tris;
  }
  return { positions, normals, colors, indices };
}

/** one scene node as a glTF node of the batched model (children: indices among the element nodes) */
export interface ElementNode {
  name: string;
  properties?: NodeProperties;
  /** its triangle ranges in the merged primitives (TriangleRanges) */
  batches: TriangleRanges;
  children: number[];
}
/** the element nodes, in the GLB's order (each before its children: the indices the model tree gives), and the roots */
export interface BatchedElements {
  nodes: ElementNode[];
  roots: number[];
}

/** an element node as glTF JSON, keys in the order gltf-transform writes them; ranges left out for the coarse level */
function elementDef(e: ElementNode, ranges: boolean): Record<string, unknown> {
  const def: Record<string, unknown> = {};
  if (e.name) def.name = e.name;
  const extras: Record<string, unknown> = {};
  if (e.properties && Object.keys(e.properties).length) extras.properties = e.properties;
  if (ranges && e.batches.length) extras.batches = e.batches;
  if (Object.keys(extras).length) def.extras = extras;
  if (e.children.length) def.children = e.children;
  return def;
}

interface GltfJson {
  nodes?: Array<{ children?: number[] }>;
  scenes?: Array<{ nodes?: number[] }>;
  scene?: number;
}

/**
 * The glTF JSON of a batched document (gltf-transform's writeJSON) with the element nodes put first: the document's
 * own nodes (the holder of the merged meshes, its batches) move up by their count; the default scene lists the
 * element roots, then its own nodes. `ranges`: false for the coarse level of detail (lod.ts says why).
 */
export function withElements(json: GltfJson, elements: BatchedElements, ranges = true): void {
  const n = elements.nodes.length;
  const own = json.nodes ?? [];
  for (const node of own) if (node.children) node.children = node.children.map((c) => c + n);
  const scene = json.scenes?.[json.scene ?? 0];
  if (scene) scene.nodes = [...elements.roots, ...(scene.nodes ?? []).map((c) => c + n)];
  json.nodes = [...elements.nodes.map((e) => elementDef(e, ranges)), ...own];
}

/**
 * The neutral scene as merged primitives: a glTF document holding them (under one root node marked
 * `extras.batches = true`, in the model's space), and one element node per scene node (name, properties, and the
 * triangle ranges of its own meshes in `extras.batches`) written with it (withElements).
 */
export function sceneToBatches(scene: Scene): { doc: Document; elements: BatchedElements } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const gltfScene = doc.createScene('model').setExtras({ upAxis: scene.upAxis });
  doc.getRoot().setDefaultScene(gltfScene);

  const batches: Batch[] = [];
  const open = new Map<string, Batch>();
  const ranges: TriangleRanges[] = [];
  const add = (mesh: SceneMesh, matrix: Mat4, element: number) => {
    const count = mesh.positions.length / 3;
    const tris = triangles(mesh);
    if (!tris) return;
    // unindexed meshes (three's loaders) use only whole triangles of their positions
    const m = mesh.indices || count % 3 === 0 ? mesh : { ...mesh, positions: mesh.positions.subarray(0, tris * 9), normals: mesh.normals?.subarray(0, tris * 9), colors: mesh.colors?.subarray(0, tris * 9) };
    const vertices = m.positions.length / 3;
    const color: Batch['color'] = m.color ? [m.color[0], m.color[1], m.color[2], m.color[3] ?? 1] : [0.8, 0.8, 0.8, 1];
    const normals = m.normals?.length === m.positions.length;
    const colors = m.colors?.length === m.positions.length;
    const key = `${color.map((c) => c.toFixed(4)).join(',')}|${normals}|${colors}`;
    let b = open.get(key);
    if (!b || (b.vertices && b.vertices + vertices > BATCH_VERTICES)) {
      b = { key, color, normals, colors, parts: [], vertices: 0, triangles: 0 };
      batches.push(b);
      open.set(key, b);
    }
    const r = ranges[element];
    const index = batches.indexOf(b);
    // consecutive meshes of one element in one batch make one range
    if (r.length && r[r.length - 3] === index && r[r.length - 2] + r[r.length - 1] === b.triangles) r[r.length - 1] += tris;
    else r.push(index, b.triangles, tris);
    b.parts.push({ mesh: { ...m, normals: normals ? m.normals : undefined, colors: colors ? m.colors : undefined }, matrix, element });
    b.vertices += vertices;
    b.triangles += tris;
  };

  const nodes: ElementNode[] = [];
  const build = (n: SceneNode, parent: Mat4): number => {
    const world = n.matrix ? multiply(parent, n.matrix) : parent;
    const r: TriangleRanges = [];
    const element = nodes.push({ name: n.name, ...(n.properties ? { properties: n.properties } : {}), batches: r, children: [] }) - 1;
    ranges.push(r);
    for (const m of n.meshes) if (m.positions.length >= 9) add(m, world, element);
    for (const c of n.children) nodes[element].children.push(build(c, world));
    return element;
  };
  const roots = scene.roots.map((r) => build(r, IDENTITY));

  const materials = new Map<string, Material>();
  const material = (rgba: Batch['color'], vertexColors: boolean): Material => {
    const key = `${rgba.map((c) => c.toFixed(4)).join(',')}${vertexColors ? '|vc' : ''}`;
    let m = materials.get(key);
    if (!m) {
      m = doc.createMaterial(`color ${key}`).setBaseColorFactor(rgba).setMetallicFactor(0).setRoughnessFactor(0.8).setDoubleSided(true);
      if (rgba[3] < 1) m.setAlphaMode('BLEND');
      materials.set(key, m);
    }
    return m;
  };
  const holder = doc.createNode('').setExtras({ [BATCHES_EXTRAS]: true });
  batches.forEach((b, i) => {
    const { positions, normals, colors, indices } = merge(b);
    const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array | Uint32Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const p = doc.createPrimitive().setAttribute('POSITION', accessor('VEC3', positions)).setIndices(accessor('SCALAR', indices)).setMaterial(material(b.color, b.colors));
    if (normals) p.setAttribute('NORMAL', accessor('VEC3', normals));
    if (colors) p.setAttribute('COLOR_0', accessor('VEC3', colors));
    holder.addChild(doc.createNode(`batch ${i}`).setMesh(doc.createMesh(`batch ${i}`).addPrimitive(p)));
    b.parts.length = 0; // the sources can go before the GLB is written
  });
  gltfScene.addChild(holder);
  return { doc, elements: { nodes, roots } };
}
