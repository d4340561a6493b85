import type { Flattened } from '../geometry/flatten.ts';

/**
 * Deliberately wrong versions of a flattened drawing: what a render bug looks like (an axis flipped, a
 * transform applied twice or in the wrong order, half the entities lost). A fidelity threshold is only
 * worth something if every one of these scores below it.
 */
function mapPoints(f: Flattened, fn: (x: number, y: number) => [number, number]): Flattened {
  const map = (pts: number[]) => {
    const out = new Array<number>(pts.length);
    for (let i = 0; i + 1 < pts.length; i += 2) [out[i], out[i + 1]] = fn(pts[i], pts[i + 1]);
    return out;
  };
  return {
    ...f,
    polylines: f.polylines.map((p) => ({ ...p, points: map(p.points), holes: p.holes?.map(map) })),
    texts: f.texts.map((t) => {
      const [x, y] = fn(t.x, t.y);
      return { ...t, x, y };
    }),
  };
}

export const mirrored = (f: Flattened) => mapPoints(f, (x, y) => [-x, y]);
export const rotated90 = (f: Flattened) => mapPoints(f, (x, y) => [-y, x]);

/** Every other top-level entity dropped (by entity index, so a block's geometry goes with its INSERT). */
export function halfDropped(f: Flattened): Flattened {
  return { ...f, polylines: f.polylines.filter((p) => p.entity % 2 === 0), texts: f.texts.filter((t) => t.entity % 2 === 0) };
}

export const WRONG_RENDERS = { mirrored, rotated90, halfDropped } as const;
