/**
 * A generated DXF with every kind of curve the flattener keeps exact, and each curve's exact shape as a function of
 * u ∈ [0, 1] (computed here from the DXF's definitions, independently of the flattener): circles of radius 1e-3 to
 * 1e5, arcs crossing 0°, clockwise and counter-clockwise bulges, rotated partial and full ellipses, mirrored and
 * sheared INSERTs, OCS with extrusion (0, 0, −1), and a dashed circle (its dashes exact arcs). For tests.
 */
import { writeAsciiDxf, type FixtureEntity } from './dxf-writer.ts';

const TAU = Math.PI * 2;
const rad = (deg: number) => (deg * Math.PI) / 180;
export type Pt = [number, number];

export interface ExactCurve {
  /** the exact curve as a function of u ∈ [0, 1] (either direction) */
  at: (u: number) => Pt;
  /** the size errors are relative to */
  size: number;
}
type Expect = ExactCurve;
export const circleAt = (cx: number, cy: number, r: number, a0: number, sweep: number, map: (p: Pt) => Pt = (p) => p) => (u: number): Pt => map([cx + r * Math.cos(a0 + sweep * u), cy + r * Math.sin(a0 + sweep * u)]);

const entities: FixtureEntity[] = [];
/** handle → the entity's exact curves, in drawing order */
export const expected = new Map<string, Expect[]>();
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
// a dashed circle: each dash an exact arc (pattern 1, −0.5 along the circumference 10π from 0°: 21 dashes, the last
// at arc length 30–31)
add('CIRCLE', [[10, 0], [20, -40], [30, 0], [40, 5], [6, 'DASHED']], Array.from({ length: 21 }, (_, k) => ({ at: circleAt(0, -40, 5, (1.5 * k) / 5, 1 / 5), size: 50 })));

/** the DXF bytes */
export const curveDxf = writeAsciiDxf({ layers: ['0'], linetypes: [{ name: 'DASHED', pattern: [1, -0.5] }], blocks, entities });

