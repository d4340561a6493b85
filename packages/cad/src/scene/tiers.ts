/**
 * Depth tiers: how the viewer draws WIPEOUTs in draw order although the scene is sorted by layer (scene.types.ts).
 *
 * A wipeout paints its area in the background colour over everything drawn before it; everything drawn after it
 * paints over it. The viewer draws the wipeouts first, writing their tier into the depth buffer, then every batch
 * with a depth test: a primitive whose tier is below a wipeout's is hidden where that wipeout lies, one of the same or
 * a higher tier is drawn (apps/web/src/features/viewer/gl-renderer.ts). So batch order never matters.
 *
 * The tiers are a layering in draw order, not a count of the wipeouts before a primitive: a count would need a tier
 * per wipeout, and drawings hold hundreds of them (a floor plan in the samples has 178; tag and callout blocks each
 * carry one) while a tier must fit in a byte (the spare alpha of the per-primitive colours). Only things that meet
 * need ordering, so tiers are handed out by place, on a coarse grid over the drawing, in draw order:
 * - a primitive takes the highest tier of the wipeouts before it that share a cell with its box (0 when none): it
 *   draws over them;
 * - a wipeout takes one more than the highest tier of the primitives before it that share a cell with it, and no less
 *   than the wipeouts before it there: it hides them, and a later wipeout over it keeps the depth buffer's value.
 * Sharing a cell is what "may overlap" means here: it over-orders (more tiers than needed), never under-orders, so
 * every primitive under a wipeout that comes before it is hidden and every one after it is drawn. A primitive's box
 * is grown by half a cell: a line drawn at its lineweight reaches a few pixels past its box, and half a cell is more
 * than that at the zoom that fits the drawing, or any closer one. Wipeouts stacked
 * more than MAX_TIER deep (in one cell) share the top tier: the last ones then stop hiding what lies between them.
 *
 * A drawing without wipeouts has no tiers at all (tier 0 everywhere, scenes byte-identical to before).
 * Browser-safe.
 */
import type { Flattened } from '../geometry/flatten.ts';
import type { CurveGeom } from '../geometry/curve.ts';
import type { SceneRect } from './scene.types.ts';

export const MAX_TIER = 255;
/**
 * Instanced glyphs carry their tier in the layer float of their instance (layer + tier × GLYPH_TIER_UNIT, exact in a
 * float32 while layers stay under the unit): the placement has no spare float. Scenes with more layers instance no
 * glyphs when tiers are in use.
 */
export const GLYPH_TIER_UNIT = 65536;
/** cells per side of the grid over the drawing's bounds */
const GRID = 128;

/** A box [minX, minY, maxX, maxY] in drawing units. */
export type Box = [number, number, number, number];

export interface DrawTiers {
  /** per `flat.polylines` */
  polylines: Uint8Array;
  /** per `flat.curves` */
  curves: Uint8Array;
  /** per `flat.texts` */
  texts: Uint8Array;
  /** per `flat.blocks.instances` (a block holding a wipeout is never instanced: block-instances.ts) */
  instances: Uint8Array;
  /** per `flat.images`: a wipeout's tier (1 or more), 0 for a picture */
  images: Uint8Array;
}

/**
 * The tiers of a flattening, or null when it has no wipeout. `bounds` is the drawing's box (the grid's; things outside
 * fall in its border cells). `textBox(i, out)` writes the box of text i as drawn and answers false when it draws
 * nothing (the compiler knows text geometry, the flattening does not).
 */
export function drawTiers(flat: Flattened, bounds: SceneRect, textBox: (i: number, out: Box) => boolean): DrawTiers | null {
  const images = flat.images ?? [];
  const wipeouts = images.map((_, i) => i).filter((i) => images[i].wipeout);
  if (!wipeouts.length) return null;
  const curves = flat.curves ?? [];
  const instances = flat.blocks?.instances ?? [];
  const out: DrawTiers = {
    polylines: new Uint8Array(flat.polylines.length),
    curves: new Uint8Array(curves.length),
    texts: new Uint8Array(flat.texts.length),
    instances: new Uint8Array(instances.length),
    images: new Uint8Array(images.length),
  };
  const grid = new TierGrid(bounds);
  const box: Box = [0, 0, 0, 0];

  // a mesh's box in its own frame: an instance's box is its four corners placed
  const meshBoxes = (flat.blocks?.meshes ?? []).map((m) => {
    const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of m.polylines) growBox(b, p.points);
    return b;
  });
  const instanceBox = (k: number): boolean => {
    const mb = meshBoxes[instances[k].mesh], a = instances[k].affine;
    if (!(mb[0] <= mb[2])) return false;
    box[0] = box[1] = Infinity;
    box[2] = box[3] = -Infinity;
    for (let c = 0; c < 4; c++) {
      const x = mb[c & 1 ? 2 : 0], y = mb[c & 2 ? 3 : 1];
      const px = a[0] * x + a[2] * y + a[4], py = a[1] * x + a[3] * y + a[5];
      box[0] = Math.min(box[0], px);
      box[1] = Math.min(box[1], py);
      box[2] = Math.max(box[2], px);
      box[3] = Math.max(box[3], py);
    }
    return true;
  };

  // everything not a polyline, by where it is drawn among the polylines (`at`: before polylines[at]; unknown: last)
  const curveAt = sortedBy(curves.length, (i) => curves[i].at ?? Infinity);
  const textAt = sortedBy(flat.texts.length, (i) => flat.texts[i].at ?? Infinity);
  const instAt = sortedBy(instances.length, (i) => instances[i].at);
  const wipeAt = wipeouts.sort((a, b) => images[a].order - images[b].order || a - b);
  let ci = 0, ti = 0, ii = 0, wi = 0;
  /** everything drawn before polyline `p`, in draw order: curves, texts and INSERTs met there, then wipeouts */
  const upTo = (p: number) => {
    for (; ci < curveAt.length && (curves[curveAt[ci]].at ?? Infinity) <= p; ci++) {
      ellipseBox(curves[curveAt[ci]], box);
      out.curves[curveAt[ci]] = grid.primitive(box);
    }
    for (; ti < textAt.length && (flat.texts[textAt[ti]].at ?? Infinity) <= p; ti++) {
      if (textBox(textAt[ti], box)) out.texts[textAt[ti]] = grid.primitive(box);
    }
    for (; ii < instAt.length && instances[instAt[ii]].at <= p; ii++) {
      if (instanceBox(instAt[ii])) out.instances[instAt[ii]] = grid.primitive(box);
    }
    // a wipeout's frame is polyline `order`: what was met at that position came before the wipeout
    for (; wi < wipeAt.length && images[wipeAt[wi]].order <= p; wi++) {
      const im = images[wipeAt[wi]];
      resetBox(box);
      growBox(box, im.clip ?? im.corners);
      out.images[wipeAt[wi]] = grid.wipeout(box);
    }
  };
  flat.polylines.forEach((pl, p) => {
    upTo(p);
    resetBox(box);
    growBox(box, pl.points);
    out.polylines[p] = grid.primitive(box);
  });
  upTo(Infinity);
  return out;
}

/** Indices 0 … n-1 ordered by `key` (stable); the flattener's lists are mostly in order already. */
function sortedBy(n: number, key: (i: number) => number): Uint32Array {
  const idx = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    idx[i] = i;
    if (i && key(i) < key(i - 1)) sorted = false;
  }
  if (!sorted) idx.sort((a, b) => key(a) - key(b) || a - b);
  return idx;
}

/** The box of a curve's whole ellipse: holds the arc, and costs no search for its extremes (curveBox's took most of this pass's time). */
function ellipseBox(g: CurveGeom, b: Box) {
  // sqrt, not Math.hypot: hypot took most of this pass's time
  const ex = Math.sqrt(g.ux * g.ux + g.vx * g.vx), ey = Math.sqrt(g.uy * g.uy + g.vy * g.vy);
  b[0] = g.cx - ex;
  b[1] = g.cy - ey;
  b[2] = g.cx + ex;
  b[3] = g.cy + ey;
}

function resetBox(b: Box) {
  b[0] = b[1] = Infinity;
  b[2] = b[3] = -Infinity;
}

function growBox(b: Box, pts: ArrayLike<number>) {
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = pts[i], y = pts[i + 1];
    if (x < b[0]) b[0] = x;
    if (x > b[2]) b[2] = x;
    if (y < b[1]) b[1] = y;
    if (y > b[3]) b[3] = y;
  }
}

/** A grid coordinate clamped to the grid (NaN, from a degenerate bounds, to cell 0). */
function cell(v: number): number {
  return v >= GRID - 1 ? GRID - 1 : v > 0 ? Math.floor(v) : 0;
}

/** Per cell: the highest tier of the wipeouts and of the primitives seen so far. */
class TierGrid {
  private wipe = new Uint8Array(GRID * GRID);
  private prim = new Uint8Array(GRID * GRID);
  private x0: number;
  private y0: number;
  private kx: number;
  private ky: number;
  /** the box of every wipeout so far: a primitive outside it is tier 0 without a look at the cells */
  private reach: Box = [Infinity, Infinity, -Infinity, -Infinity];
  private cells = [0, 0, 0, 0];

  constructor(b: SceneRect) {
    this.x0 = b.minX;
    this.y0 = b.minY;
    this.kx = GRID / Math.max(b.maxX - b.minX, 1e-300);
    this.ky = GRID / Math.max(b.maxY - b.minY, 1e-300);
  }

  /**
   * The cell range of a box grown by `margin` cells (clamped to the grid: what lies outside the bounds falls in the
   * border cells), or false for an empty box.
   */
  private range(b: Box, margin: number): boolean {
    if (!(b[0] <= b[2] && b[1] <= b[3])) return false;
    const c = this.cells;
    c[0] = cell((b[0] - this.x0) * this.kx - margin);
    c[1] = cell((b[1] - this.y0) * this.ky - margin);
    c[2] = cell((b[2] - this.x0) * this.kx + margin);
    c[3] = cell((b[3] - this.y0) * this.ky + margin);
    return true;
  }

  primitive(b: Box): number {
    const r = this.reach, mx = 0.5 / this.kx, my = 0.5 / this.ky;
    if (b[0] - mx > r[2] || b[2] + mx < r[0] || b[1] - my > r[3] || b[3] + my < r[1] || !this.range(b, 0.5)) return 0;
    const c = this.cells, c0 = c[0], r0 = c[1], c1 = c[2], r1 = c[3];
    let t = 0;
    for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) t = Math.max(t, this.wipe[y * GRID + x]);
    if (t) for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) if (this.prim[y * GRID + x] < t) this.prim[y * GRID + x] = t;
    return t;
  }

  wipeout(b: Box): number {
    if (!this.range(b, 0)) return 1;
    const c = this.cells, c0 = c[0], r0 = c[1], c1 = c[2], r1 = c[3];
    let t = 1;
    for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) t = Math.max(t, this.prim[y * GRID + x] + 1, this.wipe[y * GRID + x]);
    t = Math.min(t, MAX_TIER);
    for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) if (this.wipe[y * GRID + x] < t) this.wipe[y * GRID + x] = t;
    const r = this.reach;
    r[0] = Math.min(r[0], b[0]);
    r[1] = Math.min(r[1], b[1]);
    r[2] = Math.max(r[2], b[2]);
    r[3] = Math.max(r[3], b[3]);
    return t;
  }
}
