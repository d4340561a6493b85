/**
 * Linetype dash patterns applied along polylines. The pattern is the LTYPE's simple elements (49: positive dash,
 * negative gap, 0 dot) already multiplied by every scale that applies ($LTSCALE × the entity's 48 × the block
 * transform). Complex elements (embedded shapes and text of a linetype) are kept as the gaps they leave: the reader
 * keeps their lengths in the pattern but not the shape or text, so nothing is drawn in their place.
 */

/** Pieces of `points` (open polylines x0 y0 x1 y1 …) covered by the dashes; a dot is a piece with two equal points. */
export function dashPolyline(points: readonly number[], closed: boolean, pattern: readonly number[], restartAt?: ReadonlySet<number>): number[][] {
  const pts = closed && points.length >= 4 ? [...points, points[0], points[1]] : points;
  const out: number[][] = [];
  let e = 0;
  let left = Math.abs(pattern[0]);
  let cur: number[] | null = pattern[0] > 0 ? [pts[0], pts[1]] : null;
  if (pattern[0] === 0) out.push([pts[0], pts[1], pts[0], pts[1]]);
  const next = (x: number, y: number) => {
    if (cur && cur.length >= 4) out.push(cur);
    cur = null;
    e = (e + 1) % pattern.length;
    // a run of dots and zero-length elements all land here
    for (let guard = 0; pattern[e] === 0 && guard < pattern.length; guard++) {
      out.push([x, y, x, y]);
      e = (e + 1) % pattern.length;
    }
    left = Math.abs(pattern[e]);
    if (pattern[e] > 0) cur = [x, y];
  };
  const restart = (x: number, y: number) => {
    if (cur && cur.length >= 4) out.push(cur);
    e = pattern.length - 1;
    cur = null;
    next(x, y);
  };
  for (let i = 2; i < pts.length; i += 2) {
    if (restartAt?.has(i / 2 - 1) && i > 2) restart(pts[i - 2], pts[i - 1]);
    let x0 = pts[i - 2], y0 = pts[i - 1];
    const x1 = pts[i], y1 = pts[i + 1];
    let len = Math.hypot(x1 - x0, y1 - y0);
    while (len > 0) {
      if (left > len) {
        left -= len;
        if (cur) (cur as number[]).push(x1, y1);
        break;
      }
      const f = left / len;
      const x = x0 + (x1 - x0) * f, y = y0 + (y1 - y0) * f;
      if (cur) (cur as number[]).push(x, y);
      len -= left;
      x0 = x;
      y0 = y;
      next(x, y);
    }
  }
  if (cur && (cur as number[]).length >= 4) out.push(cur);
  return out;
}

/** The length of a polyline (with its closing segment when closed). */
export function polylineLength(points: readonly number[], closed: boolean): number {
  let l = 0;
  for (let i = 2; i < points.length; i += 2) l += Math.hypot(points[i] - points[i - 2], points[i + 1] - points[i - 1]);
  if (closed && points.length >= 4) l += Math.hypot(points[0] - points[points.length - 2], points[1] - points[points.length - 1]);
  return l;
}
