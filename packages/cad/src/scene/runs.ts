import type { Scene } from './scene.types.ts';
import { expandBlockInstances } from './block-query.ts';

/** The value of item `index` in [first, value] runs (binary search); -1 before the first run. */
export function runValueAt(runs: Uint32Array, index: number): number {
  let lo = 0, hi = (runs.length >> 1) - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid * 2] <= index) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? -1 : runs[found * 2 + 1];
}

/** Calls `f(first, end)` for every run of `value` (items first … end - 1). */
export function forRunsOf(runs: Uint32Array, count: number, value: number, f: (first: number, end: number) => void) {
  for (let r = 0; r < runs.length; r += 2) {
    if (runs[r + 1] !== value) continue;
    f(runs[r], r + 2 < runs.length ? runs[r + 2] : count);
  }
}

function expandRuns(runs: Uint32Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let r = 0; r < runs.length; r += 2) out.fill(runs[r + 1], runs[r], r + 2 < runs.length ? runs[r + 2] : count);
  return out;
}

function perVertex(colors: Uint8Array, verticesEach: number): Uint8Array {
  const n = colors.length >> 2;
  const out = new Uint8Array(n * verticesEach * 4);
  for (let i = 0; i < n; i++) for (let k = 0; k < verticesEach; k++) out.set(colors.subarray(i * 4, i * 4 + 4), (i * verticesEach + k) * 4);
  return out;
}

export type SceneArrays = Omit<Scene, 'lineColors' | 'lineEntities' | 'triColors' | 'triEntities'>;

function concat<T extends Uint8Array | Uint32Array>(a: T, b: T): T {
  if (!b.length) return a;
  const out = new (a.constructor as new (n: number) => T)(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * The scene with the per-vertex forms (lineColors, lineEntities, triColors, triEntities) as lazy, cached getters;
 * instanced blocks' segments and triangles follow the baked ones (as `expandBlockInstances` orders them).
 */
export function withPerVertexViews(s: SceneArrays): Scene {
  const cache: Partial<Record<'lc' | 'le' | 'tc' | 'te', Uint8Array | Uint32Array>> = {};
  const lazy = <T extends Uint8Array | Uint32Array>(k: keyof typeof cache, make: () => T) => ({ enumerable: false, configurable: true, get: () => (cache[k] ??= make()) as T });
  const blocks = () => expandBlockInstances(s);
  return Object.defineProperties(s as Scene, {
    lineColors: lazy('lc', () => concat(perVertex(s.lineSegmentColors, 2), perVertex(blocks().lineColors, 2))),
    lineEntities: lazy('le', () => concat(expandRuns(s.lineEntityRuns, s.linePositions.length >> 2), blocks().lineEntities)),
    triColors: lazy('tc', () => concat(perVertex(s.triangleColors, 3), perVertex(blocks().triColors, 3))),
    triEntities: lazy('te', () => concat(expandRuns(s.triEntityRuns, Math.floor(s.triPositions.length / 6)), blocks().triEntities)),
  });
}
