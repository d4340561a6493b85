import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { curveDxf, expected, type ExactCurve } from '../testing/curve-fixture.ts';
import { flattenModelSpace } from './flatten.ts';
import { flattenLayout } from './layout.ts';
import { chordError, clipCurveToRect, curveBox, curvePoint, curveRadius, curveSegments, nearestOnCurve, tessellateCurve, CURVE_MAX_SEGMENTS, type Curve2, type CurveGeom } from './curve.ts';

const TAU = Math.PI * 2;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** The largest distance between a curve and its chords of `n` uniform steps, measured (not the bound). */
function measuredChordError(g: CurveGeom, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const a = curvePoint(g, g.t0 + (g.sweep * i) / n), b = curvePoint(g, g.t0 + (g.sweep * (i + 1)) / n);
    for (let k = 1; k < 16; k++) {
      const p = curvePoint(g, g.t0 + (g.sweep * (i + k / 16)) / n);
      const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
      const s = l2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
      worst = Math.max(worst, Math.hypot(a[0] + s * dx - p[0], a[1] + s * dy - p[1]));
    }
  }
  return worst;
}

describe('segments per curve for a zoom (the viewer’s choice)', () => {
  it('keeps the chord error within the tolerance for radii from 1e-3 to 1e7 pixels, with a floor and a cap', () => {
    for (const tol of [0.25, 0.5, 1]) {
      for (let e = -3; e <= 7; e += 0.25) {
        const r = 10 ** e;
        for (const sweep of [1e-4, 0.01, 0.3, Math.PI / 2, 2, Math.PI, 4, TAU]) {
          const n = curveSegments(r, sweep, tol);
          expect(n).toBeGreaterThanOrEqual(sweep > Math.PI ? 2 : 1);
          expect(n).toBeLessThanOrEqual(CURVE_MAX_SEGMENTS);
          if (n < CURVE_MAX_SEGMENTS) expect(chordError(r, sweep, n)).toBeLessThanOrEqual(tol * (1 + 1e-9));
          // and not wastefully: one segment fewer would break the tolerance (unless the floor holds it)
          if (n > (sweep > Math.PI ? 2 : 1) && n < CURVE_MAX_SEGMENTS) expect(chordError(r, sweep, n - 1)).toBeGreaterThan(tol);
        }
      }
    }
    // a sub-pixel circle: a dot (two segments across it), a sub-pixel arc: its chord
    expect(curveSegments(1e-6, TAU)).toBe(2);
    expect(curveSegments(0.1, 1)).toBe(1);
    expect(curveSegments(1e9, TAU)).toBe(CURVE_MAX_SEGMENTS);
    // a 400 px circle: ~89 segments (0.25 px), a 4 px one: 9
    expect(curveSegments(400, TAU)).toBe(89);
    expect(curveSegments(4, TAU)).toBe(9);
  });

  it('the bound holds on ellipses and sheared ellipses too (measured chord error ≤ largest radius × (1 − cos(Δt/2)))', () => {
    const cases: CurveGeom[] = [
      { cx: 0, cy: 0, ux: 100, uy: 0, vx: 0, vy: 3, t0: 0, sweep: TAU },
      { cx: 5, cy: -2, ux: 60, uy: 80, vx: -10, vy: 40, t0: 1, sweep: 4 },
      { cx: 0, cy: 0, ux: 200, uy: 1, vx: 199, vy: 2, t0: -2, sweep: 3 },
    ];
    for (const g of cases) {
      const r = curveRadius(g.ux, g.uy, g.vx, g.vy);
      for (const tol of [0.01, 0.25, 2]) {
        const n = curveSegments(r, g.sweep, tol);
        expect(measuredChordError(g, n)).toBeLessThanOrEqual(tol * (1 + 1e-9));
      }
    }
    expect(curveRadius(3, 4, 0, 0)).toBeCloseTo(5, 12);
    expect(curveRadius(100, 0, 0, 3)).toBeCloseTo(100, 12);
  });

  it('tessellates, boxes, clips and measures distances on the true curve', () => {
    const g: CurveGeom = { cx: 1, cy: 2, ux: 10, uy: 0, vx: 0, vy: 10, t0: rad(-30), sweep: rad(120) };
    const pts = tessellateCurve(g, 0.001);
    for (let i = 0; i < pts.length; i += 2) expect(Math.hypot(pts[i] - 1, pts[i + 1] - 2)).toBeCloseTo(10, 9);
    expect(curveBox(g).map((v) => +v.toFixed(9))).toEqual([1 + 10 * Math.cos(rad(90)), 2 - 5, 11, 12].map((v) => +v.toFixed(9)));
    expect(nearestOnCurve(g, 1 + 20, 2).d).toBeCloseTo(10, 9);
    // a closed curve has no ends: a point just before its start parameter is on it
    const a = rad(357.7);
    expect(nearestOnCurve({ ...g, t0: 0, sweep: TAU }, 1 + 10 * Math.cos(a), 2 + 10 * Math.sin(a)).d).toBeLessThan(1e-12);
    // beyond the arc's end at 90°: the end is nearest
    expect(nearestOnCurve(g, 1 - 10, 2 + 10).d).toBeCloseTo(10, 9);
    // clipped by x ≤ 6: the part from 60° up to 90°
    const cut = clipCurveToRect(g, { minX: -100, minY: -100, maxX: 6, maxY: 100 });
    expect(cut).toHaveLength(1);
    expect(cut[0].t0).toBeCloseTo(rad(60), 12);
    expect(cut[0].t0 + cut[0].sweep).toBeCloseTo(rad(90), 12);
    // a full circle cut by a box through its middle: one arc, across its start parameter
    const full = clipCurveToRect({ ...g, t0: 0, sweep: TAU }, { minX: 6, minY: -100, maxX: 100, maxY: 100 });
    expect(full).toHaveLength(1);
    expect(full[0].sweep).toBeCloseTo(rad(120), 12);
    expect(curvePoint(full[0], full[0].t0)[0]).toBeCloseTo(6, 9);
  });
});

const drawing = parseDxf(curveDxf);

/** max over u of |record(u) − exact(u or 1 − u)|, the better direction */
function deviation(c: CurveGeom, e: ExactCurve, samples = 257): number {
  const dirs = [(u: number) => u, (u: number) => 1 - u].map((f) => {
    let worst = 0;
    for (let i = 0; i < samples; i++) {
      const u = i / (samples - 1);
      const p = curvePoint(c, c.t0 + c.sweep * u), q = e.at(f(u));
      worst = Math.max(worst, Math.hypot(p[0] - q[0], p[1] - q[1]));
    }
    return worst;
  });
  return Math.min(...dirs);
}

describe('exact curves from the flattener (curves: true)', () => {
  const flat = flattenModelSpace(drawing, { curves: true });
  const byHandle = new Map<string, Curve2[]>();
  for (const c of flat.curves ?? []) {
    const h = flat.entities[c.entity].handle!;
    byHandle.set(h, [...(byHandle.get(h) ?? []), c]);
  }

  it('turns every continuous circle, arc, ellipse and bulge into records that match the exact curve within 1e-9 relative', () => {
    let checked = 0;
    for (const [h, exp] of expected) {
      const got = byHandle.get(h) ?? [];
      expect(got.length, `entity ${h}`).toBe(exp.length);
      exp.forEach((e, i) => {
        const c = got[i];
        expect(c.sweep).toBeGreaterThan(0);
        expect(c.sweep).toBeLessThanOrEqual(TAU);
        expect(deviation(c, e), `entity ${h} curve ${i}`).toBeLessThanOrEqual(1e-9 * e.size);
        checked++;
      });
    }
    expect(checked).toBe(9 + 2 + 2 + 3 + 4 + 5 + 21);
  });

  it('keeps the straight sides of bulged polylines as lines, and draws a dashed curve as its dashes, each an exact arc', () => {
    const h = [...expected.keys()][13];
    const ref = flat.entities.findIndex((e) => e.handle === h);
    const sides = flat.polylines.filter((p) => p.entity === ref);
    // (10,0)–(10,5) and (0,5)–(0,0): the closing side included
    expect(sides.map((p) => p.points.map((v) => +v.toFixed(9)))).toEqual([[10, 0, 10, 5], [0, 5, 0, 0]]);
    const dashed = flat.entities.findIndex((e) => e.handle === [...expected.keys()].at(-1));
    expect(byHandle.get([...expected.keys()].at(-1)!)!.length).toBe(21);
    expect(flat.polylines.filter((p) => p.entity === dashed)).toEqual([]);
  });

  it('draws nothing twice: without curves: true the same entities are polylines, and the INSERTs are not omitted', () => {
    const plain = flattenModelSpace(drawing);
    expect(plain.curves).toBeUndefined();
    expect(plain.entities.length).toBe(flat.entities.length);
    expect(flat.omitted).toEqual(plain.omitted);
    expect(flat.skipped).toEqual(plain.skipped);
    // the records lie on the baked polylines' curves: every baked vertex of a circle is on its record's circle
    const first = plain.polylines.find((p) => p.entity === 0)!;
    const rec = byHandle.get([...expected.keys()][0])![0];
    for (let i = 0; i < first.points.length; i += 2) expect(nearestOnCurve(rec, first.points[i], first.points[i + 1]).d).toBeLessThan(1e-12);
  });

  it('cuts model curves at a paper viewport’s border into arcs on the true curve', () => {
    const d = parseDxf(writeAsciiDxf({
      layers: ['0'],
      entities: [
        { type: 'CIRCLE', pairs: [[5, 'A0'], [8, '0'], [10, 0], [20, 0], [30, 0], [40, 10]] },
        // paper viewport centred at (100, 100), 30 × 30, showing model (0, 0) at scale 2: x from −7.5 to 7.5
        { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100], [20, 100], [40, 30], [41, 30], [68, 1], [69, 2], [12, 0], [22, 0], [45, 15]] },
      ],
    }));
    const paper = flattenLayout(d, 'Layout1', { curves: true })!;
    const cs = paper.curves ?? [];
    // the circle (radius 20 on paper) leaves the 30 × 30 box on all four sides: four arcs near its corners
    expect(cs).toHaveLength(4);
    for (const c of cs) {
      expect(curveRadius(c.ux, c.uy, c.vx, c.vy)).toBeCloseTo(20, 9);
      expect(c.cx).toBeCloseTo(100, 9);
      for (const t of [c.t0, c.t0 + c.sweep / 2, c.t0 + c.sweep]) {
        const [x, y] = curvePoint(c, t);
        expect(Math.max(Math.abs(x - 100), Math.abs(y - 100))).toBeLessThanOrEqual(15 + 1e-9);
      }
      const [ex, ey] = curvePoint(c, c.t0);
      expect(Math.max(Math.abs(ex - 100), Math.abs(ey - 100))).toBeCloseTo(15, 9);
    }
    expect(paper.entities[cs[0].entity].handle).toBe('A0');
  });
});
