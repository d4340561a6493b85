import type { Scene } from '../scene/scene.types.ts';
import { runValueAt } from '../scene/runs.ts';
import { expandBlockInstances } from '../scene/block-query.ts';

/** A scene's drawn geometry as plain records in drawing coordinates, block instances expanded (tests compare scenes with it). */
export interface Prim {
  /** x y per corner: 2 for a segment, 3 for a triangle */
  pts: number[];
  color: number;
  entity: number;
  layer: string;
  weight?: number;
}

export function sceneSegments(s: Scene): Prim[] {
  const [ox, oy] = s.meta.origin;
  const out: Prim[] = [];
  const rgb = (c: Uint8Array, i: number) => (c[i * 4] << 16) | (c[i * 4 + 1] << 8) | c[i * 4 + 2];
  for (const [layer, first, count] of s.meta.lineRanges) {
    for (let v = first; v < first + count; v += 2) {
      const p = s.linePositions.subarray(v * 2, v * 2 + 4);
      out.push({ pts: [p[0] + ox, p[1] + oy, p[2] + ox, p[3] + oy], color: rgb(s.lineSegmentColors, v / 2), entity: runValueAt(s.lineEntityRuns, v / 2), layer: s.meta.layers[layer].name, weight: s.lineWeights[v / 2] });
    }
  }
  const b = expandBlockInstances(s);
  for (let i = 0; i < b.lineEntities.length; i++) {
    const p = b.linePositions.subarray(i * 4, i * 4 + 4);
    out.push({ pts: [p[0] + ox, p[1] + oy, p[2] + ox, p[3] + oy], color: rgb(b.lineColors, i), entity: b.lineEntities[i], layer: s.meta.layers[b.lineLayers[i]].name, weight: b.lineWeights[i] });
  }
  return out;
}

export function sceneTriangles(s: Scene): Prim[] {
  const [ox, oy] = s.meta.origin;
  const out: Prim[] = [];
  const rgb = (c: Uint8Array, i: number) => (c[i * 4] << 16) | (c[i * 4 + 1] << 8) | c[i * 4 + 2];
  for (const [layer, first, count] of s.meta.triRanges) {
    for (let v = first; v < first + count; v += 3) {
      const p = s.triPositions.subarray(v * 2, v * 2 + 6);
      out.push({ pts: [p[0] + ox, p[1] + oy, p[2] + ox, p[3] + oy, p[4] + ox, p[5] + oy], color: rgb(s.triangleColors, v / 3), entity: runValueAt(s.triEntityRuns, v / 3), layer: s.meta.layers[layer].name });
    }
  }
  const b = expandBlockInstances(s);
  for (let i = 0; i < b.triEntities.length; i++) {
    const p = b.triPositions.subarray(i * 6, i * 6 + 6);
    out.push({ pts: [p[0] + ox, p[1] + oy, p[2] + ox, p[3] + oy, p[4] + ox, p[5] + oy], color: rgb(b.triColors, i), entity: b.triEntities[i], layer: s.meta.layers[b.triLayers[i]].name });
  }
  return out;
}

/** Every corner of `x` within `tol` of a distinct corner of `y` (any order: winding and direction are not drawn). */
function sameCorners(x: number[], y: number[], tol: number): boolean {
  if (x.length !== y.length) return false;
  const n = x.length / 2, used = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    let hit = -1;
    for (let j = 0; j < n && hit < 0; j++) if (!used[j] && Math.abs(x[i * 2] - y[j * 2]) <= tol && Math.abs(x[i * 2 + 1] - y[j * 2 + 1]) <= tol) hit = j;
    if (hit < 0) return false;
    used[hit] = true;
  }
  return true;
}

/**
 * The primitives of `a` with no match in `b` and those of `b` with none in `a`: a match has the same colour, entity,
 * layer and weight and every corner within `tol`. Unmatched pieces shorter than `tol` (a dash cut a rounding error
 * away from a vertex) are not reported.
 */
export function diffPrims(a: Prim[], b: Prim[], tol: number): { onlyA: Prim[]; onlyB: Prim[] } {
  const q = tol * 4;
  const tiny = (p: Prim) => p.pts.length === 4 && Math.hypot(p.pts[2] - p.pts[0], p.pts[3] - p.pts[1]) < tol && !(p.pts[0] === p.pts[2] && p.pts[1] === p.pts[3]);
  const cell = (p: Prim, x: number, y: number) => `${p.color}|${p.entity}|${p.layer}|${p.weight ?? ''}|${Math.round(x / q)}|${Math.round(y / q)}`;
  // every primitive of b under the cell of each of its corners
  const pool = new Map<string, { p: Prim; used: boolean }[]>();
  const all: { p: Prim; used: boolean }[] = [];
  for (const p of b) {
    const entry = { p, used: false };
    all.push(entry);
    for (let i = 0; i < p.pts.length; i += 2) {
      const k = cell(p, p.pts[i], p.pts[i + 1]);
      let l = pool.get(k);
      if (!l) pool.set(k, (l = []));
      l.push(entry);
    }
  }
  const onlyA: Prim[] = [];
  for (const p of a) {
    let found = false;
    // a's first corner, rounded: the matching corner of b is in that cell or a neighbouring one
    search: for (const dx of [0, -1, 1]) {
      for (const dy of [0, -1, 1]) {
        const k = `${p.color}|${p.entity}|${p.layer}|${p.weight ?? ''}|${Math.round(p.pts[0] / q) + dx}|${Math.round(p.pts[1] / q) + dy}`;
        for (const cand of pool.get(k) ?? []) {
          if (!cand.used && sameCorners(p.pts, cand.p.pts, tol)) {
            cand.used = true;
            found = true;
            break search;
          }
        }
      }
    }
    if (!found && !tiny(p)) onlyA.push(p);
  }
  return { onlyA, onlyB: all.filter((x) => !x.used && !tiny(x.p)).map((x) => x.p) };
}

/** The summed area of triangles per colour / entity / layer (a triangulation-independent view of fills). */
export function areaBy(tris: Prim[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tris) {
    const [x0, y0, x1, y1, x2, y2] = t.pts;
    const k = `${t.color}|${t.entity}|${t.layer}`;
    m.set(k, (m.get(k) ?? 0) + Math.abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) / 2);
  }
  return m;
}
