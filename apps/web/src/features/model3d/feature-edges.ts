import { type BufferGeometry, EdgesGeometry } from 'three';
import type { Vec3 } from './measure3d.ts';

/**
 * A mesh's feature edges (the edges CAD users see: where the adjacent triangles' normals differ by more than
 * `thresholdDeg`, and open borders), found once per geometry and kept beside it, with a grid to find the ones near a
 * point without walking them all. The edges mode draws them; measurement snaps to them.
 */
export const FEATURE_ANGLE_DEG = 30;

export interface FeatureEdges {
  /** the edges' geometry in the mesh's own frame (pairs of points) */
  geometry: BufferGeometry;
  grid: SegmentGrid;
}

const cache = new WeakMap<BufferGeometry, FeatureEdges>();

/** The feature edges of `geometry`, computed on first use (three.js' EdgesGeometry: welded by position, then the angle test). */
export function featureEdges(geometry: BufferGeometry): FeatureEdges {
  let found = cache.get(geometry);
  if (!found) {
    const edges = new EdgesGeometry(geometry, FEATURE_ANGLE_DEG);
    found = { geometry: edges, grid: new SegmentGrid(edges.getAttribute('position').array as Float32Array) };
    cache.set(geometry, found);
  }
  return found;
}

/** Below this many segments a query simply looks at all of them. */
const SMALL = 256;
/** A segment spanning more cells than this is kept in a list every query looks at (a few long edges of a big face). */
const MAX_CELLS_PER_SEGMENT = 64;

/**
 * Segments (x0 y0 z0 x1 y1 z1 …) in a uniform grid of cubic cells, about one segment per cell on average: `near`
 * answers the segments whose bounding box reaches within `r` of a point (a superset of those within `r`).
 */
export class SegmentGrid {
  private cells = new Map<string, number[]>();
  private always: number[] = [];
  private size = 1;
  private min: Vec3 = [0, 0, 0];
  readonly count: number;

  constructor(private segments: Float32Array) {
    this.count = segments.length / 6;
    if (this.count <= SMALL) return;
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < segments.length; i += 3) for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], segments[i + k])), (hi[k] = Math.max(hi[k], segments[i + k]));
    this.min = lo as unknown as Vec3;
    const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
    // cells of about (volume / count)^(1/3), measured on the largest side: thin models get fewer, flatter rows
    this.size = extent / Math.max(1, Math.cbrt(this.count));
    for (let s = 0; s < this.count; s++) {
      const [a, b] = this.cellRange(s);
      const cells = (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1);
      if (cells > MAX_CELLS_PER_SEGMENT) {
        this.always.push(s);
        continue;
      }
      for (let x = a[0]; x <= b[0]; x++) for (let y = a[1]; y <= b[1]; y++) for (let z = a[2]; z <= b[2]; z++) {
        const key = `${x},${y},${z}`;
        const list = this.cells.get(key);
        if (list) list.push(s);
        else this.cells.set(key, [s]);
      }
    }
  }

  private cell(v: number, k: number) {
    return Math.floor((v - this.min[k]) / this.size);
  }

  private cellRange(s: number): [number[], number[]] {
    const p = this.segments;
    const o = s * 6;
    const a = [0, 1, 2].map((k) => this.cell(Math.min(p[o + k], p[o + 3 + k]), k));
    const b = [0, 1, 2].map((k) => this.cell(Math.max(p[o + k], p[o + 3 + k]), k));
    return [a, b];
  }

  /** Indices of the segments that may pass within `r` of `p`. */
  near(p: Vec3, r: number): number[] {
    if (this.count <= SMALL) return Array.from({ length: this.count }, (_, i) => i);
    const a = [0, 1, 2].map((k) => this.cell(p[k] - r, k));
    const b = [0, 1, 2].map((k) => this.cell(p[k] + r, k));
    // a radius wider than the grid's cells many times over: cheaper to look at every segment
    if ((b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1) > this.count) return Array.from({ length: this.count }, (_, i) => i);
    const found = new Set<number>(this.always);
    for (let x = a[0]; x <= b[0]; x++) for (let y = a[1]; y <= b[1]; y++) for (let z = a[2]; z <= b[2]; z++) for (const s of this.cells.get(`${x},${y},${z}`) ?? []) found.add(s);
    return [...found];
  }

  /** Segment `s`'s two ends. */
  segment(s: number): [Vec3, Vec3] {
    const p = this.segments;
    const o = s * 6;
    return [[p[o], p[o + 1], p[o + 2]], [p[o + 3], p[o + 4], p[o + 5]]];
  }
}
