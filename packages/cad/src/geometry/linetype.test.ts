import { describe, expect, it } from 'vitest';
import { dashCurve, dashPolyline } from './linetype.ts';
import { curvePoint, type CurveGeom } from './curve.ts';

/** arc length of g between parameters a and b, by many small chords (independent of linetype.ts's table) */
const arcLength = (g: CurveGeom, a: number, b: number, n = 20_000) => {
  let l = 0;
  let [px, py] = curvePoint(g, a);
  for (let i = 1; i <= n; i++) {
    const [x, y] = curvePoint(g, a + ((b - a) * i) / n);
    l += Math.hypot(x - px, y - py);
    [px, py] = [x, y];
  }
  return l;
};

describe('dashes along exact curves', () => {
  // a sheared ellipse (semi-diameters not perpendicular), from 0.3 rad, most of a turn
  const g: CurveGeom = { cx: 10, cy: -4, ux: 12, uy: 3, vx: -2, vy: 5, t0: 0.3, sweep: 5.5 };
  const pattern = [2, -1, 0, -1];

  it('cuts an ellipse into dashes of the pattern’s true arc length, gaps between, dots where the pattern has them', () => {
    const cut = dashCurve(g, pattern, 4, Infinity)!;
    const total = arcLength(g, g.t0, g.t0 + g.sweep);
    const periods = Math.floor(total / 4);
    expect(cut.dashes.length).toBeGreaterThanOrEqual(periods);
    cut.dashes.forEach((d, k) => {
      // dash k starts at arc length 4k from the curve's start and runs 2 (the last may be cut by the end): within
      // 5e-4 of a curve ~60 long (the parameter is interpolated within steps of the arc-length table; walking the
      // parameter instead of the length would miss by up to ~1 on this ellipse)
      expect(arcLength(g, g.t0, d.t0)).toBeCloseTo(4 * k, 3);
      expect(arcLength(g, d.t0, d.t0 + d.sweep)).toBeCloseTo(Math.min(2, total - 4 * k), 3);
      expect([d.cx, d.cy, d.ux, d.uy, d.vx, d.vy]).toEqual([g.cx, g.cy, g.ux, g.uy, g.vx, g.vy]);
    });
    // a dot 3 along each period: on the curve, at that arc length
    expect(cut.dots.length / 2).toBe(cut.dashes.length - (total - 4 * (cut.dashes.length - 1) < 3 ? 1 : 0));
    for (let k = 0; k < cut.dots.length / 2; k++) {
      const [x, y] = [cut.dots[2 * k], cut.dots[2 * k + 1]];
      // the parameter of the dot, found by walking the curve finely
      let best = Infinity, at = 0;
      for (let i = 0; i <= 20_000; i++) {
        const t = g.t0 + (g.sweep * i) / 20_000;
        const [px, py] = curvePoint(g, t);
        const dd = Math.hypot(px - x, py - y);
        if (dd < best) (best = dd), (at = t);
      }
      expect(best).toBeLessThan(3e-3); // the search steps ~3e-3 along the curve
      expect(arcLength(g, g.t0, at)).toBeCloseTo(4 * k + 3, 2);
    }
  });

  it('walks a circle as the baked polyline is walked: the same dash ends as dashPolyline on a fine tessellation', () => {
    const c: CurveGeom = { cx: 0, cy: 0, ux: 5, uy: 0, vx: 0, vy: 5, t0: 0, sweep: 2 * Math.PI };
    const exact = dashCurve(c, [1, -0.5], 1.5, Infinity)!;
    const pts: number[] = [];
    for (let i = 0; i < 100_000; i++) pts.push(...curvePoint(c, (2 * Math.PI * i) / 100_000));
    const baked = dashPolyline(pts, true, [1, -0.5]);
    expect(exact.dashes.length).toBe(baked.length);
    exact.dashes.forEach((d, k) => {
      const [x0, y0] = curvePoint(d, d.t0), [x1, y1] = curvePoint(d, d.t0 + d.sweep);
      const b = baked[k];
      expect(Math.hypot(x0 - b[0], y0 - b[1])).toBeLessThan(1e-4);
      expect(Math.hypot(x1 - b.at(-2)!, y1 - b.at(-1)!)).toBeLessThan(1e-4);
    });
  });

  it('gives up past the budget (the caller then draws the curve continuous)', () => {
    expect(dashCurve(g, pattern, 4, 10)).toBeNull();
    expect(dashCurve(g, [1e-6, -1e-6], 2e-6, Infinity)).toBeNull();
  });
});
