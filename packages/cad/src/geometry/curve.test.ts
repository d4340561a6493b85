import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { flattenLayout } from './layout.ts';
import { chordError, clipCurveToRect, curveBox, curvePoint, curveRadius, curveSegments, nearestOnCurve, tessellateCurve, CURVE_MAX_SEGMENTS, type Curve2, type CurveGeom } from './curve.ts';

const TAU = Math.PI * 2;
const rad = (deg: number) => (deg * Math.PI) / 180;
type Pt = [number, number];

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
          expect(n).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(sweep / (Math.PI / 2) - 1e-9)));
          expect(n).toBeLessThanOrEqual(CURVE_MAX_SEGMENTS);
          if (n < CURVE_MAX_SEGMENTS) expect(chordError(r, sweep, n)).toBeLessThanOrEqual(tol * (1 + 1e-9));
          // and not wastefully: one segment fewer would break the tolerance (unless the floor holds it)
          if (n > Math.max(1, Math.ceil(sweep / (Math.PI / 2) - 1e-9)) && n < CURVE_MAX_SEGMENTS) expect(chordError(r, sweep, n - 1)).toBeGreaterThan(tol);
        }
      }
    }
    expect(curveSegments(1e-6, TAU)).toBe(4);
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

// ---- the flattener's records against the exact curves, on a generated DXF of every kind of curve

interface Expect {
  /** the exact curve as a function of u ∈ [0, 1] (either direction) */
  at: (u: number) => Pt;
  size: number;
}
const circleAt = (cx: number, cy: number, r: number, a0: number, sweep: number, map: (p: Pt) => Pt = (p) => p) => (u: number): Pt => map([cx + r * Math.cos(a0 + sweep * u), cy + r * Math.sin(a0 + sweep * u)]);

const entities: FixtureEntity[] = [];
const expected = new Map<string, Expect[]>();
let handle = 0x100;
const add = (type: string, pairs: FixtureEntity['pairs'], exp: Expect[]) => {
  const h = (handle++).toString(16).toUpperCase();
  entities.push({ type, pairs: [[5, h], [8, '0'], ...pairs] });
  expected.set(h, exp);
};
// circles of radius 1e-3 … 1e5, each at a centre of its own size (so 1e-9 of the radius is above double rounding)
for (let e = -3; e <= 5; e++) {
  const r = 10 ** e;
  add('CIRCLE', [[10, 3 * r], [20, -2 * r], [30, 0], [40, r]], [{ at: circleAt(3 * r, -2 * r, r, 0, TAU), size: 4 * r }]);
}
// arcs crossing 0°: 350° → 20°, and 270° → 90°
add('ARC', [[10, 5], [20, 5], [30, 0], [40, 2], [50, 350], [51, 20]], [{ at: circleAt(5, 5, 2, rad(350), rad(30)), size: 10 }]);
add('ARC', [[10, -5], [20, 5], [30, 0], [40, 3], [50, 270], [51, 90]], [{ at: circleAt(-5, 5, 3, rad(270), rad(180)), size: 10 }]);
// OCS with extrusion (0, 0, −1): x runs the other way
const flipX = (p: Pt): Pt => [-p[0], p[1]];
add('CIRCLE', [[10, 7], [20, 1], [30, 0], [40, 1.5], [210, 0], [220, 0], [230, -1]], [{ at: circleAt(7, 1, 1.5, 0, TAU, flipX), size: 10 }]);
add('ARC', [[10, 7], [20, 1], [30, 0], [40, 1.5], [50, 10], [51, 100], [210, 0], [220, 0], [230, -1]], [{ at: circleAt(7, 1, 1.5, rad(10), rad(90), flipX), size: 10 }]);
// clockwise bulge (−0.5) then a straight side, a counter-clockwise half circle (1), closed by a straight side
const bulgeArc = (x0: number, y0: number, x1: number, y1: number, b: number, map: (p: Pt) => Pt = (p) => p): Expect => {
  const theta = 4 * Math.atan(b), chord = Math.hypot(x1 - x0, y1 - y0);
  const r = chord / (2 * Math.sin(theta / 2)), h = r * Math.cos(theta / 2);
  const cx = (x0 + x1) / 2 - ((y1 - y0) / chord) * h, cy = (y0 + y1) / 2 + ((x1 - x0) / chord) * h;
  return { at: circleAt(cx, cy, Math.abs(r), Math.atan2(y0 - cy, x0 - cx), theta, map), size: 20 };
};
add('LWPOLYLINE', [[90, 4], [70, 1], [10, 0], [20, 0], [42, -0.5], [10, 10], [20, 0], [10, 10], [20, 5], [42, 1], [10, 0], [20, 5]], [bulgeArc(0, 0, 10, 0, -0.5), bulgeArc(10, 5, 0, 5, 1)]);
// the same in OCS (0, 0, −1)
add('LWPOLYLINE', [[90, 2], [70, 0], [10, 1], [20, 1], [42, -2], [10, 4], [20, 1], [210, 0], [220, 0], [230, -1]], [bulgeArc(1, 1, 4, 1, -2, flipX)]);
// rotated, partial ellipses: major axis at 30°, ratio 0.4, parameters 0.5 … 5; a full one; one crossing 0; extrusion −z
const ellipseAt = (cx: number, cy: number, mx: number, my: number, ratio: number, t0: number, t1: number) => (u: number): Pt => {
  const t = t0 + (t1 - t0) * u;
  return [cx + mx * Math.cos(t) - ratio * my * Math.sin(t), cy + my * Math.cos(t) + ratio * mx * Math.sin(t)];
};
const [mx, my] = [8 * Math.cos(rad(30)), 8 * Math.sin(rad(30))];
add('ELLIPSE', [[10, 20], [20, 10], [30, 0], [11, mx], [21, my], [31, 0], [40, 0.4], [41, 0.5], [42, 5]], [{ at: ellipseAt(20, 10, mx, my, 0.4, 0.5, 5), size: 30 }]);
add('ELLIPSE', [[10, 20], [20, -10], [30, 0], [11, mx], [21, my], [31, 0], [40, 0.25], [41, 0], [42, TAU]], [{ at: ellipseAt(20, -10, mx, my, 0.25, 0, TAU), size: 30 }]);
add('ELLIPSE', [[10, -20], [20, 10], [30, 0], [11, mx], [21, my], [31, 0], [40, 0.6], [41, 5.5], [42, 1]], [{ at: ellipseAt(-20, 10, mx, my, 0.6, 5.5, 1 + TAU), size: 30 }]);
// extrusion (0, 0, −1): the minor axis is N × major, so the ellipse turns the other way
add('ELLIPSE', [[10, -20], [20, -10], [30, 0], [11, mx], [21, my], [31, 0], [210, 0], [220, 0], [230, -1], [40, 0.5], [41, 0.2], [42, 2.5]], [{ at: ellipseAt(-20, -10, mx, my, -0.5, 0.2, 2.5), size: 30 }]);

// mirrored (x scale −1) and rotated 30° INSERTs of blocks holding each kind, and a non-uniform scale of a rotated block
// inside a rotated INSERT (a sheared circle); m maps block coordinates to the drawing
const insertMap = (x: number, y: number, sx: number, sy: number, deg: number) => (p: Pt): Pt => {
  const c = Math.cos(rad(deg)), s = Math.sin(rad(deg));
  const px = p[0] * sx, py = p[1] * sy;
  return [x + px * c - py * s, y + px * s + py * c];
};
const blocks = [
  { name: 'BC', entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 2], [20, 1], [30, 0], [40, 3]] }] as FixtureEntity[] },
  { name: 'BA', entities: [{ type: 'ARC', pairs: [[8, '0'], [10, 2], [20, 1], [30, 0], [40, 3], [50, 300], [51, 45]] }] as FixtureEntity[] },
  { name: 'BE', entities: [{ type: 'ELLIPSE', pairs: [[8, '0'], [10, 1], [20, 1], [30, 0], [11, 4], [21, 3], [31, 0], [40, 0.3], [41, 1], [42, 4]] }] as FixtureEntity[] },
  { name: 'BP', entities: [{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 2], [70, 0], [10, 0], [20, 0], [42, -0.3], [10, 5], [20, 2]] }] as FixtureEntity[] },
  // a rotated, non-uniformly scaled circle block inside this one
  { name: 'BS', entities: [{ type: 'INSERT', pairs: [[8, '0'], [2, 'BC'], [10, 0], [20, 0], [30, 0], [41, 2], [42, 0.5], [50, 40]] }] as FixtureEntity[] },
];
const mirror = insertMap(50, 50, -1, 1, 30);
add('INSERT', [[2, 'BC'], [10, 50], [20, 50], [30, 0], [41, -1], [42, 1], [50, 30]], [{ at: circleAt(2, 1, 3, 0, TAU, mirror), size: 60 }]);
add('INSERT', [[2, 'BA'], [10, 50], [20, 50], [30, 0], [41, -1], [42, 1], [50, 30]], [{ at: circleAt(2, 1, 3, rad(300), rad(105), mirror), size: 60 }]);
add('INSERT', [[2, 'BE'], [10, 50], [20, 50], [30, 0], [41, -1], [42, 1], [50, 30]], [{ at: (u) => mirror(ellipseAt(1, 1, 4, 3, 0.3, 1, 4)(u)), size: 60 }]);
add('INSERT', [[2, 'BP'], [10, 50], [20, 50], [30, 0], [41, -1], [42, 1], [50, 30]], [bulgeArc(0, 0, 5, 2, -0.3, mirror)].map((e) => ({ ...e, size: 60 })));
const outer = insertMap(-40, 30, 1, 1, 25), inner = insertMap(0, 0, 2, 0.5, 40);
add('INSERT', [[2, 'BS'], [10, -40], [20, 30], [30, 0], [50, 25]], [{ at: circleAt(2, 1, 3, 0, TAU, (p) => outer(inner(p))), size: 60 }]);
// a dashed circle stays a polyline (cut into dashes)
add('CIRCLE', [[10, 0], [20, -40], [30, 0], [40, 5], [6, 'DASHED']], []);

const drawing = parseDxf(writeAsciiDxf({ layers: ['0'], linetypes: [{ name: 'DASHED', pattern: [1, -0.5] }], blocks, entities }));

/** max over u of |record(u) − exact(u or 1 − u)|, the better direction */
function deviation(c: CurveGeom, e: Expect, samples = 257): number {
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
    expect(checked).toBe(9 + 2 + 2 + 3 + 4 + 5);
  });

  it('keeps the straight sides of bulged polylines as lines, and draws dashed curves as dashes', () => {
    const h = [...expected.keys()][13];
    const ref = flat.entities.findIndex((e) => e.handle === h);
    const sides = flat.polylines.filter((p) => p.entity === ref);
    // (10,0)–(10,5) and (0,5)–(0,0): the closing side included
    expect(sides.map((p) => p.points.map((v) => +v.toFixed(9)))).toEqual([[10, 0, 10, 5], [0, 5, 0, 0]]);
    const dashed = flat.entities.findIndex((e) => e.handle === [...expected.keys()].at(-1));
    expect(byHandle.has([...expected.keys()].at(-1)!)).toBe(false);
    expect(flat.polylines.filter((p) => p.entity === dashed).length).toBeGreaterThan(10);
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
