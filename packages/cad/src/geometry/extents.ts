import { curveBox } from './curve.ts';
import type { Flattened } from './flatten.ts';

export interface Extents {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * What "zoom extents" shows, robust to outliers: the drawing's content without the few items that lie far away from
 * it (a stray point at 1e6, a line left at the origin of a drawing placed in survey coordinates). The viewer's
 * first view and the thumbnails both frame this, so both show the same thing (issue 15 item 12).
 *
 * Along each axis separately, the items' intervals are merged where they overlap into clusters; from the cluster
 * of the middle item the neighbouring clusters are taken in while the gap to them is no wider than what is kept
 * so far plus their own width, or while they hold a tenth of all items; what is left beyond a wider gap is an
 * outlier. A drawing without such gaps keeps its full extents. Items that span the whole drawing by nature
 * (XLINE, RAY: clipped to the header extents, which may be wrong themselves) do not count.
 */
export function contentExtents(boxes: ArrayLike<number>): Extents | null {
  const n = Math.floor(boxes.length / 4);
  const idx: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = i * 4;
    if (Number.isFinite(boxes[b]) && Number.isFinite(boxes[b + 1]) && Number.isFinite(boxes[b + 2]) && Number.isFinite(boxes[b + 3])) idx.push(i);
  }
  if (!idx.length) return null;
  const x = keptRange(boxes, idx, 0), y = keptRange(boxes, idx, 1);
  return { minX: x[0], minY: y[0], maxX: x[1], maxY: y[1] };
}

/** The kept [min, max] along one axis (0: x, 1: y) of the boxes `idx`. */
function keptRange(boxes: ArrayLike<number>, idx: number[], axis: 0 | 1): [number, number] {
  const lo = (i: number) => boxes[i * 4 + axis], hi = (i: number) => boxes[i * 4 + 2 + axis];
  const order = idx.slice().sort((a, b) => lo(a) - lo(b));
  // clusters of overlapping intervals, in order along the axis
  const clusters: { lo: number; hi: number; n: number }[] = [];
  // the cluster of the middle item (by start) is where the content is: the seed
  let best = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const last = clusters[clusters.length - 1];
    if (last && lo(i) <= last.hi) {
      last.hi = Math.max(last.hi, hi(i));
      last.n++;
    } else clusters.push({ lo: lo(i), hi: hi(i), n: 1 });
    if (k === order.length >> 1) best = clusters.length - 1;
  }
  let a = best, b = best;
  let keptLo = clusters[best].lo, keptHi = clusters[best].hi;
  const total = idx.length;
  // a neighbour joins when its gap is at most the kept width plus its own, or when it is heavy
  const joins = (c: { lo: number; hi: number; n: number }, gap: number) => gap <= keptHi - keptLo + (c.hi - c.lo) || c.n * 10 >= total;
  for (;;) {
    const left = a > 0 ? clusters[a - 1] : null, right = b < clusters.length - 1 ? clusters[b + 1] : null;
    const gapL = left ? keptLo - left.hi : Infinity, gapR = right ? right.lo - keptHi : Infinity;
    // the nearer neighbour first: the kept width grows before the farther one is judged
    if (left && gapL <= gapR && joins(left, gapL)) {
      a--;
      keptLo = left.lo;
    } else if (right && joins(right, gapR)) {
      b++;
      keptHi = Math.max(keptHi, right.hi);
    } else if (left && joins(left, gapL)) {
      a--;
      keptLo = left.lo;
    } else break;
  }
  return [keptLo, keptHi];
}

/** Entity types drawn across the whole drawing (clipped to its header extents): no part of its content's extents. */
const UNBOUNDED = new Set(['XLINE', 'RAY']);

/**
 * The boxes (minX minY maxX maxY each) of a flattening's items: polylines, exact curves, texts (their insertion
 * point and a line of their height), and `more` (block instances, which only the scene compiler places).
 */
export function itemBoxes(f: Flattened, more?: (add: (pts: ArrayLike<number>) => void) => void): Float64Array {
  const out: number[] = [];
  const add = (pts: ArrayLike<number>) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const x = pts[i], y = pts[i + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    if (x0 <= x1) out.push(x0, y0, x1, y1);
  };
  for (const p of f.polylines) if (!UNBOUNDED.has(f.entities[p.entity]?.type ?? '')) add(p.points);
  const box: [number, number, number, number] = [0, 0, 0, 0];
  for (const c of f.curves ?? []) add(curveBox(c, box));
  for (const t of f.texts) add([t.x, t.y, t.x + t.height * Math.max(1, t.text.length) * 0.6, t.y + t.height]);
  more?.(add);
  return Float64Array.from(out);
}

/**
 * The extents without the flattening's outliers (contentExtents of its items), or null when it has none (or holds
 * nothing): the caller then shows its own full extents, exact to the glyph, as before.
 */
export function outlierFreeExtents(f: Flattened, more?: (add: (pts: ArrayLike<number>) => void) => void): Extents | null {
  const boxes = itemBoxes(f, more);
  const kept = contentExtents(boxes);
  if (!kept) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i + 3 < boxes.length; i += 4) {
    x0 = Math.min(x0, boxes[i]);
    y0 = Math.min(y0, boxes[i + 1]);
    x1 = Math.max(x1, boxes[i + 2]);
    y1 = Math.max(y1, boxes[i + 3]);
  }
  const trimmed = kept.minX > x0 || kept.minY > y0 || kept.maxX < x1 || kept.maxY < y1;
  // XLINEs and RAYs alone beyond the content: the full extents are theirs, which the caller's own box includes
  const unbounded = f.polylines.some((p) => UNBOUNDED.has(f.entities[p.entity]?.type ?? ''));
  return trimmed || unbounded ? kept : null;
}
