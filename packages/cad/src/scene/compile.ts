import earcut from 'earcut';
import type { Drawing } from '../model/drawing.ts';
import type { Flattened, Polyline2, TextRun } from '../geometry/flatten.ts';
import { aciToRgb, FOREGROUND, trueColorRgb } from '../geometry/aci.ts';
import { outlierFreeExtents } from '../geometry/extents.ts';
import type { Glyph } from '../text/glyph.ts';
import type { TextGlyphs } from '../text/layout.ts';
import type { Scene, SceneGlyph, SceneMeta, SceneRange, SceneRect } from './scene.types.ts';
import { GrowableF32, GrowableRgba, GrowableU32, GrowableU8, RunBuilder } from './growable.ts';
import { withPerVertexViews } from './runs.ts';
import { planBlocks } from './blocks.ts';
import { curveFitsRecord, packCurves } from './curves.ts';
import { curveBox, isFullCurve, tessellateCurve, type Curve2 } from '../geometry/curve.ts';
import { imageRefs } from '../geometry/image-refs.ts';
import { sceneImages } from './images.ts';
import { drawTiers, GLYPH_TIER_UNIT, type Box } from './tiers.ts';
import { MAX_BAKED_CURVE_SEGMENTS, type Deadline } from '../geometry/content-budget.ts';

/** Text as geometry in drawing units, from the text engine (SHX strokes, TTF glyph triangles). */
export type TextGeometryFn = (run: TextRun) => { strokes: number[][]; triangles: number[]; colors?: number[]; triangleColors?: number[] };
/** Text as placed glyphs plus other strokes (the text engine's `textGlyphs`): glyphs used often are drawn as instances. */
export type TextGlyphsFn = (run: TextRun) => TextGlyphs;
/** one text's geometry as either text function makes it */
type TextShape = TextGlyphs | ReturnType<TextGeometryFn> | undefined;

export interface CompileOptions {
  layout: string;
  layouts: string[];
  textGeometry?: TextGeometryFn;
  /** preferred over textGeometry when given */
  textGlyphs?: TextGlyphsFn;
  fonts?: SceneMeta['fonts'];
  /** draw the flattening's block instances as instances where that pays (default true); false bakes them all */
  blockInstances?: boolean;
  /** ends the compile with `cad.tooComplex` once passed (the build's time budget, content-budget.ts) */
  deadline?: Deadline;
}

/**
 * Instancing a glyph costs a draw call or two per frame and its mesh; baking it costs its geometry for every use.
 * A glyph is instanced when that saves at least this many bytes, the most saving ones first, at most MAX of them.
 */
const INSTANCE_MIN_SAVING = 1024;
const MAX_INSTANCED_GLYPHS = 768;
/** bytes of one instance: 8 floats (placement, layer, colour) and its entity */
const INSTANCE_BYTES = 32 + 4;
/** bytes of a baked segment (positions, colour, weight) and triangle (positions, colour) */
const SEGMENT_BYTES = 16 + 4 + 1;
const TRIANGLE_BYTES = 24 + 4;

/** One layer's geometry, written straight into typed arrays (no per-entity arrays: drawings have millions of vertices). */
class LayerBucket {
  /** x y per vertex, 2 per segment */
  lp = new GrowableF32();
  /** rgba per segment */
  lc = new GrowableRgba();
  le = new RunBuilder();
  lw = new GrowableU8();
  /** x y per vertex, 3 per triangle */
  tp = new GrowableF32();
  /** rgba per triangle */
  tc = new GrowableRgba();
  te = new RunBuilder();
}

/** A glyph's box in its own frame, [minX, minY, maxX, maxY] (min > max: nothing drawn). */
function glyphBox(g: Glyph): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (pts: readonly number[]) => {
    for (let i = 0; i + 1 < pts.length; i += 2) {
      box[0] = Math.min(box[0], pts[i]);
      box[1] = Math.min(box[1], pts[i + 1]);
      box[2] = Math.max(box[2], pts[i]);
      box[3] = Math.max(box[3], pts[i + 1]);
    }
  };
  for (const st of g.strokes ?? []) add(st);
  add(g.triangles ?? []);
  return box;
}

/** The box of text i as the compiler draws it (its strokes, glyph triangles or placed glyphs), for the depth tiers. */
function textBoxOf(shapes: (TextGlyphs | ReturnType<TextGeometryFn> | undefined)[]): (i: number, out: Box) => boolean {
  const glyphBoxes = new Map<Glyph, [number, number, number, number]>();
  return (i, out) => {
    const g = shapes[i];
    if (!g) return false;
    out[0] = out[1] = Infinity;
    out[2] = out[3] = -Infinity;
    const add = (x: number, y: number) => {
      if (x < out[0]) out[0] = x;
      if (x > out[2]) out[2] = x;
      if (y < out[1]) out[1] = y;
      if (y > out[3]) out[3] = y;
    };
    for (const s of g.strokes) for (let k = 0; k + 1 < s.length; k += 2) add(s[k], s[k + 1]);
    if ('glyphs' in g) {
      for (const p of g.glyphs) {
        let box = glyphBoxes.get(p.glyph);
        if (!box) glyphBoxes.set(p.glyph, (box = glyphBox(p.glyph)));
        if (!(box[0] <= box[2])) continue;
        for (let k = 0; k < 4; k++) {
          const x = box[k & 1 ? 2 : 0], y = box[k & 2 ? 3 : 1];
          add(p.a * x + p.c * y + p.e, p.b * x + p.d * y + p.f);
        }
      }
    } else for (let k = 0; k + 1 < g.triangles.length; k += 2) add(g.triangles[k], g.triangles[k + 1]);
    return out[0] <= out[2];
  };
}

const segmentsOf = (strokes: number[][] | undefined) => {
  let n = 0;
  // a single point is one zero-length segment, as addLines draws it
  for (const s of strokes ?? []) n += s.length === 2 ? 1 : Math.max(0, (s.length >> 1) - 1);
  return n;
};

/**
 * What the compiler writes into while it walks the flattening: the layer table, one bucket per layer, the bounds and
 * the origin. Its methods run per primitive; as methods (not closures made per compile) V8 optimises each one once,
 * and every compile, the first one included, runs the same code.
 */
class SceneWriter {
  readonly layerIndex = new Map<string, number>();
  readonly layers: SceneMeta['layers'] = [];
  readonly buckets: LayerBucket[] = [];
  /** minX minY maxX maxY in a typed array while growing: an object's number fields would box every update */
  readonly ext = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
  /** the origin (set once the bounds are known): every position is written relative to it */
  ox = NaN;
  oy = NaN;

  constructor(private readonly d: Drawing) {}

  layerOf(name: string): number {
    // a nameless layer (some writers leave entities or a table entry without one) is layer 0, as AutoCAD reads it
    if (!name) name = '0';
    let i = this.layerIndex.get(name);
    if (i === undefined) {
      const l = this.d.layers.find((x) => x.name === name);
      i = this.layers.length;
      this.layerIndex.set(name, i);
      this.layers.push({ name, color: l ? (l.trueColor !== undefined ? trueColorRgb(l.trueColor) : aciToRgb(Math.abs(l.color) || 7)) : FOREGROUND, on: l ? l.on : true, frozen: l?.frozen ?? false, locked: l?.locked ?? false });
    }
    return i;
  }

  bucketAt(li: number): LayerBucket {
    return (this.buckets[li] ??= new LayerBucket());
  }

  bucket(name: string): LayerBucket {
    return this.bucketAt(this.layerOf(name));
  }

  grow(pts: ArrayLike<number>) {
    const ext = this.ext;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const x = pts[i], y = pts[i + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < ext[0]) ext[0] = x;
      if (x > ext[2]) ext[2] = x;
      if (y < ext[1]) ext[1] = y;
      if (y > ext[3]) ext[3] = y;
    }
  }

  /** one point: what grow([x, y]) does, without the array */
  growXY(x: number, y: number) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const ext = this.ext;
    if (x < ext[0]) ext[0] = x;
    if (x > ext[2]) ext[2] = x;
    if (y < ext[1]) ext[1] = y;
    if (y > ext[3]) ext[3] = y;
  }

  // room for every segment is made first, then plain stores: no capacity check per vertex (hundreds of thousands).
  // `tier` (scene/tiers.ts) goes into the alpha byte of the primitive's colour as 255 - tier (255, opaque, for tier 0)
  addLines(b: LayerBucket, pts: ArrayLike<number>, closed: boolean, color: number, entity: number, weight: number, tier = 0) {
    const ox = this.ox, oy = this.oy;
    const n = pts.length >> 1;
    const last = closed && n > 2 ? n : n - 1;
    const at = b.lw.length;
    const most = Math.max(last, 1);
    b.lp.reserve(most * 4);
    b.lw.reserve(most);
    const P = b.lp.data, W = b.lw.data;
    let p = b.lp.length, w = at;
    for (let i = 0; i < last; i++) {
      const j = (i + 1) % n;
      const x0 = pts[i * 2], y0 = pts[i * 2 + 1], x1 = pts[j * 2], y1 = pts[j * 2 + 1];
      if (!Number.isFinite(x0 + y0 + x1 + y1)) continue;
      P[p++] = x0 - ox;
      P[p++] = y0 - oy;
      P[p++] = x1 - ox;
      P[p++] = y1 - oy;
      W[w++] = weight;
    }
    // a single point (POINT, a dot in a linetype) is drawn as a zero-length segment
    if (n === 1 && Number.isFinite(pts[0] + pts[1])) {
      P[p++] = pts[0] - ox;
      P[p++] = pts[1] - oy;
      P[p++] = pts[0] - ox;
      P[p++] = pts[1] - oy;
      W[w++] = weight;
    }
    this.endLineRun(b, p, w, at, color, entity, tier);
  }

  /** a polyline of separate segments (Polyline2.segments): what addLines makes of each as a polyline of its own */
  addSegments(b: LayerBucket, pts: ArrayLike<number>, color: number, entity: number, weight: number, tier = 0) {
    const ox = this.ox, oy = this.oy;
    const at = b.lw.length;
    const most = pts.length >> 2;
    b.lp.reserve(most * 4);
    b.lw.reserve(most);
    const P = b.lp.data, W = b.lw.data;
    let p = b.lp.length, w = at;
    for (let k = 0; k + 3 < pts.length; k += 4) {
      const x0 = pts[k], y0 = pts[k + 1], x1 = pts[k + 2], y1 = pts[k + 3];
      if (!Number.isFinite(x0 + y0 + x1 + y1)) continue;
      P[p++] = x0 - ox;
      P[p++] = y0 - oy;
      P[p++] = x1 - ox;
      P[p++] = y1 - oy;
      W[w++] = weight;
    }
    this.endLineRun(b, p, w, at, color, entity, tier);
  }

  /** the segments stored from `at` up to `w` (coordinates up to `p`) become one run of the entity's colour */
  private endLineRun(b: LayerBucket, p: number, w: number, at: number, color: number, entity: number, tier: number) {
    b.lp.length = p;
    b.lw.length = w;
    const segs = w - at;
    if (!segs) return;
    b.le.add(at, entity);
    b.lc.push(color, segs, 255 - tier);
  }

  addTriangles(b: LayerBucket, coords: ArrayLike<number>, idx: ArrayLike<number> | null, color: number, entity: number, tier = 0) {
    const n = idx ? Math.floor(idx.length / 3) : Math.floor(coords.length / 6);
    if (!n) return;
    b.te.add(b.tp.length / 6, entity);
    for (let i = 0; i < n * 3; i++) {
      const k = idx ? idx[i] : i;
      b.tp.push2(coords[k * 2] - this.ox, coords[k * 2 + 1] - this.oy);
    }
    b.tc.push(color, n, 255 - tier);
  }

  /** one flattened polyline: filled areas triangulated (earcut, holes kept), lines as segments */
  addPolyline(p: Polyline2, tier = 0) {
    const b = this.bucket(p.layer);
    if (p.filled && p.points.length >= 6) {
      let coords: number[] = p.points;
      const holes: number[] = [];
      if (p.holes?.length) {
        coords = p.points.slice();
        for (const h of p.holes) {
          if (h.length < 6) continue;
          holes.push(coords.length / 2);
          for (const v of h) coords.push(v);
        }
      }
      // three or four corners (SOLID, TRACE) need no triangulator
      const idx = coords.length === 6 && !holes.length ? [0, 1, 2] : coords.length === 8 && !holes.length ? [0, 1, 2, 0, 2, 3] : earcut(coords, holes.length ? holes : undefined, 2);
      this.addTriangles(b, coords, idx, p.color, p.entity, tier);
    } else if (p.segments) {
      this.addSegments(b, p.points, p.color, p.entity, Math.max(0, Math.min(255, p.lineweight ?? 0)), tier);
    } else {
      this.addLines(b, p.points, p.closed && p.points.length >= 4, p.color, p.entity, Math.max(0, Math.min(255, p.lineweight ?? 0)), tier);
    }
  }
}

// The phases below are functions of their own, each with its loop: a first compile runs them before V8 has optimised
// anything, and a loop in a function of its own is optimised on the spot (on-stack) with the feedback of that loop,
// where one long function was optimised, and thrown back, at each phase it had not reached yet.

/** The bounds of everything with a known place before the origin is chosen: polylines, block instances, text insertion points, curves. */
function growBounds(w: SceneWriter, flat: Flattened, blockPlan: ReturnType<typeof planBlocks>) {
  const polylines = flat.polylines;
  for (let i = 0; i < polylines.length; i++) w.grow(polylines[i].points);
  blockPlan.growBounds((pts) => w.grow(pts));
  const texts = flat.texts;
  for (let i = 0; i < texts.length; i++) w.growXY(texts[i].x, texts[i].y);
  // one scratch box for all curves (a drawing has hundreds of thousands)
  const box: [number, number, number, number] = [0, 0, 0, 0];
  const curves = flat.curves ?? [];
  for (let i = 0; i < curves.length; i++) w.grow(curveBox(curves[i], box));
}

/**
 * Exact curves stay records (returned with their tiers when there are tiers), except those float32 cannot hold around
 * the origin: segments at the old tolerance.
 */
function writeCurves(w: SceneWriter, curves: readonly Curve2[], bounds: SceneRect, tiers: ArrayLike<number> | null, flat: Flattened, deadline?: Deadline): { exact: Curve2[]; exactTiers?: number[] } {
  const exact: Curve2[] = [];
  const exactTiers: number[] | undefined = tiers ? [] : undefined;
  const tolerance = Math.max(1e-9, Math.hypot(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY) / 4000);
  const origin: [number, number] = [w.ox, w.oy];
  // huge numbers make every curve one that no record holds, each baked into up to 4096 segments: past the drawing's
  // share they get 16 each, and the report counts them simplified
  let baked = 0;
  for (let i = 0; i < curves.length; i++) {
    deadline?.tick('compile');
    const c = curves[i];
    const tier = tiers ? tiers[i] : 0;
    if (curveFitsRecord(c, origin, tolerance)) {
      exact.push(c);
      exactTiers?.push(tier);
      continue;
    }
    const over = baked > MAX_BAKED_CURVE_SEGMENTS;
    if (over) {
      const key = `${flat.entities[c.entity]?.type ?? 'CURVE'}:simplified`;
      flat.skipped[key] = (flat.skipped[key] ?? 0) + 1;
    }
    const pts = tessellateCurve(c, tolerance, over ? 16 : undefined);
    baked += pts.length >> 1;
    w.addLines(w.bucket(c.layer), pts, isFullCurve(c), c.color, c.entity, Math.max(0, Math.min(255, c.lineweight ?? 0)), tier);
  }
  return { exact, exactTiers };
}

/** Placed glyphs of all texts, in text order: each distinct glyph once in `list`, each placement in the columns. */
interface PlacedGlyphs {
  ids: Map<Glyph, number>;
  list: Glyph[];
  uses: number[];
  /** each glyph's box in its own frame (minX minY maxX maxY): a placed glyph grows the bounds by its corners */
  boxes: number[];
  glyph: GrowableU32;
  /** a b c d e f per placement, e and f relative to the origin */
  affine: GrowableF32;
  color: GrowableU32;
  layer: GrowableU32;
  entity: GrowableU32;
  /** each placement's depth tier, in a drawing with wipeouts */
  tier: GrowableU8 | null;
}

/**
 * Every text: its entry in the meta, then its strokes and triangles (baked) or its placed glyphs (`placed`). `shapes`:
 * the texts' geometry already made for the depth tiers (`tiers`), in a drawing with wipeouts.
 */
function writeTexts(w: SceneWriter, flatTexts: readonly TextRun[], opts: CompileOptions, placed: PlacedGlyphs, shapes: TextShape[] | null, tiers: ArrayLike<number> | null): SceneMeta['texts'] {
  const texts: SceneMeta['texts'] = [];
  for (let ti = 0; ti < flatTexts.length; ti++) {
    const t = flatTexts[ti];
    opts.deadline?.tick('compile');
    texts.push({ text: t.text, x: t.x, y: t.y, height: t.height, rotation: t.rotation, entity: t.entity });
    const tier = tiers ? tiers[ti] : 0;
    if (opts.textGlyphs) {
      writeGlyphs(w, t, (shapes?.[ti] as TextGlyphs | undefined) ?? opts.textGlyphs(t), placed, tier);
      continue;
    }
    if (!opts.textGeometry) continue;
    const g = (shapes?.[ti] as ReturnType<TextGeometryFn> | undefined) ?? opts.textGeometry(t);
    const b = w.bucket(t.layer);
    for (let i = 0; i < g.strokes.length; i++) {
      const s = g.strokes[i];
      w.grow(s);
      w.addLines(b, s, false, g.colors?.[i] ?? t.color, t.entity, 0, tier);
    }
    w.grow(g.triangles);
    if (!g.triangles.length) continue;
    if (!g.triangleColors) w.addTriangles(b, g.triangles, null, t.color, t.entity, tier);
    else for (let i = 0; i < g.triangleColors.length; i++) w.addTriangles(b, g.triangles.slice(i * 6, i * 6 + 6), null, g.triangleColors[i], t.entity, tier);
  }
  return texts;
}

/** One text's other strokes baked, its glyphs placed (their corners grow the bounds). */
function writeGlyphs(w: SceneWriter, t: TextRun, g: TextGlyphs, placed: PlacedGlyphs, tier: number) {
  const li = w.layerOf(t.layer);
  const b = w.bucketAt(li);
  for (let i = 0; i < g.strokes.length; i++) {
    const s = g.strokes[i];
    w.grow(s);
    w.addLines(b, s, false, g.colors[i] ?? t.color, t.entity, 0, tier);
  }
  const boxes = placed.boxes;
  for (let gi = 0; gi < g.glyphs.length; gi++) {
    const p = g.glyphs[gi];
    let id = placed.ids.get(p.glyph);
    if (id === undefined) {
      id = placed.list.length;
      placed.ids.set(p.glyph, id);
      placed.list.push(p.glyph);
      placed.uses.push(0);
      boxes.push(...glyphBox(p.glyph));
    }
    const at = id * 4;
    if (boxes[at] <= boxes[at + 2]) {
      for (let k = 0; k < 4; k++) {
        const x = boxes[at + (k & 1 ? 2 : 0)], y = boxes[at + (k & 2 ? 3 : 1)];
        w.growXY(p.a * x + p.c * y + p.e, p.b * x + p.d * y + p.f);
      }
    }
    placed.uses[id]++;
    placed.glyph.push(id);
    placed.affine.push2(p.a, p.b);
    placed.affine.push2(p.c, p.d);
    placed.affine.push2(p.e - w.ox, p.f - w.oy);
    placed.color.push(p.color);
    placed.layer.push(li);
    placed.entity.push(t.entity);
    placed.tier?.push(tier);
  }
}

/** The placements of glyphs that are not instanced (`slot` < 0), baked in text order into their layer's buckets. */
function bakeGlyphs(w: SceneWriter, placed: PlacedGlyphs, slot: Int32Array) {
  // through one scratch array: addLines and addTriangles copy what they are given
  const A = placed.affine.data;
  const pts: number[] = [];
  for (let i = 0; i < placed.glyph.length; i++) {
    const gi = placed.glyph.data[i];
    if (slot[gi] >= 0) continue;
    const g = placed.list[gi];
    const a = A[i * 6], bb = A[i * 6 + 1], c = A[i * 6 + 2], dd = A[i * 6 + 3], e = A[i * 6 + 4] + w.ox, f = A[i * 6 + 5] + w.oy;
    const b = w.bucketAt(placed.layer.data[i]);
    const color = placed.color.data[i], entity = placed.entity.data[i], tier = placed.tier?.data[i] ?? 0;
    const strokes = g.strokes ?? [];
    for (let si = 0; si < strokes.length; si++) {
      const s = strokes[si];
      pts.length = s.length;
      for (let k = 0; k < s.length; k += 2) {
        pts[k] = a * s[k] + c * s[k + 1] + e;
        pts[k + 1] = bb * s[k] + dd * s[k + 1] + f;
      }
      w.addLines(b, pts, false, color, entity, 0, tier);
    }
    const t = g.triangles;
    if (t?.length) {
      pts.length = t.length;
      for (let k = 0; k < t.length; k += 2) {
        pts[k] = a * t[k] + c * t[k + 1] + e;
        pts[k + 1] = bb * t[k] + dd * t[k + 1] + f;
      }
      w.addTriangles(b, pts, null, color, entity, tier);
    }
  }
}

/** The instanced glyphs' meshes (one each) and their instances, grouped by glyph (a counting sort). */
function glyphMeshes(placed: PlacedGlyphs, chosen: readonly number[], slot: Int32Array) {
  const { list, uses } = placed;
  const glyphs: SceneGlyph[] = [];
  let meshSegs = 0, meshTris = 0;
  for (const gi of chosen) {
    meshSegs += segmentsOf(list[gi].strokes);
    meshTris += Math.floor((list[gi].triangles?.length ?? 0) / 6);
  }
  const glyphLinePositions = new Float32Array(meshSegs * 4), glyphTriPositions = new Float32Array(meshTris * 6);
  const instanceStart = new Int32Array(chosen.length + 1);
  {
    let lv = 0, tv = 0, inst = 0;
    chosen.forEach((gi, k) => {
      const g = list[gi];
      const l0 = lv, t0 = tv;
      for (const s of g.strokes ?? []) {
        if (s.length === 2) {
          glyphLinePositions.set([s[0], s[1], s[0], s[1]], lv * 2);
          lv += 2;
        }
        for (let i = 0; i + 3 < s.length; i += 2) {
          glyphLinePositions.set([s[i], s[i + 1], s[i + 2], s[i + 3]], lv * 2);
          lv += 2;
        }
      }
      const t = g.triangles ?? [];
      const tn = Math.floor(t.length / 6) * 6;
      for (let i = 0; i < tn; i++) glyphTriPositions[tv * 2 + i] = t[i];
      tv += tn / 2;
      instanceStart[k] = inst;
      glyphs.push([l0, lv - l0, t0, tv - t0, inst, uses[gi]]);
      inst += uses[gi];
    });
    instanceStart[chosen.length] = inst;
  }
  const instances = instanceStart[chosen.length];
  const glyphInstances = new Float32Array(instances * 8), glyphInstanceEntities = new Uint32Array(instances);
  const A = placed.affine.data;
  const next = instanceStart.slice();
  for (let i = 0; i < placed.glyph.length; i++) {
    const k = slot[placed.glyph.data[i]];
    if (k < 0) continue;
    const at = next[k]++;
    for (let j = 0; j < 6; j++) glyphInstances[at * 8 + j] = A[i * 6 + j];
    // an instance carries its tier in its layer float (scene/tiers.ts)
    glyphInstances[at * 8 + 6] = placed.layer.data[i] + (placed.tier?.data[i] ?? 0) * GLYPH_TIER_UNIT;
    glyphInstances[at * 8 + 7] = placed.color.data[i] & 0xffffff;
    glyphInstanceEntities[at] = placed.entity.data[i];
  }
  return { glyphs, glyphLinePositions, glyphTriPositions, glyphInstances, glyphInstanceEntities };
}

/** One buffer per kind, layers in order: each layer is one contiguous range. */
function layerBuffers(buckets: readonly LayerBucket[]) {
  let lineVerts = 0, triVerts = 0, lineRunCount = 0, triRunCount = 0;
  for (const b of buckets) if (b) {
    lineVerts += b.lp.length / 2;
    triVerts += b.tp.length / 2;
    lineRunCount += b.le.data.length;
    triRunCount += b.te.data.length;
  }
  const segs = lineVerts / 2, tris = triVerts / 3;
  const linePositions = new Float32Array(lineVerts * 2), lineSegmentColors = new Uint8Array(segs * 4), lineWeights = new Uint8Array(segs);
  const triPositions = new Float32Array(triVerts * 2), triangleColors = new Uint8Array(tris * 4);
  const lineEntityRuns = new Uint32Array(lineRunCount), triEntityRuns = new Uint32Array(triRunCount);
  const lineRanges: SceneRange[] = [], triRanges: SceneRange[] = [];
  let lv = 0, tv = 0, lr = 0, tr = 0;
  buckets.forEach((b, li) => {
    if (!b) return;
    if (b.lp.length) {
      linePositions.set(b.lp.data.subarray(0, b.lp.length), lv * 2);
      lineSegmentColors.set(b.lc.data.subarray(0, b.lc.length), lv * 2);
      lineWeights.set(b.lw.data.subarray(0, b.lw.length), lv / 2);
      copyRuns(b.le.data, lineEntityRuns, lr, lv / 2);
      lr += b.le.data.length;
      lineRanges.push([li, lv, b.lp.length / 2]);
      lv += b.lp.length / 2;
    }
    if (b.tp.length) {
      triPositions.set(b.tp.data.subarray(0, b.tp.length), tv * 2);
      triangleColors.set(b.tc.data.subarray(0, b.tc.length), (tv / 3) * 4);
      copyRuns(b.te.data, triEntityRuns, tr, tv / 3);
      tr += b.te.data.length;
      triRanges.push([li, tv, b.tp.length / 2]);
      tv += b.tp.length / 2;
    }
  });
  return { lineRanges, triRanges, arrays: { linePositions, lineSegmentColors, lineEntityRuns, lineWeights, triPositions, triangleColors, triEntityRuns } };
}

/** runs are per bucket: a run that continues the previous bucket's last entity is kept (harmless) */
function copyRuns(src: GrowableU32, dst: Uint32Array, at: number, offset: number) {
  for (let i = 0; i < src.length; i += 2) {
    dst[at + i] = src.data[i] + offset;
    dst[at + i + 1] = src.data[i + 1];
  }
}

/**
 * Flattened geometry → GPU buffers. Everything is grouped by layer (one range per layer in each buffer)
 * and written into two flat vertex buffers; filled areas are triangulated once here (earcut, holes kept),
 * text comes in as strokes and glyph triangles, or as placed glyphs of which the frequent ones become instanced
 * meshes, so the viewer draws a whole layout in a few calls.
 */
export function compileScene(d: Drawing, flat: Flattened, opts: CompileOptions): Scene {
  const w = new SceneWriter(d);
  const layerOf = (name: string) => w.layerOf(name);
  // every table layer is listed, drawn or not, so the layer panel matches the drawing
  for (const l of d.layers) w.layerOf(l.name);

  // the origin comes from the bounds, so they are known before any vertex is written; texts count with their
  // insertion point here and grow the bounds with their geometry as it is written (`extent` below).
  // Block instances (scene/blocks.ts): the ones that do not pay are baked back in place below
  const blockPlan = planBlocks(flat, opts.blockInstances !== false);
  growBounds(w, flat, blockPlan);
  const ext = w.ext;
  const bounds: SceneRect = Number.isFinite(ext[0]) ? { minX: ext[0], minY: ext[1], maxX: ext[2], maxY: ext[3] } : { minX: 0, minY: 0, maxX: 1, maxY: 1 };
  const ox = (w.ox = (bounds.minX + bounds.maxX) / 2), oy = (w.oy = (bounds.minY + bounds.maxY) / 2);

  // a drawing with wipeouts: every primitive gets a depth tier (scene/tiers.ts), for which the texts' geometry is
  // needed first (it is kept for the text pass below); every other drawing has none, and the scene it had
  const wiped = !!flat.images?.some((im) => im.wipeout);
  const shapes: TextShape[] | null = wiped ? flat.texts.map((t) => opts.textGlyphs?.(t) ?? opts.textGeometry?.(t)) : null;
  const tiers = shapes ? drawTiers(flat, bounds, textBoxOf(shapes)) : null;

  if (tiers) blockPlan.eachBakedPolyline((p, from) => w.addPolyline(p, from >= 0 ? tiers.polylines[from] : tiers.instances[-1 - from]));
  else blockPlan.eachBakedPolyline((p) => w.addPolyline(p));
  const { exact: exactCurves, exactTiers } = writeCurves(w, flat.curves ?? [], bounds, tiers?.curves ?? null, flat, opts.deadline);

  // ---- text: strokes and triangles baked per character, or placed glyphs (instanced when used often)
  const placed: PlacedGlyphs = { ids: new Map(), list: [], uses: [], boxes: [], glyph: new GrowableU32(), affine: new GrowableF32(), color: new GrowableU32(), layer: new GrowableU32(), entity: new GrowableU32(), tier: tiers ? new GrowableU8() : null };
  opts.deadline?.check('compile');
  const texts = writeTexts(w, flat.texts, opts, placed, shapes, tiers?.texts ?? null);
  opts.deadline?.check('compile');

  // which glyphs are instanced: the ones whose instances save the most bytes over baking them
  const { list: glyphList, uses } = placed;
  const meshBytes = (g: Glyph) => segmentsOf(g.strokes) * 16 + Math.floor((g.triangles?.length ?? 0) / 6) * 24;
  const bakedBytes = (g: Glyph) => segmentsOf(g.strokes) * SEGMENT_BYTES + Math.floor((g.triangles?.length ?? 0) / 6) * TRIANGLE_BYTES;
  const saving = glyphList.map((g, i) => uses[i] * (bakedBytes(g) - INSTANCE_BYTES) - meshBytes(g));
  // an instance carries its tier in its layer float, exact only below GLYPH_TIER_UNIT layers (scene/tiers.ts)
  const instanceable = !tiers || w.layers.length <= GLYPH_TIER_UNIT;
  const chosen = glyphList.map((_, i) => i).filter((i) => instanceable && saving[i] >= INSTANCE_MIN_SAVING).sort((a, b) => saving[b] - saving[a]).slice(0, MAX_INSTANCED_GLYPHS).sort((a, b) => a - b);
  const slot = new Int32Array(glyphList.length).fill(-1);
  chosen.forEach((g, k) => (slot[g] = k));
  // the others are baked, in text order, into their layer's buckets
  bakeGlyphs(w, placed, slot);
  const { glyphs, ...glyphArrays } = glyphMeshes(placed, chosen, slot);

  const { lineRanges, triRanges, arrays } = layerBuffers(w.buckets);
  const placedBlocks = blockPlan.build(ox, oy, layerOf, tiers?.instances);
  // the drawing's extent with its text geometry: what "fit" shows (a title's glyphs reach far past its insertion
  // point), and the grid the viewer culls curves by
  const extent: SceneRect = Number.isFinite(ext[0]) ? { minX: ext[0], minY: ext[1], maxX: ext[2], maxY: ext[3] } : bounds;
  // exact curves: records the viewer tessellates for its zoom (scene/curves.ts)
  const curves = packCurves(exactCurves, layerOf, extent, [ox, oy], exactTiers);

  const home = outlierFreeExtents(flat, (add) => blockPlan.growBounds(add));
  const images = sceneImages(imageRefs(d, flat), layerOf, ox, oy, tiers?.images);
  const meta: SceneMeta = {
    format: 1,
    layout: opts.layout,
    layouts: opts.layouts,
    units: d.header.units,
    ...linearUnitsOf(d.header.vars),
    bounds: extent,
    origin: [ox, oy],
    layers: w.layers,
    lineRanges,
    triRanges,
    glyphs,
    blocks: placedBlocks.blocks,
    curveBuckets: curves.buckets,
    entities: flat.entities,
    texts,
    notDrawn: flat.skipped,
    // the first view without far-away stray items, when there are any (the thumbnail frames the same)
    ...(home ? { home } : {}),
    ...(flat.layerOmitted ? { layerOmitted: flat.layerOmitted } : {}),
    fonts: opts.fonts,
    ...(images.length ? { images } : {}),
  };
  return withPerVertexViews({ meta, ...arrays, ...glyphArrays, curves: curves.records, curveEntities: curves.entities, ...placedBlocks.arrays });
}

/** The drawing's linear unit format for the viewer's measurements; AutoCAD's default precision (4) when $LUPREC is missing. */
function linearUnitsOf(vars: Record<string, string | number>): { linearUnits?: { format: number; precision: number } } {
  const format = Number(vars.$LUNITS);
  if (!Number.isInteger(format) || format < 1 || format > 6) return {};
  const precision = Number(vars.$LUPREC ?? 4);
  return { linearUnits: { format, precision: Number.isInteger(precision) && precision >= 0 && precision <= 8 ? precision : 4 } };
}
