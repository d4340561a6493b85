import { ACIS_TYPES, acisModelOf, AcisTessellationLimit, tessellateAcis } from '@cadcloud/cad/acis';
import { aciToRgb, FOREGROUND, trueColorRgb } from '@cadcloud/cad/aci';
import { readDrawing } from '@cadcloud/cad/read';
import type { Block, Drawing, Entity, Pair } from '@cadcloud/cad';
import { badInput, tooLarge } from '../errors.ts';
import { node, type Scene, type SceneMesh, type SceneNode, type TriangleBudget } from '../scene.ts';

/**
 * The 3D content of a DWG or DXF: ACIS solids (3DSOLID, BODY, REGION and the AutoCAD surfaces) tessellated by the
 * drawing engine (packages/cad/src/acis/tessellate.ts), 3DFACE, polyface and polygon meshes (POLYLINE) and MESH, from
 * model space and the blocks its INSERTs place. One node per entity, named by its type and handle, with its layer
 * and colour as properties; an INSERT is a node with the block's placement as its matrix and the block's entities as
 * children (a block placed twice is meshed once). 2D content (lines, text, hatches) is left out: the 2D viewer shows it.
 */

/** nesting deeper than this is a cycle or a hostile file (AutoCAD's own limit is far lower in practice) */
const MAX_DEPTH = 16;
/** nodes written at most: a block nested in blocks, each placed many times, multiplies (a million nodes is a refusal) */
const MAX_NODES = 200_000;

type Mat = number[]; // column-major 4 × 4

const IDENTITY: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function mul(a: Mat, b: Mat): Mat {
  const r = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let row = 0; row < 4; row++) for (let k = 0; k < 4; k++) r[c * 4 + row] += a[k * 4 + row] * b[c * 4 + k];
  return r;
}

const num = (e: Entity, code: number, fallback = 0): number => {
  const p = e.pairs.find((q) => q[0] === code);
  const v = p ? Number(p[1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
};

/** AutoCAD's arbitrary axis algorithm: the object coordinate system of an extrusion direction, as a matrix. */
function ocs(n: number[]): Mat {
  const len = Math.hypot(n[0], n[1], n[2]);
  if (!(len > 0) || (n[0] === 0 && n[1] === 0 && n[2] > 0)) return IDENTITY;
  const z = n.map((x) => x / len);
  const ax = Math.abs(z[0]) < 1 / 64 && Math.abs(z[1]) < 1 / 64 ? cross([0, 1, 0], z) : cross([0, 0, 1], z);
  const x = unit(ax);
  const y = unit(cross(z, x));
  return [...x, 0, ...y, 0, ...z, 0, 0, 0, 0, 1];
}
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: number[]) => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return a.map((v) => v / l);
};

/** An INSERT's placement of its block: OCS · move to the insertion point · rotate · scale · move the base point to 0. */
function insertMatrix(e: Entity, block: Block): Mat {
  const [sx, sy, sz] = [num(e, 41, 1), num(e, 42, 1), num(e, 43, 1)];
  const rot = (num(e, 50) * Math.PI) / 180;
  const [c, s] = [Math.cos(rot), Math.sin(rot)];
  const at = [num(e, 10), num(e, 20), num(e, 30)];
  const base = [block.base.x, block.base.y, block.base.z];
  const place: Mat = [c * sx, s * sx, 0, 0, -s * sy, c * sy, 0, 0, 0, 0, sz, 0, at[0], at[1], at[2], 1];
  const unbase: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -base[0], -base[1], -base[2], 1];
  return mul(ocs([num(e, 210), num(e, 220), num(e, 230, 1)]), mul(place, unbase));
}

/** sRGB 0–255 to glTF's linear 0–1 */
const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

interface Context {
  drawing: Drawing;
  budget: TriangleBudget;
  maxTriangles: number;
  blocks: Map<string, Block>;
  layers: Map<string, Drawing['layers'][number]>;
  /** a block's nodes, made once and placed by every INSERT of it */
  blockNodes: Map<string, SceneNode[]>;
  nodes: number;
  counts: Record<string, number>;
}

/** The entity's colour as 0xRRGGBB: its own, its layer's (ByLayer) or its block insert's (ByBlock). */
function colorOf(e: Entity, ctx: Context, byBlock: number | null): number | null {
  if (e.trueColor !== undefined) return trueColorRgb(e.trueColor);
  if (e.color === 0) return byBlock;
  if (e.color === 256 || e.color === undefined) {
    const layer = ctx.layers.get(e.layer);
    if (!layer) return null;
    return layer.trueColor !== undefined ? trueColorRgb(layer.trueColor) : aciToRgb(Math.abs(layer.color) || 7);
  }
  return aciToRgb(Math.abs(e.color));
}

function meshColor(rgb: number | null): SceneMesh['color'] {
  // the foreground ink (ACI 7) is black or white by the background in 2D; a neutral grey shades well in 3D
  if (rgb === null || rgb === FOREGROUND) return undefined;
  return [linear((rgb >> 16) & 255), linear((rgb >> 8) & 255), linear(rgb & 255)];
}

const point = (e: Entity | Pair[], k: number): [number, number, number] => {
  const pairs = Array.isArray(e) ? e : e.pairs;
  const get = (code: number) => Number(pairs.find((p) => p[0] === code)?.[1] ?? 0);
  return [get(10 + k), get(20 + k), get(30 + k)];
};

/** The triangles of a 3DFACE (a quad when its fourth corner differs from the third). */
function face3d(e: Entity): { positions: number[]; indices: number[] } {
  const p = [0, 1, 2, 3].map((k) => point(e, k));
  const same = (a: number[], b: number[]) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
  return { positions: p.flat(), indices: same(p[2], p[3]) ? [0, 1, 2] : [0, 1, 2, 0, 2, 3] };
}

/** A POLYLINE's polyface mesh (flag 64: vertices, then faces of up to four 1-based indices) or polygon mesh (flag 16: an M × N grid). */
function polylineMesh(e: Entity): { positions: number[]; indices: number[] } | null {
  const flags = num(e, 70);
  const vertices = (e.children ?? []).filter((c) => c.type === 'VERTEX');
  const positions: number[] = [];
  const indices: number[] = [];
  if (flags & 64) {
    const flagOf = (v: Entity) => num(v, 70);
    const pts = vertices.filter((v) => flagOf(v) & 64);
    for (const v of pts) positions.push(...point(v, 0));
    for (const f of vertices.filter((v) => (flagOf(v) & 128) && !(flagOf(v) & 64))) {
      // negative indices mark invisible edges; the face is the same
      const idx = [71, 72, 73, 74].map((c) => Math.abs(num(f, c))).filter((i) => i >= 1 && i <= pts.length).map((i) => i - 1);
      for (let k = 1; k + 1 < idx.length; k++) indices.push(idx[0], idx[k], idx[k + 1]);
    }
    return indices.length ? { positions, indices } : null;
  }
  if (flags & 16) {
    const [m, n] = [num(e, 71), num(e, 72)];
    if (!(m >= 2 && n >= 2) || m * n > vertices.length) return null;
    for (const v of vertices.slice(0, m * n)) positions.push(...point(v, 0));
    const [closedM, closedN] = [(flags & 1) !== 0, (flags & 32) !== 0];
    for (let i = 0; i < (closedM ? m : m - 1); i++)
      for (let j = 0; j < (closedN ? n : n - 1); j++) {
        const [a, b, c, d] = [i * n + j, i * n + ((j + 1) % n), ((i + 1) % m) * n + ((j + 1) % n), ((i + 1) % m) * n + j];
        indices.push(a, b, c, a, c, d);
      }
    return { positions, indices };
  }
  return null;
}

/** A MESH (AcDbSubDMesh) at level 0: its vertices (92, then 10/20/30) and faces (93, then 90: a count and its indices). */
function subdMesh(e: Entity): { positions: number[]; indices: number[] } | null {
  const pairs = e.pairs;
  const at92 = pairs.findIndex((p) => p[0] === 92);
  if (at92 < 0) return null;
  const nv = Number(pairs[at92][1]);
  const positions: number[] = [];
  let i = at92 + 1;
  for (; i < pairs.length && positions.length < nv * 3; i++) if (pairs[i][0] === 10 || pairs[i][0] === 20 || pairs[i][0] === 30) positions.push(Number(pairs[i][1]));
  const at93 = pairs.findIndex((p, k) => k >= i && p[0] === 93);
  if (at93 < 0) return null;
  const list: number[] = [];
  const size = Number(pairs[at93][1]);
  for (let k = at93 + 1; k < pairs.length && list.length < size && pairs[k][0] === 90; k++) list.push(Number(pairs[k][1]));
  const indices: number[] = [];
  for (let k = 0; k < list.length; ) {
    const n = list[k];
    const f = list.slice(k + 1, k + 1 + n);
    if (f.length === n && f.every((x) => x >= 0 && x < nv)) for (let j = 1; j + 1 < n; j++) indices.push(f[0], f[j], f[j + 1]);
    k += n + 1;
    if (!(n > 0)) break;
  }
  return indices.length ? { positions, indices } : null;
}

/** the scene node of one entity, or null when it holds no 3D content */
function entityNode(e: Entity, ctx: Context, byBlock: number | null, depth: number): SceneNode | null {
  const name = `${e.type}${e.handle ? ` ${e.handle}` : ''}`;
  const rgb = colorOf(e, ctx, byBlock);
  const properties = { type: e.type, ...(e.handle ? { handle: e.handle } : {}), layer: e.layer, color: rgb === null ? 'ByLayer' : `#${rgb.toString(16).padStart(6, '0')}` };
  const color = meshColor(rgb);
  const meshOf = (m: { positions: ArrayLike<number>; indices: ArrayLike<number> }, mode?: 'lines'): SceneMesh => {
    const mesh: SceneMesh = { name, positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices), ...(color ? { color } : {}), ...(mode ? { mode } : {}) };
    return ctx.budget.mesh(mesh);
  };
  if (ACIS_TYPES.has(e.type)) {
    const model = acisModelOf(e, ctx.drawing);
    if (!model) return null;
    let t;
    try {
      t = tessellateAcis(model, { maxTriangles: Math.max(0, ctx.maxTriangles - ctx.budget.count) });
    } catch (err) {
      if (err instanceof AcisTessellationLimit) throw tooLarge(`${name}: more than ${ctx.maxTriangles} triangles`);
      throw err;
    }
    const meshes: SceneMesh[] = [];
    if (t.indices.length) meshes.push(meshOf(t));
    if (t.lines.length) {
      // the faces not meshed, as their edges: one line mesh of segments
      const positions: number[] = [], indices: number[] = [];
      for (const l of t.lines) {
        const first = positions.length / 3;
        positions.push(...l);
        for (let k = 0; k + 1 < l.length / 3; k++) indices.push(first + k, first + k + 1);
      }
      meshes.push(meshOf({ positions, indices }, 'lines'));
    }
    if (!meshes.length) return null;
    ctx.counts[e.type] = (ctx.counts[e.type] ?? 0) + 1;
    return node(name, { meshes, properties: { ...properties, facesMeshed: t.faces.meshed, facesAsEdges: t.faces.asEdges } });
  }
  let m: { positions: number[]; indices: number[] } | null = null;
  if (e.type === '3DFACE') m = face3d(e);
  else if (e.type === 'POLYLINE') m = polylineMesh(e);
  else if (e.type === 'MESH') m = subdMesh(e);
  else if (e.type === 'INSERT') return insertNode(e, ctx, rgb, depth);
  if (!m) return null;
  ctx.counts[e.type] = (ctx.counts[e.type] ?? 0) + 1;
  return node(name, { meshes: [meshOf(m)], properties });
}

function insertNode(e: Entity, ctx: Context, rgb: number | null, depth: number): SceneNode | null {
  const blockName = String(e.pairs.find((p) => p[0] === 2)?.[1] ?? '');
  const block = ctx.blocks.get(blockName.toUpperCase());
  if (!block || depth >= MAX_DEPTH) return null;
  // entities of ByBlock colour take the insert's; a block is meshed once per colour it is shown in
  const key = `${block.name}\u0000${rgb ?? ''}`;
  let children = ctx.blockNodes.get(key);
  if (!children) {
    ctx.blockNodes.set(key, []);
    children = block.entities.map((c) => entityNode(c, ctx, rgb, depth + 1)).filter((n): n is SceneNode => n !== null);
    ctx.blockNodes.set(key, children);
  }
  if (!children.length) return null;
  const name = `INSERT${e.handle ? ` ${e.handle}` : ''} ${block.name}`;
  // the block's nodes are shared: each placement gets its own copies of the node objects, the meshes are reused
  const copy = (n: SceneNode): SceneNode => {
    if (++ctx.nodes > MAX_NODES) throw tooLarge(`more than ${MAX_NODES} nodes of placed blocks`);
    return { ...n, children: n.children.map(copy) };
  };
  return node(name, { matrix: insertMatrix(e, block), children: children.map(copy), properties: { type: 'INSERT', ...(e.handle ? { handle: e.handle } : {}), block: block.name, layer: e.layer } });
}

/** The 3D content of a DWG or DXF as a scene; a drawing without any is refused with a clear message. */
export async function importDrawing(input: Uint8Array, fileName: string, base: string, budget: TriangleBudget, maxTriangles: number): Promise<Scene> {
  let drawing: Drawing;
  try {
    drawing = await readDrawing(input, fileName);
  } catch (e) {
    throw badInput(`${fileName}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const ctx: Context = {
    drawing, budget, maxTriangles,
    blocks: new Map(drawing.blocks.map((b) => [b.name.toUpperCase(), b])),
    layers: new Map(drawing.layers.map((l) => [l.name, l])),
    blockNodes: new Map(), nodes: 0, counts: {},
  };
  const children = drawing.entities.filter((e) => !e.paperSpace).map((e) => entityNode(e, ctx, null, 0)).filter((n): n is SceneNode => n !== null);
  if (!children.length) throw badInput(`${fileName} holds no 3D solids or meshes in model space`);
  return { roots: [node(base, { children, properties: { format: drawing.format.toUpperCase(), version: drawing.header.version, entities: ctx.counts } })], upAxis: 'Z' };
}
