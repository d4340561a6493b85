import type { Block, Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import type { FieldIndex } from '../dxf/pair-store.ts';
import { affine, multiply, type Affine, type Flattened, type Inherited, type Polyline2 } from './flatten.ts';
import type { Curve2 } from './curve.ts';

/**
 * Block geometry drawn by instances (`FlattenOptions.blockInstances`): a top-level INSERT (each MINSERT cell) whose
 * transform is a rotation / mirror / scale of its block becomes one placement of a mesh, the block's geometry
 * flattened once per *variant* (block + what the INSERT passes down: ByBlock colour, lineweight and linetype, the
 * layer its layer-0 children stand on) in the block's frame. Nested blocks stay baked in the mesh; texts (and
 * attributes) stay world-space `TextRun`s as before. The scene compiler decides per mesh whether instancing pays and
 * bakes the others back in place (`eachPolyline`), so a flattening with instances draws exactly what one without does.
 *
 * Exactness: a mesh is flattened at the INSERT's |x|, |y| scale (tessellation, dash lengths and tolerances depend on
 * it), so the instance's own transform is a rotation/mirror + offset and the mesh equals the baked geometry up to
 * rounding. A mesh flattened at scale 1 is shared with other scales only where flattening at that scale gave the same
 * geometry scaled (straight lines, no scale-dependent dashes or arcs): then the instance carries the scale as well.
 * The flattener's budgets (dashes, hatch segments, expanded entities) are charged per instance as if baked; when they
 * would have run out, the drawing is flattened again without instances.
 */

export interface BlockMesh {
  /** the block's name */
  block: string;
  /** geometry in the mesh frame (drawing = instance affine × mesh point); `entity` is meaningless here */
  polylines: Polyline2[];
}

export interface BlockInstance {
  /** index into `FlatBlocks.meshes` */
  mesh: number;
  /** mesh frame → drawing */
  affine: Affine;
  /** the top-level INSERT, index into `Flattened.entities` */
  entity: number;
  /** the INSERT's layer */
  layer: string;
  /** drawn where `Flattened.polylines[at]` is (stream order): baking it back puts it just before that polyline */
  at: number;
}

export interface FlatBlocks {
  meshes: BlockMesh[];
  instances: BlockInstance[];
}

/** What the instancer needs of one `flattenEntities` run. */
export interface InstancerHost {
  out: Flattened;
  /** the block's children drawn through `m` (depth 1, selected as entity `ref`) */
  emitChildren(block: Block, m: Affine, inherit: Inherited, ref: number): void;
  /** the flattener's budgets, read and charged */
  budget: { dash: number; hatch: number; emitted: number; primitives: number };
  /** output vertices and curves the flattening may make (content-budget.ts) */
  maxPrimitives: number;
  /** while on, the flattener emits only entities of `TEXT_SOURCES` (the texts of an instance are drawn where they land) */
  textPass(on: boolean): void;
  maxEntities: number;
  /** the flattener's field index (entities' pairs read without building their arrays) */
  fields: FieldIndex;
}

interface Cost {
  dash: number;
  hatch: number;
  emitted: number;
  primitives: number;
}

/** One flattening of a block variant at one scale. */
interface Build {
  polylines: Polyline2[];
  /**
   * exact curves of the children (with `FlattenOptions.curves`), in the mesh frame: not part of the mesh but placed
   * per instance as curve records (a few bytes each, and they stay exact at every zoom)
   */
  curves: Curve2[];
  texts: number;
  skipped: Record<string, number>;
  cost: Cost;
  /** something the mesh frame cannot hold (an image frame) */
  unsafe: boolean;
  /** mesh index once an instance uses it */
  mesh: number;
  /** decided once: this scale draws the unit-scale mesh scaled */
  sharesUnit?: boolean;
}

/** Entity types that may draw text, themselves or through their blocks: all a text pass visits. */
export const TEXT_SOURCES = new Set(['TEXT', 'MTEXT', 'ATTDEF', 'ATTRIB', 'INSERT', 'DIMENSION', 'ARC_DIMENSION', 'LARGE_RADIAL_DIMENSION', 'ACAD_TABLE', 'LEADER', 'MULTILEADER', 'MLEADER']);

/** Entity types that depend on where the block lands (XLINE/RAY are clipped to the drawing's extents). */
const WORLD_TYPES = new Set(['XLINE', 'RAY']);

/** An INSERT with an extension dictionary may be clipped (SPATIAL_FILTER): such INSERTs keep the baked path. */
function mayBeClipped(e: Entity, fields: FieldIndex): boolean {
  const f = fields.use(e);
  for (let k = 0; k < f.count; k++) if (f.codeAt(k) === 102 && f.valueAt(k) === '{ACAD_XDICTIONARY') return true;
  return false;
}

const ORTHO_EPS = 1e-9;

export function blockInstancer(host: InstancerHost, blocks: Map<string, Block>, entities: readonly Entity[]) {
  const { out, budget } = host;
  // how often each block is placed at the top level (MINSERT cells counted): a block placed once (anonymous blocks
  // of dynamic blocks, hatches, tables …) is baked as before, at no cost
  const placements = new Map<string, number>();
  for (const e of entities) {
    if (e.type !== 'INSERT') continue;
    const name = String(pairValue(e, 2) ?? '');
    const cells = Math.max(1, Number(pairValue(e, 70) ?? 1) || 1) * Math.max(1, Number(pairValue(e, 71) ?? 1) || 1);
    placements.set(name, (placements.get(name) ?? 0) + cells);
  }
  const meshes: BlockMesh[] = [];
  const instances: BlockInstance[] = [];
  const builds = new Map<string, Build>();
  /** blocks (nested ones included) holding entities whose geometry depends on the world position */
  const worldBound = new Map<string, boolean>();

  function isWorldBound(name: string, depth = 0): boolean {
    let v = worldBound.get(name);
    if (v !== undefined) return v;
    worldBound.set(name, true); // a cycle counts as bound (never instanced)
    const b = blocks.get(name);
    v = !b || depth > 16 || b.entities.some((c) => WORLD_TYPES.has(c.type) || ((c.type === 'INSERT' || c.type === 'DIMENSION' || c.type === 'ACAD_TABLE') && pairValue(c, 2) !== undefined && isWorldBound(String(pairValue(c, 2)), depth + 1)));
    worldBound.set(name, v);
    return v;
  }

  function snapshot(): Cost {
    return { dash: budget.dash, hatch: budget.hatch, emitted: budget.emitted, primitives: budget.primitives };
  }

  /** The variant flattened at (ax, ay) scale in its own frame; nothing of it reaches `out`, budgets are restored. */
  function build(block: Block, ax: number, ay: number, inherit: Inherited, ref: number): Build {
    const saved = { polylines: out.polylines, texts: out.texts, skipped: out.skipped, images: out.images, curves: out.curves };
    const before = snapshot();
    const b: Build = { polylines: [], curves: [], texts: 0, skipped: {}, cost: { dash: 0, hatch: 0, emitted: 0, primitives: 0 }, unsafe: false, mesh: -1 };
    out.polylines = b.polylines;
    out.curves = b.curves;
    out.texts = [];
    out.skipped = b.skipped;
    out.images = undefined;
    try {
      host.emitChildren(block, affine(ax, 0, 0, ay, -block.base.x * ax, -block.base.y * ay), inherit, ref);
      b.texts = out.texts.length;
      // an image frame is placed in drawing coordinates of its own: such a block is never a mesh
      b.unsafe = ((out as Flattened).images?.length ?? 0) > 0;
    } finally {
      out.polylines = saved.polylines;
      out.texts = saved.texts;
      out.skipped = saved.skipped;
      out.images = saved.images;
      out.curves = saved.curves;
    }
    b.cost = { dash: before.dash - budget.dash, hatch: before.hatch - budget.hatch, emitted: budget.emitted - before.emitted, primitives: budget.primitives - before.primitives };
    budget.dash = before.dash;
    budget.hatch = before.hatch;
    budget.emitted = before.emitted;
    budget.primitives = before.primitives;
    return b;
  }

  /** `scaled` is `unit` flattened at (ax, ay): same pieces, every point the unit point scaled (up to rounding). */
  function sameScaled(scaled: Build, unit: Build, ax: number, ay: number): boolean {
    // exact curves scale exactly: only their number must agree (dashed or tiny ones may be segments at one scale)
    if (scaled.polylines.length !== unit.polylines.length || scaled.curves.length !== unit.curves.length || scaled.texts !== unit.texts || scaled.unsafe || unit.unsafe) return false;
    let mag = 0;
    for (const p of scaled.polylines) for (let i = 0; i < p.points.length; i++) mag = Math.max(mag, Math.abs(p.points[i]));
    const eps = 1e-9 * (mag || 1);
    for (let i = 0; i < scaled.polylines.length; i++) {
      const s = scaled.polylines[i], u = unit.polylines[i];
      if (s.closed !== u.closed || !!s.filled !== !!u.filled || s.color !== u.color || s.layer !== u.layer || s.lineweight !== u.lineweight) return false;
      if ((s.holes?.length ?? 0) !== (u.holes?.length ?? 0) || !sameScaledPoints(s.points, u.points, ax, ay, eps)) return false;
      for (let h = 0; h < (s.holes?.length ?? 0); h++) if (!sameScaledPoints(s.holes![h], u.holes![h], ax, ay, eps)) return false;
    }
    const ks = Object.keys(scaled.skipped), ku = Object.keys(unit.skipped);
    return ks.length === ku.length && ks.every((k) => scaled.skipped[k] === unit.skipped[k]);
  }

  function consistent(): boolean {
    return budget.dash >= 0 && budget.hatch >= 0 && budget.emitted <= host.maxEntities && budget.primitives <= host.maxPrimitives;
  }

  function meshOf(b: Build, block: string): number {
    if (b.mesh < 0) {
      for (const p of b.polylines) budget.primitives += p.points.length >> 1;
      b.mesh = meshes.length;
      meshes.push({ block, polylines: b.polylines });
    }
    return b.mesh;
  }

  return {
    /**
     * A top-level INSERT's cells (each the full transform of the block's children) as instances: true when
     * something was drawn, false when nothing was (an empty block), null when it must be baked instead.
     */
    insert(e: Entity, block: Block, cells: Affine[], sx: number, sy: number, inherit: Inherited, ref: number): boolean | null {
      if (!cells.length || !Number.isFinite(sx) || !Number.isFinite(sy) || !sx || !sy) return null;
      if ((placements.get(block.name) ?? 0) < 2) return null;
      if (mayBeClipped(e, host.fields) || isWorldBound(block.name)) return null;
      // the linear part over the INSERT's scale must be a rotation or mirror (an extrusion out of the plane is not)
      const m = cells[0];
      const q0 = m[0] / sx, q1 = m[1] / sx, q2 = m[2] / sy, q3 = m[3] / sy;
      if (Math.abs(q0 * q0 + q1 * q1 - 1) > ORTHO_EPS || Math.abs(q2 * q2 + q3 * q3 - 1) > ORTHO_EPS || Math.abs(q0 * q2 + q1 * q3) > ORTHO_EPS) return null;
      const ax = Math.abs(sx), ay = Math.abs(sy);
      const variant = `${block.name}\u0000${inherit.color}\u0000${inherit.lw}\u0000${inherit.lt}\u0000${inherit.layer}`;
      const key = `${variant}\u0000${ax}\u0000${ay}`;
      let exact = builds.get(key);
      if (!exact) builds.set(key, (exact = build(block, ax, ay, inherit, ref)));
      if (exact.unsafe) return null;
      // the mesh drawn: the unit-scale one when it is this one scaled, else this scale's own
      let used = exact, mx = ax, my = ay;
      if (ax !== 1 || ay !== 1) {
        const unitKey = `${variant}\u00001\u00001`;
        let unit = builds.get(unitKey);
        if (!unit) builds.set(unitKey, (unit = build(block, 1, 1, inherit, ref)));
        if (exact.sharesUnit === undefined) {
          exact.sharesUnit = sameScaled(exact, unit, ax, ay);
          // the unit build keeps the points: this scale's copy is not needed again
          if (exact.sharesUnit) exact.polylines = [];
        }
        if (exact.sharesUnit) {
          used = unit;
          mx = my = 1;
        }
      }
      if (!used.polylines.length) {
        // nothing to place (texts only, or an empty block): drawn as baked, which costs nothing here
        return null;
      }
      const mesh = meshOf(used, block.name);
      // mesh frame → block frame: undo the mesh's scale and base point
      const toBlock: Affine = [1 / mx, 0, 0, 1 / my, block.base.x, block.base.y];
      for (const cell of cells) {
        // a budget run out: the drawing is flattened again without instances (`consistent`), where the bounds cut
        // it; placing the rest first would be unbounded work (10 000 cells × a mesh's 10 000 curves)
        if (!consistent()) break;
        const affine = multiply(cell, toBlock);
        instances.push({ mesh, affine, entity: ref, layer: inherit.layer, at: out.polylines.length });
        const curves = (out.curves ??= []);
        for (let k = 0; k < used.curves.length; k++) {
          const c = used.curves[k];
          const placed = placeCurve(c, affine, ref);
          // drawn where the INSERT is (the mesh's own stream positions mean nothing here)
          if (c.at !== undefined) placed.at = out.polylines.length;
          curves.push(placed);
        }
        if (exact.texts) {
          // its texts are drawn where they land, as baked: a pass over the entities that may hold text, whose
          // other output (annotation lines, counts, budgets) the mesh already has
          const keep = { polylines: out.polylines, skipped: out.skipped, images: out.images, curves: out.curves };
          const before = snapshot();
          const firstText = out.texts.length;
          out.polylines = [];
          out.skipped = {};
          out.curves = [];
          host.textPass(true);
          try {
            host.emitChildren(block, cell, inherit, ref);
          } finally {
            host.textPass(false);
            Object.assign(out, keep);
            // its texts are real output: their characters stay charged
            const spent = budget.primitives;
            Object.assign(budget, before);
            budget.primitives = spent;
          }
          // the pass wrote into an empty polyline list: its texts are drawn where the INSERT is
          for (let t = firstText; t < out.texts.length; t++) if (out.texts[t].at !== undefined) out.texts[t].at = out.polylines.length;
        }
        // what baking this cell would have cost and counted
        budget.dash -= exact.cost.dash;
        budget.hatch -= exact.cost.hatch;
        budget.emitted += exact.cost.emitted;
        // its output: one instance and its curves (the mesh's vertices are charged once, in meshOf)
        budget.primitives += 1 + used.curves.length;
        for (const k in exact.skipped) out.skipped[k] = (out.skipped[k] ?? 0) + exact.skipped[k];
      }
      return true;
    },

    /** False when charging instances ran a budget out: flatten again without instances. */
    consistent,

    result(): FlatBlocks | undefined {
      return instances.length ? { meshes, instances } : undefined;
    },
  };
}

/** Every point of `s` is the point of `u` scaled by (ax, ay), within eps. */
function sameScaledPoints(s: number[], u: number[], ax: number, ay: number, eps: number): boolean {
  if (s.length !== u.length) return false;
  for (let i = 0; i < s.length; i += 2) if (Math.abs(s[i] - u[i] * ax) > eps || Math.abs(s[i + 1] - u[i + 1] * ay) > eps) return false;
  return true;
}

/** A mesh's curve placed by an instance (transformCurve written out for Curve2: one literal, no spread), selected as the INSERT. */
function placeCurve(c: Curve2, m: Affine, entity: number): Curve2 {
  return {
    cx: m[0] * c.cx + m[2] * c.cy + m[4], cy: m[1] * c.cx + m[3] * c.cy + m[5], ux: m[0] * c.ux + m[2] * c.uy, uy: m[1] * c.ux + m[3] * c.uy, vx: m[0] * c.vx + m[2] * c.vy, vy: m[1] * c.vx + m[3] * c.vy,
    t0: c.t0, sweep: c.sweep, color: c.color, layer: c.layer, entity, lineweight: c.lineweight,
  };
}

/** A mesh polyline placed by an instance: drawing coordinates, selected as the INSERT. */
export function placePolyline(p: Polyline2, a: Affine, entity: number): Polyline2 {
  // a mesh placed where it was flattened (a block at the origin, unrotated, unscaled) shares its points
  if (isIdentity(a)) return { ...p, entity };
  const q: Polyline2 = { ...p, points: mapPoints(p.points, a), entity };
  if (p.holes) q.holes = p.holes.map((h) => mapPoints(h, a));
  return q;
}

export const isIdentity = (a: Affine) => a[0] === 1 && a[1] === 0 && a[2] === 0 && a[3] === 1 && a[4] === 0 && a[5] === 0;

/** Points x0 y0 x1 y1 … mapped by `a` (a module function: placing runs per baked instance and polyline). */
export function mapPoints(pts: readonly number[], a: Affine, r: number[] = new Array<number>(pts.length)): number[] {
  for (let i = 0; i < pts.length; i += 2) {
    r[i] = a[0] * pts[i] + a[2] * pts[i + 1] + a[4];
    r[i + 1] = a[1] * pts[i] + a[3] * pts[i + 1] + a[5];
  }
  return r;
}

/**
 * Every polyline in drawing order: `flat.polylines` with the instances for which `bake(instance)` is true placed
 * back where the flattener met them. What a flattening without instances would have given, for those instances.
 * `from` is where each came from: its index in `flat.polylines`, or -1 - k for a polyline of instance k.
 */
export function eachPolyline(flat: Flattened, bake: (inst: BlockInstance, index: number) => boolean, f: (p: Polyline2, from: number) => void) {
  const inst = flat.blocks?.instances ?? [];
  const meshes = flat.blocks?.meshes ?? [];
  let k = 0;
  const until = (at: number) => {
    for (; k < inst.length && inst[k].at <= at; k++) {
      if (!bake(inst[k], k)) continue;
      for (const p of meshes[inst[k].mesh].polylines) f(placePolyline(p, inst[k].affine, inst[k].entity), -1 - k);
    }
  };
  flat.polylines.forEach((p, i) => {
    until(i);
    f(p, i);
  });
  until(Infinity);
}

/** The flattening with every instance baked back (what renderers that read `Flattened` need). */
export function expandFlatBlocks(flat: Flattened): Flattened {
  if (!flat.blocks) return flat;
  const polylines: Polyline2[] = [];
  eachPolyline(flat, () => true, (p) => polylines.push(p));
  const { blocks: _, ...rest } = flat;
  return { ...rest, polylines };
}
