import type { Pt, Subpath } from './page-content.ts';

/** A clipping path as the page sets it (W / W*): its rings (curves by their end points) and bounding box. */
export interface Clip {
  box: [number, number, number, number];
  rings: Pt[][];
}

export function clipOf(subpaths: Subpath[], box: [number, number, number, number]): Clip {
  return { box, rings: subpaths.map((s) => [s.start, ...s.segs.map((g) => g.to)]).filter((r) => r.length >= 3) };
}

/** even-odd inside test against every ring (a ring of fewer than three points clips everything away) */
export function insideClip(c: Clip, p: Pt): boolean {
  if (p[0] < c.box[0] || p[0] > c.box[2] || p[1] < c.box[1] || p[1] > c.box[3]) return false;
  let inside = false;
  for (const ring of c.rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i], [xj, yj] = ring[j];
      if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

function crosses(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const o = (p: Pt, q: Pt, r: Pt) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return o(a, b, c) !== o(a, b, d) && o(c, d, a) !== o(c, d, b);
}

/**
 * Whether a painted path shows through the clips in force: one of its points inside all of them, or one of its
 * segments crossing a clip's edge (a long line through a small window). What is wholly clipped away (hatch tiles
 * outside their boundary, a viewport's overflow) is not drawn: a drawing has no clipping paths.
 */
export function showsThrough(clips: Clip[], subpaths: Subpath[]): boolean {
  if (!clips.length) return true;
  const pts: Pt[] = [];
  for (const s of subpaths) {
    pts.push(s.start);
    for (const g of s.segs) pts.push(g.to);
  }
  if (pts.some((p) => clips.every((c) => insideClip(c, p)))) return true;
  // no point inside: still seen when an edge of it crosses into each clip
  return clips.every((c) => {
    for (let i = 1; i < pts.length && i < 64; i++) {
      for (const ring of c.rings) for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) if (crosses(pts[i - 1], pts[i], ring[k], ring[j])) return true;
    }
    return false;
  });
}
