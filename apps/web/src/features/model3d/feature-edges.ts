import { BufferGeometry, Float32BufferAttribute } from 'three';
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

/** The feature edges of `geometry`, computed on first use. */
export function featureEdges(geometry: BufferGeometry): FeatureEdges {
  let found = cache.get(geometry);
  if (!found) {
    const segments = featureEdgeSegments(geometry.getAttribute('position'), geometry.index?.array ?? null, FEATURE_ANGLE_DEG);
    const edges = new BufferGeometry();
    edges.setAttribute('position', new Float32BufferAttribute(segments, 3));
    found = { geometry: edges, grid: new SegmentGrid(segments) };
    cache.set(geometry, found);
  }
  return found;
}

/** Positions as three.js gives them (a quantized attribute's getX… answer the real values). */
interface Positions {
  count: number;
  getX(i: number): number;
  getY(i: number): number;
  getZ(i: number): number;
}

/**
 * The feature edges of a triangle mesh as segments (x0 y0 z0 x1 y1 z1 …): vertices welded by position (a converter
 * often writes one vertex per face corner), then each edge shared by two triangles kept when their normals differ by
 * more than `thresholdDeg`, each edge of one triangle only (an open border) kept always. What three.js' EdgesGeometry
 * does, without its string keys: that took 11 s for 240 000 triangles and 40 s for a million on this machine.
 */
export function featureEdgeSegments(pos: Positions, index: ArrayLike<number> | null, thresholdDeg: number): Float32Array {
  const n = pos.count;
  const xyz = new Float64Array(n * 3);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    [xyz[i * 3], xyz[i * 3 + 1], xyz[i * 3 + 2]] = [pos.getX(i), pos.getY(i), pos.getZ(i)];
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], xyz[i * 3 + k]);
      hi[k] = Math.max(hi[k], xyz[i * 3 + k]);
    }
  }
  // weld: positions equal to about a millionth of the model's size are one vertex (an open-addressing table of ints)
  const step = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30) / 2 ** 20;
  const q = new Int32Array(n * 3);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) q[i * 3 + k] = Math.round((xyz[i * 3 + k] - lo[k]) / step);
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const weld = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const a = q[i * 3], b = q[i * 3 + 1], c = q[i * 3 + 2];
    let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663) ^ Math.imul(c, 83492791)) & (size - 1);
    for (;;) {
      const j = table[h];
      if (j === -1) {
        table[h] = i;
        weld[i] = i;
        break;
      }
      if (q[j * 3] === a && q[j * 3 + 1] === b && q[j * 3 + 2] === c) {
        weld[i] = j;
        break;
      }
      h = (h + 1) & (size - 1);
    }
  }
  const triangles = (index ? index.length : n) / 3;
  const cos = Math.cos((thresholdDeg * Math.PI) / 180);
  const normals = new Float64Array(triangles * 3);
  // edges (a < b) in an open-addressing table: the first triangle seen with each, −1 once a second one was compared
  let slots = 1;
  while (slots < triangles * 3 * 2) slots <<= 1;
  const edgeA = new Int32Array(slots).fill(-1);
  const edgeB = new Int32Array(slots);
  const edgeT = new Int32Array(slots);
  const out: number[] = [];
  const emit = (a: number, b: number) => out.push(xyz[a * 3], xyz[a * 3 + 1], xyz[a * 3 + 2], xyz[b * 3], xyz[b * 3 + 1], xyz[b * 3 + 2]);
  const v = [0, 0, 0];
  for (let t = 0; t < triangles; t++) {
    for (let k = 0; k < 3; k++) v[k] = weld[index ? index[t * 3 + k] : t * 3 + k];
    if (v[0] === v[1] || v[1] === v[2] || v[0] === v[2]) continue;
    const [o, p1, p2] = [v[0] * 3, v[1] * 3, v[2] * 3];
    const ux = xyz[p1] - xyz[o], uy = xyz[p1 + 1] - xyz[o + 1], uz = xyz[p1 + 2] - xyz[o + 2];
    const wx = xyz[p2] - xyz[o], wy = xyz[p2 + 1] - xyz[o + 1], wz = xyz[p2 + 2] - xyz[o + 2];
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const len = Math.hypot(nx, ny, nz);
    if (len === 0) continue;
    normals[t * 3] = nx / len;
    normals[t * 3 + 1] = ny / len;
    normals[t * 3 + 2] = nz / len;
    for (let k = 0; k < 3; k++) {
      const a = Math.min(v[k], v[(k + 1) % 3]);
      const b = Math.max(v[k], v[(k + 1) % 3]);
      let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663)) & (slots - 1);
      while (edgeA[h] !== -1 && (edgeA[h] !== a || edgeB[h] !== b)) h = (h + 1) & (slots - 1);
      if (edgeA[h] === -1) {
        [edgeA[h], edgeB[h], edgeT[h]] = [a, b, t];
        continue;
      }
      const other = edgeT[h];
      if (other < 0) continue;
      edgeT[h] = -1;
      const d = normals[t * 3] * normals[other * 3] + normals[t * 3 + 1] * normals[other * 3 + 1] + normals[t * 3 + 2] * normals[other * 3 + 2];
      if (d <= cos) emit(a, b);
    }
  }
  for (let h = 0; h < slots; h++) if (edgeA[h] !== -1 && edgeT[h] >= 0) emit(edgeA[h], edgeB[h]);
  return new Float32Array(out);
}

/** Below this many segments a query simply looks at all of them. */
const SMALL = 256;
/** A segment spanning more cells than this is kept in a list every query looks at (a few long edges of a big face). */
const MAX_CELLS_PER_SEGMENT = 64;

/** A grid as plain arrays: built in the edges worker, sent to the page without copying (edges-worker-protocol.ts). */
export interface SegmentGridData {
  segments: Float32Array;
  /** the occupied cells' keys, ascending */
  keys: Float64Array;
  /** cell i's segments are items[offsets[i]] … items[offsets[i + 1] − 1] */
  offsets: Int32Array;
  items: Int32Array;
  /** segments spanning too many cells: every query looks at them */
  always: Int32Array;
  /** cell size, cells along y and z, the grid's corner */
  size: number;
  ny: number;
  nz: number;
  min: Vec3;
}

/**
 * Segments (x0 y0 z0 x1 y1 z1 …) in a uniform grid of cubic cells, about one segment per cell on average: `near`
 * answers the segments whose bounding box reaches within `r` of a point (a superset of those within `r`). The cells
 * are kept as sorted keys with offsets into one list (not a Map): the grid is built in a worker and handed over as
 * typed arrays, the page only searches it.
 */
export class SegmentGrid {
  /** cells along y and z: a cell's key is (x · ny + y) · nz + z, a number (string keys made the grid slow to build) */
  private ny = 1;
  private nz = 1;
  private keys = new Float64Array(0);
  private offsets = new Int32Array(1);
  private items = new Int32Array(0);
  private always = new Int32Array(0);
  private size = 1;
  private min: Vec3 = [0, 0, 0];
  readonly count: number;
  private segments: Float32Array;

  constructor(segments: Float32Array | SegmentGridData) {
    if (!(segments instanceof Float32Array)) {
      const d = segments;
      this.segments = d.segments;
      this.count = d.segments.length / 6;
      Object.assign(this, { keys: d.keys, offsets: d.offsets, items: d.items, always: d.always, size: d.size, ny: d.ny, nz: d.nz, min: d.min });
      return;
    }
    this.segments = segments;
    this.count = segments.length / 6;
    if (this.count <= SMALL) return;
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < segments.length; i += 3) for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], segments[i + k])), (hi[k] = Math.max(hi[k], segments[i + k]));
    this.min = lo as unknown as Vec3;
    const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
    // cells of about (volume / count)^(1/3), measured on the largest side: thin models get fewer, flatter rows
    this.size = extent / Math.max(1, Math.cbrt(this.count));
    // one spare cell each side: a query's box may reach past the segments' own
    this.ny = Math.floor((hi[1] - lo[1]) / this.size) + 3;
    this.nz = Math.floor((hi[2] - lo[2]) / this.size) + 3;
    const cells = new Map<number, number[]>();
    const always: number[] = [];
    for (let s = 0; s < this.count; s++) {
      const [a, b] = this.cellRange(s);
      const n = (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1);
      if (n > MAX_CELLS_PER_SEGMENT) {
        always.push(s);
        continue;
      }
      for (let x = a[0]; x <= b[0]; x++) for (let y = a[1]; y <= b[1]; y++) for (let z = a[2]; z <= b[2]; z++) {
        const key = this.key(x, y, z);
        const list = cells.get(key);
        if (list) list.push(s);
        else cells.set(key, [s]);
      }
    }
    this.keys = Float64Array.from(cells.keys()).sort();
    this.offsets = new Int32Array(this.keys.length + 1);
    let total = 0;
    this.keys.forEach((k, i) => ((this.offsets[i] = total), (total += cells.get(k)!.length)));
    this.offsets[this.keys.length] = total;
    this.items = new Int32Array(total);
    this.keys.forEach((k, i) => this.items.set(cells.get(k)!, this.offsets[i]));
    this.always = Int32Array.from(always);
  }

  /** The grid as typed arrays (for postMessage: list `transferables` to move them instead of copying). */
  data(): SegmentGridData {
    return { segments: this.segments, keys: this.keys, offsets: this.offsets, items: this.items, always: this.always, size: this.size, ny: this.ny, nz: this.nz, min: this.min };
  }

  static transferables(d: SegmentGridData): ArrayBuffer[] {
    return [d.segments, d.keys, d.offsets, d.items, d.always].map((a) => a.buffer as ArrayBuffer);
  }

  private key(x: number, y: number, z: number) {
    return (x * this.ny + y) * this.nz + z;
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

  /** the position of `key` among the occupied cells, or −1 */
  private find(key: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else if (this.keys[mid] > key) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** Indices of the segments that may pass within `r` of `p`. */
  near(p: Vec3, r: number): number[] {
    if (this.count <= SMALL) return Array.from({ length: this.count }, (_, i) => i);
    const a = [0, 1, 2].map((k) => this.cell(p[k] - r, k));
    const b = [0, 1, 2].map((k) => this.cell(p[k] + r, k));
    // a radius wider than the grid's cells many times over: cheaper to look at every segment
    if ((b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1) > this.count) return Array.from({ length: this.count }, (_, i) => i);
    const found = new Set<number>(this.always);
    for (let x = a[0]; x <= b[0]; x++) for (let y = a[1]; y <= b[1]; y++) for (let z = a[2]; z <= b[2]; z++) {
      // outside the grid along y or z the key would name another cell: nothing is there
      if (y < 0 || z < 0 || y >= this.ny || z >= this.nz) continue;
      const c = this.find(this.key(x, y, z));
      if (c >= 0) for (let i = this.offsets[c]; i < this.offsets[c + 1]; i++) found.add(this.items[i]);
    }
    return [...found];
  }

  /** Segment `s`'s two ends. */
  segment(s: number): [Vec3, Vec3] {
    const p = this.segments;
    const o = s * 6;
    return [[p[o], p[o + 1], p[o + 2]], [p[o + 3], p[o + 4], p[o + 5]]];
  }
}
