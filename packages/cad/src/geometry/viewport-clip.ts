/** Clipping to a viewport's rectangle (paper layouts). Owned with layout.ts. */
export interface Rect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * An open polyline clipped to a rectangle (Liang–Barsky per segment): the runs that lie inside, each a
 * polyline of its own, so a line leaving and re-entering the viewport does not draw across the border.
 */
export function clipPolylineToRect(pts: number[], r: Rect): number[][] {
  const runs: number[][] = [];
  let run: number[] | null = null;
  for (let i = 0; i + 3 < pts.length; i += 2) {
    const x0 = pts[i], y0 = pts[i + 1], x1 = pts[i + 2], y1 = pts[i + 3];
    const dx = x1 - x0, dy = y1 - y0;
    let t0 = 0, t1 = 1;
    let inside = true;
    for (const [p, q] of [[-dx, x0 - r.minX], [dx, r.maxX - x0], [-dy, y0 - r.minY], [dy, r.maxY - y0]] as const) {
      if (p === 0) {
        if (q < 0) { inside = false; break; }
      } else {
        const t = q / p;
        if (p < 0) { if (t > t1) { inside = false; break; } if (t > t0) t0 = t; }
        else { if (t < t0) { inside = false; break; } if (t < t1) t1 = t; }
      }
    }
    if (!inside) { run = null; continue; }
    const ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
    if (!run || t0 > 0) {
      run = [ax, ay];
      runs.push(run);
    }
    run.push(bx, by);
    if (t1 < 1) run = null;
  }
  return runs;
}

/** A closed ring clipped to a rectangle (Sutherland–Hodgman): filled areas keep their shape at the border. */
export function clipPolygonToRect(ring: number[], r: Rect): number[] {
  let pts = ring;
  const edges: [(x: number, y: number) => boolean, (ax: number, ay: number, bx: number, by: number) => [number, number]][] = [
    [(x) => x >= r.minX, (ax, ay, bx, by) => [r.minX, ay + ((by - ay) * (r.minX - ax)) / (bx - ax)]],
    [(x) => x <= r.maxX, (ax, ay, bx, by) => [r.maxX, ay + ((by - ay) * (r.maxX - ax)) / (bx - ax)]],
    [(_, y) => y >= r.minY, (ax, ay, bx, by) => [ax + ((bx - ax) * (r.minY - ay)) / (by - ay), r.minY]],
    [(_, y) => y <= r.maxY, (ax, ay, bx, by) => [ax + ((bx - ax) * (r.maxY - ay)) / (by - ay), r.maxY]],
  ];
  for (const [inside, cut] of edges) {
    const out: number[] = [];
    const n = pts.length / 2;
    for (let i = 0; i < n; i++) {
      const ax = pts[((i + n - 1) % n) * 2], ay = pts[((i + n - 1) % n) * 2 + 1], bx = pts[i * 2], by = pts[i * 2 + 1];
      const ain = inside(ax, ay), bin = inside(bx, by);
      if (bin) {
        if (!ain) out.push(...cut(ax, ay, bx, by));
        out.push(bx, by);
      } else if (ain) out.push(...cut(ax, ay, bx, by));
    }
    pts = out;
    if (!pts.length) break;
  }
  return pts;
}
