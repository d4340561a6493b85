import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenEntities, flattenModelSpace, type Flattened } from './flatten.ts';
import type { Entity } from '../model/drawing.ts';
import { ringArea } from './hatch.ts';
import { nurbsPoint, tessellateNurbs } from './spline.ts';

const flat = (entities: FixtureEntity[], more: Omit<Parameters<typeof writeAsciiDxf>[0], 'entities'> = {}, tolerance = 0.001) =>
  flattenModelSpace(parseDxf(writeAsciiDxf({ ...more, entities })), { tolerance });
const close = (a: number, b: number, eps = 1e-6) => Math.abs(a - b) < eps;

/** A HATCH with polyline boundary paths (each a list of x, y) and, after them, the given pattern pairs. */
function hatch(paths: number[][], tail: Pairs, extraPaths: Pairs = []): FixtureEntity {
  const pairs: Pairs = [[8, '0'], [100, 'AcDbHatch'], [10, 0], [20, 0], [30, 0], [210, 0], [220, 0], [230, 1], [2, tail.length ? 'ANSI31' : 'SOLID'], [70, tail.length ? 0 : 1], [71, 0], [91, paths.length + (extraPaths.length ? 1 : 0)]];
  paths.forEach((p, i) => {
    pairs.push([92, i === 0 ? 3 : 2], [72, 0], [73, 1], [93, p.length / 2]);
    for (let k = 0; k < p.length; k += 2) pairs.push([10, p[k]], [20, p[k + 1]]);
    pairs.push([97, 0]);
  });
  pairs.push(...extraPaths);
  pairs.push([75, 0], [76, 1]);
  if (tail.length) pairs.push(...tail);
  pairs.push([98, 0]);
  return { type: 'HATCH', pairs };
}
const square = (x0: number, y0: number, s: number) => [x0, y0, x0 + s, y0, x0 + s, y0 + s, x0, y0 + s];
// ANSI31 at scale 1: one family at 45°, 3.175 apart (the DXF stores the offset already rotated)
const ansi31 = (spacing = 3.175): Pairs => [[52, 0], [41, 1], [77, 0], [78, 1], [53, 45], [43, 0], [44, 0], [45, -spacing * Math.SQRT1_2], [46, spacing * Math.SQRT1_2], [79, 0]];

describe('HATCH', () => {
  it('fills a solid hatch as one ring with its island as a hole (even-odd)', () => {
    // the island is an edge path: a circle of radius 10 as one arc edge, next to a square island of lines
    const circle: Pairs = [[92, 0], [93, 1], [72, 2], [10, 30], [20, 30], [40, 10], [50, 0], [51, 360], [73, 1], [97, 0]];
    const f = flat([hatch([square(0, 0, 100), square(60, 60, 20)], [], circle)]);
    expect(f.polylines).toHaveLength(1);
    const p = f.polylines[0];
    expect(p.filled).toBe(true);
    expect(Math.abs(ringArea(p.points))).toBeCloseTo(10000, 6);
    expect(p.holes).toHaveLength(2);
    const areas = p.holes!.map((h) => Math.abs(ringArea(h))).sort((a, b) => a - b);
    // the tessellated circle is within the tolerance of π r² (inscribed: a little less)
    expect(Math.PI * 100 - areas[0]).toBeGreaterThan(0);
    expect(Math.PI * 100 - areas[0]).toBeLessThan(2 * Math.PI * 10 * 0.001);
    expect(areas[1]).toBeCloseTo(400, 6);
  });

  it('reads edge paths: ellipse arcs by their true angles, splines followed by more edges', () => {
    const r = Math.sqrt(20); // the point at 45° on the ellipse 10 × 5
    const path: Pairs = [[92, 1], [93, 4],
      [72, 3], [10, 0], [20, 0], [11, 10], [21, 0], [40, 0.5], [50, 45], [51, 180], [73, 1],
      [72, 4], [94, 1], [73, 0], [74, 0], [95, 4], [96, 2], [40, 0], [40, 0], [40, 1], [40, 1], [10, -10], [20, 0], [10, 0], [20, -4], [97, 0],
      [72, 1], [10, 0], [20, -4], [11, 0], [21, 0],
      [72, 1], [10, 0], [20, 0], [11, r], [21, r], [97, 0]];
    const f = flat([hatch([], [], path)]);
    const ring = f.polylines[0].points;
    // the elliptic sector from parameter atan(2) to π (a·b/2 · Δt) plus the triangle under the spline edge
    expect(Math.abs(ringArea(ring))).toBeCloseTo(25 * (Math.PI - Math.atan(2)) + 20, 1);
    expect(ring.slice(0, 2).map((v) => +v.toFixed(9))).toEqual([+r.toFixed(9), +r.toFixed(9)]);
  });

  it('ignores islands with hatch style 2 (75) and keeps them with style 0', () => {
    const style = (n: number) => {
      const h = hatch([square(0, 0, 100), square(25, 25, 50)], []);
      return { ...h, pairs: h.pairs.map((p) => (p[0] === 75 ? [75, n] : p)) as Pairs };
    };
    expect(flat([style(2)]).polylines[0].holes).toBeUndefined();
    expect(flat([style(0)]).polylines[0].holes).toHaveLength(1);
  });

  it('draws ANSI31 in a 100 × 100 square as parallel 45° lines 3.175 apart, all inside', () => {
    const f = flat([hatch([square(0, 0, 100)], ansi31())]);
    const lines = f.polylines;
    // perpendicular offsets t = k × 3.175 for |t| ≤ 100/√2: k = −22 … 22
    expect(lines).toHaveLength(45);
    const ts = new Set<string>();
    for (const l of lines) {
      const [x0, y0, x1, y1] = l.points;
      expect(l.points).toHaveLength(4);
      expect(close(x1 - x0, y1 - y0, 1e-9)).toBe(true);
      for (const v of l.points) expect(v >= -1e-9 && v <= 100 + 1e-9).toBe(true);
      ts.add(((y0 - x0) * Math.SQRT1_2 / 3.175).toFixed(6));
    }
    expect([...ts].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i - 22));
    // the lines cover the square: total length = area / spacing, within the two corner slivers
    const total = lines.reduce((a, l) => a + Math.hypot(l.points[2] - l.points[0], l.points[3] - l.points[1]), 0);
    expect(Math.abs(total - 10000 / 3.175)).toBeLessThan(3.175);
  });

  it('keeps pattern lines out of islands and cuts them into their dashes', () => {
    const dashed: Pairs = [[52, 0], [41, 1], [77, 0], [78, 1], [53, 0], [43, 0], [44, 0.5], [45, 0], [46, 1], [79, 2], [49, 3], [49, -1]];
    const f = flat([hatch([square(0, 0, 10), square(4, 4, 2)], dashed)]);
    for (const l of f.polylines) {
      const mx = (l.points[0] + l.points[2]) / 2, my = (l.points[1] + l.points[3]) / 2;
      expect(mx > 4 && mx < 6 && my > 4 && my < 6).toBe(false);
      expect(l.points[1]).toBe(l.points[3]);
      expect(Math.abs(l.points[2] - l.points[0])).toBeLessThanOrEqual(3 + 1e-9);
    }
    // the line y = 0.5 (no island): dashes [0,3] [4,7] [8,10]
    const row = f.polylines.filter((l) => close(l.points[1], 0.5)).map((l) => [l.points[0], l.points[2]]).sort((a, b) => a[0] - b[0]);
    expect(row).toEqual([[0, 3], [4, 7], [8, 10]]);
    // the line y = 4.5 crosses the island: the dash [4,7] is cut at x = 6 and [0,3] stays whole
    const cut = f.polylines.filter((l) => close(l.points[1], 4.5)).map((l) => [l.points[0], l.points[2]]).sort((a, b) => a[0] - b[0]);
    expect(cut).toEqual([[0, 3], [6, 7], [8, 10]]);
  });

  it('draws a too dense pattern as its outline and reports it', () => {
    const f = flattenModelSpace(parseDxf(writeAsciiDxf({ entities: [hatch([square(0, 0, 100)], ansi31(0.001))] })), { tolerance: 0.01, hatchSegmentCap: 1000 });
    expect(f.skipped['HATCH:pattern']).toBe(1);
    expect(f.polylines).toHaveLength(1);
    expect(f.polylines[0].closed).toBe(true);
  });

  it('fills a gradient in bands from its first colour to its second (issue 15 item 16; gradient.test.ts has the kinds)', () => {
    const f = flat([hatch([square(0, 0, 10)], [], [])].map((h) => ({ ...h, pairs: [...h.pairs, [450, 1], [451, 0], [452, 0], [453, 2], [460, 0], [461, 0], [462, 1], [463, 0], [63, 5], [421, 0x123456], [463, 1], [63, 2], [421, 0xabcdef]] as Pairs })));
    expect(f.polylines.every((p) => p.filled)).toBe(true);
    const near = (a: number, b: number) => [16, 8, 0].every((s) => Math.abs(((a >> s) & 255) - ((b >> s) & 255)) <= 4);
    expect(near(f.polylines[0].color, 0x123456)).toBe(true);
    expect(near(f.polylines[f.polylines.length - 1].color, 0xabcdef)).toBe(true);
  });
});

describe('linetypes', () => {
  const line = (extra: Pairs = []): FixtureEntity => ({ type: 'LINE', pairs: [[8, 'Hidden'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0], ...extra] });
  const setup = { layers: ['0', 'Hidden'], layerLinetypes: { Hidden: 'DASHED' }, linetypes: [{ name: 'DASHED', pattern: [5, -2.5] }, { name: 'DOTS', pattern: [0, -10] }], header: [['$LTSCALE', [[40, 2]]]] as [string, Pairs][] };
  const spans = (f: Flattened) => f.polylines.map((p) => [+p.points[0].toFixed(9), +p.points[2].toFixed(9)]);

  it('cuts a ByLayer dashed line by pattern × $LTSCALE × the entity scale (48)', () => {
    // scale 2 × 1.5 = 3: dashes of 15, gaps of 7.5
    expect(spans(flat([line([[48, 1.5]])], setup))).toEqual([[0, 15], [22.5, 37.5], [45, 60], [67.5, 82.5], [90, 100]]);
  });

  it('draws dots as zero-length pieces and CONTINUOUS as one line', () => {
    expect(spans(flat([line([[6, 'DOTS']])], setup))).toEqual([[0, 0], [20, 20], [40, 40], [60, 60], [80, 80], [100, 100]]);
    expect(spans(flat([line([[6, 'CONTINUOUS']])], setup))).toEqual([[0, 100]]);
  });

  it('keeps dashes at their paper length through a viewport transform ($PSLTSCALE 1) and clips infinite lines there', () => {
    const d = parseDxf(writeAsciiDxf({ ...setup, entities: [line()] }));
    // a viewport showing the model at half size: the 100-long line becomes 50, its dashes stay 10 / 5 (pattern × 2)
    const f = flattenModelSpace(d, { tolerance: 0.001, transform: [0.5, 0, 0, 0.5, 0, 0] });
    expect(spans(f)).toEqual([[0, 10], [15, 25], [30, 40], [45, 50]]);
  });

  it('keeps a line continuous when its dashes would be under the tolerance', () => {
    expect(flat([line([[48, 0.0001]])], setup, 0.01).polylines).toHaveLength(1);
  });

  it('restarts the pattern at every polyline vertex unless 70 bit 128 asks for a continuous pattern', () => {
    const pl = (flags: number): FixtureEntity => ({ type: 'LWPOLYLINE', pairs: [[8, 'Hidden'], [90, 3], [70, flags], [10, 0], [20, 0], [10, 10], [20, 0], [10, 10], [20, 10]] });
    const lengths = (f: Flattened) => f.polylines.map((p) => {
      let l = 0;
      for (let i = 2; i < p.points.length; i += 2) l += Math.hypot(p.points[i] - p.points[i - 2], p.points[i + 1] - p.points[i - 1]);
      return +l.toFixed(9);
    });
    const lt = { ...setup, linetypes: [{ name: 'DASHED', pattern: [2, -1] }], header: [] };
    // each side of 10 starts again: dashes 0–2, 3–5, 6–8, 9–10
    expect(lengths(flat([pl(0)], lt))).toEqual([2, 2, 2, 1, 2, 2, 2, 1]);
    // continuous: the dash 9–11 turns the corner as one piece of three points
    const cont = flat([pl(128)], lt);
    expect(lengths(cont)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(cont.polylines[3].points).toEqual([9, 0, 10, 0, 10, 1]);
  });
});

describe('block children on layer 0', () => {
  it('take the colour and linetype of the layer their INSERT is on, and ByBlock ones those of the INSERT', () => {
    const child = (extra: Pairs): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 10], [21, 0], [31, 0], ...extra] });
    const f = flat(
      [{ type: 'INSERT', pairs: [[8, 'Red'], [62, 3], [6, 'DOTTED'], [2, 'B'], [10, 0], [20, 0], [30, 0]] }],
      {
        layers: ['0', 'Red'], layerColors: { Red: 1 }, layerLinetypes: { Red: 'DASHED' },
        linetypes: [{ name: 'DASHED', pattern: [4, -1] }, { name: 'DOTTED', pattern: [0, -2.5] }],
        blocks: [{ name: 'B', entities: [child([]), child([[62, 0], [6, 'BYBLOCK']])] }],
      },
    );
    // ByLayer on layer 0: the Red layer's red and DASHED (10 = 4 + 1 + 4 + 1); ByBlock: the INSERT's green and DOTTED
    const red = f.polylines.filter((p) => p.color === 0xff0000), green = f.polylines.filter((p) => p.color === 0x00ff00);
    expect(red.map((p) => [p.points[0], p.points[2]])).toEqual([[0, 4], [5, 9]]);
    expect(green.map((p) => p.points[0])).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(f.polylines.every((p) => p.layer === 'Red')).toBe(true);
  });
});

describe('SPLINE', () => {
  const w = Math.SQRT1_2;
  it('evaluates a rational quadratic as the exact quarter circle', () => {
    const ctrl = [1, 0, 1, 1, 0, 1];
    const [x, y] = nurbsPoint(2, [0, 0, 0, 1, 1, 1], ctrl, [1, w, 1], 0.5);
    expect(x).toBeCloseTo(w, 12);
    expect(y).toBeCloseTo(w, 12);
    const pts = tessellateNurbs(2, [0, 0, 0, 1, 1, 1], ctrl, [1, w, 1], 1e-4);
    for (let i = 0; i < pts.length; i += 2) expect(Math.abs(Math.hypot(pts[i], pts[i + 1]) - 1)).toBeLessThan(1e-12);
    // chords stay within the tolerance of the arc
    for (let i = 2; i < pts.length; i += 2) expect(1 - Math.hypot((pts[i] + pts[i - 2]) / 2, (pts[i + 1] + pts[i - 1]) / 2)).toBeLessThan(1e-4);
  });

  it('draws a SPLINE entity through its end control points, or through its fit points', () => {
    const f = flat([
      { type: 'SPLINE', pairs: [[8, '0'], [100, 'AcDbSpline'], [70, 8], [71, 3], [72, 8], [73, 4], [74, 0], ...[0, 0, 0, 0, 1, 1, 1, 1].map((k) => [40, k] as [number, number]), [10, 0], [20, 0], [30, 0], [10, 1], [20, 2], [30, 0], [10, 3], [20, 2], [30, 0], [10, 4], [20, 0], [30, 0]] },
      { type: 'SPLINE', pairs: [[8, '0'], [100, 'AcDbSpline'], [70, 8], [71, 3], [72, 0], [73, 0], [74, 3], [11, 0], [21, 10], [31, 0], [11, 5], [21, 15], [31, 0], [11, 10], [21, 10], [31, 0]] },
    ]);
    const [a, b] = f.polylines;
    expect(a.points.slice(0, 2)).toEqual([0, 0]);
    expect(a.points.slice(-2)).toEqual([4, 0]);
    // the Bézier midpoint: (0 + 3·1 + 3·3 + 4)/8, (0 + 3·2 + 3·2 + 0)/8
    const mid = nurbsPoint(3, [0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 2, 3, 2, 4, 0], undefined, 0.5);
    expect(mid[0]).toBeCloseTo(2, 12);
    expect(mid[1]).toBeCloseTo(1.5, 12);
    expect(a.points.some((_, i) => i % 2 === 0 && close(a.points[i], 2, 0.01) && close(a.points[i + 1], 1.5, 0.01))).toBe(true);
    const through = (x: number, y: number) => b.points.some((_, i) => i % 2 === 0 && close(b.points[i], x, 1e-9) && close(b.points[i + 1], y, 1e-9));
    expect(through(0, 10) && through(5, 15) && through(10, 10)).toBe(true);
  });
});

describe('polyline widths, meshes, infinite lines, OCS', () => {
  it('draws a wide LWPOLYLINE as filled bands: constant width and tapered', () => {
    const f = flat([
      { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 2], [70, 0], [43, 2], [10, 0], [20, 0], [10, 10], [20, 0]] },
      { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 2], [70, 0], [10, 0], [20, 5], [40, 2], [41, 0], [10, 10], [20, 5]] },
    ]);
    expect(f.polylines).toHaveLength(2);
    const [band, taper] = f.polylines;
    expect(band.filled && band.closed).toBe(true);
    expect([...band.points]).toEqual([0, 1, 10, 1, 10, -1, 0, -1]);
    expect(Math.abs(ringArea(band.points))).toBeCloseTo(20, 12);
    expect(Math.abs(ringArea(taper.points))).toBeCloseTo(10, 12);
  });

  it('fills the outer corner of a wide polyline with a bevel', () => {
    const f = flat([{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 3], [70, 0], [43, 2], [10, 0], [20, 0], [10, 10], [20, 0], [10, 10], [20, 10]] }]);
    const inside = (r: number[], x: number, y: number) => {
      let odd = false;
      for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) if ((r[i + 1] > y) !== (r[j + 1] > y) && x < ((r[j] - r[i]) * (y - r[i + 1])) / (r[j + 1] - r[i + 1]) + r[i]) odd = !odd;
      return odd;
    };
    // the notch outside the corner (10, 0): covered; beyond the bevel (the miter tip at (11, −1)): not
    expect(f.polylines.some((p) => p.filled && inside(p.points, 10.3, -0.3))).toBe(true);
    expect(f.polylines.some((p) => p.filled && inside(p.points, 10.9, -0.9))).toBe(false);
  });

  it('draws MESH edges and mirrors an ELLIPSE arc with extrusion (0, 0, −1)', () => {
    const f = flat([
      { type: 'MESH', pairs: [[8, '0'], [100, 'AcDbSubDMesh'], [71, 2], [72, 0], [91, 0], [92, 3], [10, 0], [20, 0], [30, 0], [10, 4], [20, 0], [30, 0], [10, 0], [20, 3], [30, 1], [93, 4], [90, 3], [90, 0], [90, 1], [90, 2], [94, 0], [95, 0]] },
      { type: 'ELLIPSE', pairs: [[8, '0'], [100, 'AcDbEllipse'], [10, 0], [20, 0], [30, 0], [11, 2], [21, 0], [31, 0], [210, 0], [220, 0], [230, -1], [40, 0.5], [41, 0], [42, Math.PI / 2]] },
    ]);
    expect(f.polylines.filter((p) => p.entity === 0).map((p) => p.points).sort()).toEqual([[0, 0, 4, 0], [0, 3, 0, 0], [4, 0, 0, 3]].sort());
    // seen from below, the quarter from the major axis end (2, 0) runs clockwise on screen: to (0, −1)
    const arc = f.polylines.find((p) => p.entity === 1)!.points;
    expect(arc.slice(0, 2)).toEqual([2, 0]);
    expect(arc[arc.length - 2]).toBeCloseTo(0, 9);
    expect(arc[arc.length - 1]).toBeCloseTo(-1, 9);
  });

  it('draws a 3D polyline from above, a polyface mesh without its invisible edges, and a polygon mesh as its grid', () => {
    const v = (x: number, y: number, flags: number, extra: Pairs = []): FixtureEntity => ({ type: 'VERTEX', pairs: [[8, '0'], [10, x], [20, y], [30, 5], [70, flags], ...extra] });
    const f = flat([
      { type: 'POLYLINE', pairs: [[8, '0'], [66, 1], [10, 0], [20, 0], [30, 0], [70, 8]] }, v(0, 0, 32), v(3, 4, 32), { type: 'SEQEND', pairs: [[8, '0']] },
      // two triangles of a square; the shared diagonal is invisible in both faces (negative start index)
      { type: 'POLYLINE', pairs: [[8, '0'], [66, 1], [10, 0], [20, 0], [30, 0], [70, 64], [71, 4], [72, 2]] },
      v(0, 0, 192), v(10, 0, 192), v(10, 10, 192), v(0, 10, 192),
      v(0, 0, 128, [[71, 1], [72, 2], [73, -3]]), v(0, 0, 128, [[71, 3], [72, 4], [73, -1]]),
      { type: 'SEQEND', pairs: [[8, '0']] },
      { type: 'POLYLINE', pairs: [[8, '0'], [66, 1], [10, 0], [20, 0], [30, 0], [70, 16], [71, 2], [72, 3]] },
      v(0, 20, 64), v(1, 20, 64), v(2, 20, 64), v(0, 21, 64), v(1, 21, 64), v(2, 21, 64),
      { type: 'SEQEND', pairs: [[8, '0']] },
    ]);
    const byEntity = (i: number) => f.polylines.filter((p) => p.entity === i);
    expect(byEntity(0).map((p) => p.points)).toEqual([[0, 0, 3, 4]]);
    const edges = byEntity(1).map((p) => p.points.join(','));
    expect(edges.sort()).toEqual(['0,0,10,0', '0,10,0,0', '10,0,10,10', '10,10,0,10'].sort());
    const grid = byEntity(2);
    expect(grid.map((p) => p.points.length / 2).sort()).toEqual([2, 2, 2, 3, 3]);
  });

  it('clips XLINE and RAY to the extents grown by a quarter', () => {
    const f = flat(
      [
        { type: 'XLINE', pairs: [[8, '0'], [100, 'AcDbXline'], [10, 50], [20, 50], [30, 0], [11, 1], [21, 0], [31, 0]] },
        { type: 'RAY', pairs: [[8, '0'], [100, 'AcDbRay'], [10, 50], [20, 50], [30, 0], [11, 0], [21, 1], [31, 0]] },
      ],
      { header: [['$EXTMIN', [[10, 0], [20, 0], [30, 0]]], ['$EXTMAX', [[10, 100], [20, 100], [30, 0]]]] },
    );
    expect(f.polylines.map((p) => p.points)).toEqual([[-25, 50, 125, 50], [50, 50, 50, 125]]);
  });

  it('mirrors entities whose extrusion is (0, 0, −1)', () => {
    const f = flat([{ type: 'CIRCLE', pairs: [[8, '0'], [10, 10], [20, 0], [30, 0], [40, 1], [210, 0], [220, 0], [230, -1]] }]);
    const xs = f.polylines[0].points.filter((_, i) => i % 2 === 0);
    expect(Math.min(...xs)).toBeCloseTo(-11, 2);
    expect(Math.max(...xs)).toBeCloseTo(-9, 2);
  });
});

describe('annotations', () => {
  const dimHeader: [string, Pairs][] = [['$DIMASZ', [[40, 2.5]]], ['$DIMTXT', [[40, 2.5]]], ['$DIMEXO', [[40, 0.625]]], ['$DIMEXE', [[40, 1.25]]], ['$DIMDEC', [[70, 2]]], ['$DIMZIN', [[70, 8]]]];

  it('generates a linear DIMENSION that has no block: two extension lines, the dimension line, two arrows, the text 100', () => {
    const f = flat([{ type: 'DIMENSION', pairs: [[8, '0'], [100, 'AcDbDimension'], [10, 100], [20, 20], [30, 0], [11, 50], [21, 21.875], [31, 0], [70, 32], [1, ''], [100, 'AcDbAlignedDimension'], [13, 0], [23, 0], [33, 0], [14, 100], [24, 0], [34, 0], [50, 0], [100, 'AcDbRotatedDimension']] }], { header: dimHeader });
    expect(f.texts.map((t) => t.text)).toEqual(['100']);
    expect(f.texts[0].x).toBe(50);
    const lines = f.polylines.filter((p) => !p.filled).map((p) => p.points.map((v) => +v.toFixed(9)));
    expect(lines).toEqual(expect.arrayContaining([[0, 0.625, 0, 21.25], [100, 0.625, 100, 21.25], [0, 20, 100, 20]]));
    const arrows = f.polylines.filter((p) => p.filled);
    expect(arrows).toHaveLength(2);
    // tips on the extension lines, each 2.5 long and pointing outwards
    expect(arrows.map((a) => [a.points[0], a.points[1], a.points[2]])).toEqual([[0, 20, 2.5], [100, 20, 97.5]]);
    expect(f.skipped).toEqual({});
  });

  it('generates radius, diameter and 3-point angular dimensions', () => {
    const dim = (type: number, pts: Pairs): FixtureEntity => ({ type: 'DIMENSION', pairs: [[8, '0'], [100, 'AcDbDimension'], [70, type], [1, ''], ...pts] });
    const f = flat(
      [
        dim(4, [[10, 0], [20, 0], [30, 0], [11, 8], [21, 0], [31, 0], [15, 5], [25, 0], [35, 0]]),
        dim(3, [[10, -5], [20, 20], [30, 0], [11, 0], [21, 21], [31, 0], [15, 5], [25, 20], [35, 0]]),
        dim(5, [[10, 50 + 5], [20, 5], [30, 0], [13, 60], [23, 0], [33, 0], [14, 50], [24, 10], [34, 0], [15, 50], [25, 0], [35, 0]]),
      ],
      { header: dimHeader },
    );
    expect(f.texts.map((t) => t.text)).toEqual(['R5', '\u230010', '90\u00b0']);
    const radius = f.polylines.filter((p) => p.entity === 0);
    expect(radius[0].points).toEqual([8, 0, 5, 0]);
    // text outside the circle: the arrow at (5, 0) points inwards, its base outside
    expect(radius[1].points.slice(0, 3)).toEqual([5, 0, 7.5]);
    // the angular arc: radius √50 about (50, 0) from 0° to 90°
    const arc = f.polylines.find((p) => p.entity === 2 && !p.filled)!.points;
    for (let i = 0; i < arc.length; i += 2) expect(Math.hypot(arc[i] - 50, arc[i + 1])).toBeCloseTo(Math.sqrt(50), 9);
    expect(arc[0]).toBeCloseTo(50 + Math.sqrt(50), 9);
    expect(arc[arc.length - 2]).toBeCloseTo(50, 9);
  });

  it('draws a LEADER with an arrowhead of $DIMASZ × $DIMSCALE', () => {
    const f = flat([{ type: 'LEADER', pairs: [[8, '0'], [100, 'AcDbLeader'], [3, 'Standard'], [71, 1], [72, 0], [76, 3], [10, 0], [20, 0], [30, 0], [10, 10], [20, 10], [30, 0], [10, 20], [20, 10], [30, 0]] }], { header: [['$DIMASZ', [[40, 2.5]]], ['$DIMSCALE', [[40, 2]]]] });
    const [path, arrow] = f.polylines;
    expect(path.points).toEqual([0, 0, 10, 10, 20, 10]);
    expect(arrow.filled).toBe(true);
    const [tx, ty, bx, by, cx, cy] = arrow.points;
    expect([tx, ty]).toEqual([0, 0]);
    expect(Math.hypot((bx + cx) / 2, (by + cy) / 2)).toBeCloseTo(5, 12);
  });

  it('draws a MULTILEADER from its context data: leader line to the landing, dogleg, arrowhead and MTEXT', () => {
    const f = flat([{ type: 'MULTILEADER', pairs: [[8, '0'], [100, 'AcDbMLeader'], [270, 2], [300, 'CONTEXT_DATA{'], [40, 1], [10, 18], [20, 10], [30, 0], [41, 3], [140, 2], [145, 1], [290, 1], [304, 'NOTE\\PTWO'], [12, 20], [22, 11.5], [32, 0], [13, 1], [23, 0], [33, 0], [42, 0], [43, 0], [171, 1],
      [296, 0], [302, 'LEADER{'], [290, 1], [291, 1], [10, 10], [20, 10], [30, 0], [11, 1], [21, 0], [31, 0], [90, 0], [40, 8], [304, 'LEADER_LINE{'], [10, 0], [20, 0], [30, 0], [91, 0], [305, '}'], [303, '}'], [301, '}'],
      [340, '0'], [170, 1], [291, 1], [41, 8], [42, 2], [172, 2]] }]);
    const lines = f.polylines.filter((p) => !p.filled).map((p) => p.points);
    expect(lines).toEqual([[0, 0, 10, 10], [10, 10, 18, 10]]);
    expect(f.polylines.filter((p) => p.filled)).toHaveLength(1);
    expect(f.texts).toMatchObject([{ kind: 'mtext', text: 'NOTE\nTWO', raw: 'NOTE\\PTWO', x: 20, y: 11.5, height: 3, attachment: 1 }]);
  });

  it('draws the block content of a MULTILEADER, found by its block record handle, placed like an INSERT', () => {
    const f = flat(
      [{ type: 'MULTILEADER', pairs: [[8, '0'], [100, 'AcDbMLeader'], [300, 'CONTEXT_DATA{'], [40, 1], [41, 3], [140, 0], [290, 0], [296, 1], [341, 'AB'], [14, 0], [24, 0], [34, 1], [15, 20], [25, 10], [35, 0], [16, 2], [26, 2], [36, 1], [46, Math.PI / 2], [93, 0],
        [302, 'LEADER{'], [10, 18], [20, 10], [30, 0], [11, 1], [21, 0], [31, 0], [40, 0], [304, 'LEADER_LINE{'], [10, 0], [20, 0], [30, 0], [305, '}'], [303, '}'], [301, '}'], [170, 1], [291, 0], [172, 1]] }],
      { blocks: [{ name: 'TAG', entities: [{ type: 'LINE', pairs: [[330, 'AB'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 1], [21, 0], [31, 0]] }] }] },
    );
    expect(f.skipped).toEqual({});
    const lines = f.polylines.map((p) => p.points.map((v) => +v.toFixed(9)));
    // the leader to the landing, and the block's line scaled 2 and turned 90° at (20, 10)
    expect(lines).toEqual([[0, 0, 18, 10], [20, 10, 20, 12]]);
  });

  it('draws MLINE elements at their offsets, IMAGE and WIPEOUT frames, ACAD_TABLE through its block', () => {
    const f = flat(
      [
        { type: 'MLINE', pairs: [[8, '0'], [100, 'AcDbMline'], [2, 'STANDARD'], [40, 1], [70, 0], [71, 1], [72, 2], [73, 2], [10, 0], [20, 0], [30, 0], [210, 0], [220, 0], [230, 1],
          [11, 0], [21, 0], [31, 0], [12, 1], [22, 0], [32, 0], [13, 0], [23, 1], [33, 0], [74, 2], [41, 0.5], [41, 0], [75, 0], [74, 2], [41, -0.5], [41, 0], [75, 0],
          [11, 10], [21, 0], [31, 0], [12, 1], [22, 0], [32, 0], [13, 0], [23, 1], [33, 0], [74, 2], [41, 0.5], [41, 0], [75, 0], [74, 2], [41, -0.5], [41, 0], [75, 0]] },
        { type: 'IMAGE', pairs: [[8, '0'], [100, 'AcDbRasterImage'], [10, 5], [20, 5], [30, 0], [11, 0.1], [21, 0], [31, 0], [12, 0], [22, 0.1], [32, 0], [13, 100], [23, 50], [340, 'ABC']] },
        { type: 'ACAD_TABLE', pairs: [[8, '0'], [100, 'AcDbBlockReference'], [2, '*T1'], [10, 100], [20, 100], [30, 0], [100, 'AcDbTable'], [11, 1], [21, 0], [31, 0]] },
      ],
      { blocks: [{ name: '*T1', entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 10], [21, -5], [31, 0]] }] }] },
    );
    const byEntity = (i: number) => f.polylines.filter((p) => p.entity === i).map((p) => p.points);
    expect(byEntity(0)).toEqual([[0, 0.5, 10, 0.5], [0, -0.5, 10, -0.5]]);
    expect(byEntity(1)).toEqual([[5, 5, 15, 5, 15, 10, 5, 10]]);
    expect(f.images).toEqual([{ entity: 1, corners: [5, 5, 15, 5, 15, 10, 5, 10], clip: undefined, imageDefHandle: 'ABC', wipeout: undefined, layer: '0', order: 2, adjust: undefined }]);
    expect(byEntity(2)).toEqual([[100, 100, 110, 95]]);
  });

  it('draws a table without block name through the *T block no entity names; one without insertion point not at all (reported)', () => {
    const line = (x: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [10, x], [20, 0], [30, 0], [11, x + 10], [21, -5], [31, 0]] });
    const f = flat(
      [
        { type: 'ACAD_TABLE', pairs: [] },
        { type: 'ACAD_TABLE', pairs: [[8, '0'], [100, 'AcDbBlockReference'], [2, '*T2'], [10, 100], [20, 100], [30, 0], [100, 'AcDbTable'], [11, 1], [21, 0], [31, 0]] },
        // placed (by the DWG reader, from the table's graphics) but with no block named: the *T block no entity names
        { type: 'ACAD_TABLE', pairs: [[8, '0'], [100, 'AcDbBlockReference'], [10, -20], [20, 0], [30, 0], [100, 'AcDbTable'], [11, 1], [21, 0], [31, 0]] },
      ],
      { blocks: [{ name: '*T1', entities: [line(0)] }, { name: '*T2', entities: [line(50)] }, { name: '*T3', entities: [line(7)] }] },
    );
    const byEntity = (i: number) => f.polylines.filter((p) => p.entity === i).map((p) => p.points);
    // the first table's insertion point is unknown: drawn at the origin it would sit in the wrong place, so it is not
    // drawn; *T2 is named by the second table; the third takes the first *T block no entity names, *T1
    expect(byEntity(0)).toEqual([]);
    expect(byEntity(1)).toEqual([[150, 100, 160, 95]]);
    expect(byEntity(2)).toEqual([[-20, 0, -10, -5]]);
    expect(f.skipped).toEqual({ 'ACAD_TABLE:position': 1 });
  });
});

describe('what is not drawn', () => {
  it('leaves out ATTDEFs of blocks, invisible attributes and invisible entities, counted at the top level', () => {
    const attdef = (tag: string, flags: number): FixtureEntity => ({ type: 'ATTDEF', pairs: [[8, '0'], [100, 'AcDbText'], [10, 0], [20, 0], [30, 0], [40, 1], [1, `${tag}-value`], [100, 'AcDbAttributeDefinition'], [3, 'prompt'], [2, tag], [70, flags]] });
    const attrib = (tag: string, flags: number): FixtureEntity => ({ type: 'ATTRIB', pairs: [[8, '0'], [100, 'AcDbText'], [10, 0], [20, 0], [30, 0], [40, 1], [1, `${tag}-shown`], [100, 'AcDbAttribute'], [2, tag], [70, flags]] });
    const f = flat(
      [
        { type: 'INSERT', pairs: [[8, '0'], [66, 1], [2, 'TAGS'], [10, 0], [20, 0], [30, 0]] }, attrib('A', 0), attrib('H', 1), { type: 'SEQEND', pairs: [[8, '0']] },
        attdef('TOP', 0),
        { type: 'LINE', pairs: [[8, '0'], [60, 1], [10, 0], [20, 0], [30, 0], [11, 1], [21, 1], [31, 0]] },
        { type: 'ATTRIB', pairs: [[8, '0'], [100, 'AcDbText'], [10, 0], [20, 0], [30, 0], [40, 1], [1, 'lonely'], [100, 'AcDbAttribute'], [2, 'X'], [70, 1]] },
      ],
      { blocks: [{ name: 'TAGS', entities: [attdef('A', 0), attdef('H', 0), attdef('C', 2)] }] },
    );
    expect(f.texts.map((t) => t.text).sort()).toEqual(['A-shown', 'C-value', 'TOP']);
    expect(f.omitted).toEqual({ LINE: 1, ATTRIB: 1 });
    expect(f.polylines).toHaveLength(0);
  });

  it('counts as omitted what draws nothing on purpose: empty blocks, patterns missing a small area, lights; draws OLE frames and ARC_DIMENSION blocks', () => {
    const f = flat(
      [
        { type: 'INSERT', pairs: [[8, '0'], [2, 'EMPTY'], [10, 0], [20, 0], [30, 0]] },
        hatch([[10, 20.5, 11, 20.5, 11, 20.9]], ansi31(50)),
        { type: 'LIGHT', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0]] },
        { type: 'OLE2FRAME', pairs: [[8, '0'], [100, 'AcDbOle2Frame'], [70, 2], [10, 0], [20, 10], [30, 0], [11, 20], [21, 0], [31, 0]] },
        { type: 'ARC_DIMENSION', pairs: [[8, '0'], [100, 'AcDbDimension'], [2, '*D1'], [70, 32]] },
      ],
      { blocks: [{ name: 'EMPTY', entities: [] }, { name: '*D1', entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 1], [21, 1], [31, 0]] }] }] },
    );
    expect(f.omitted).toEqual({ INSERT: 1, HATCH: 1, LIGHT: 1 });
    expect(f.skipped).toEqual({});
    expect(f.polylines.map((p) => [f.entities[p.entity].type, p.points])).toEqual([['OLE2FRAME', [0, 10, 20, 10, 20, 0, 0, 0]], ['ARC_DIMENSION', [0, 0, 1, 1]]]);
  });

  it('places a DIMENSION block at the dimension insertion point (12/22) when it has one, as R12-era drawings need', () => {
    const line: FixtureEntity = { type: 'LINE', pairs: [[8, '0'], [10, 20], [20, 2], [30, 0], [11, 21], [21, 2], [31, 0]] };
    const dim = (pts: Pairs): FixtureEntity => ({ type: 'DIMENSION', pairs: [[8, '0'], [2, '*D0'], [10, 1], [20, 4], [30, 0], ...pts, [70, 0], [13, 0], [23, 4], [14, 1], [24, 4]] });
    const f = flat([dim([[12, -20], [22, 2], [32, 0]]), dim([])], { blocks: [{ name: '*D0', entities: [line] }] });
    expect(f.polylines.map((p) => p.points)).toEqual([[0, 4, 1, 4], [20, 2, 21, 2]]);
  });

  it('stops expanding nested arrays past the entity budget and says so', () => {
    const array = (name: string): FixtureEntity => ({ type: 'INSERT', pairs: [[8, '0'], [2, name], [10, 0], [20, 0], [30, 0], [70, 100], [71, 100], [44, 1], [45, 1]] });
    const d = parseDxf(writeAsciiDxf({ blocks: [{ name: 'A', entities: [array('B')] }, { name: 'B', entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 1], [21, 0], [31, 0]] }] }], entities: [array('A')] }));
    const f = flattenModelSpace(d, { maxEntities: 50_000 });
    expect(f.polylines.length).toBeGreaterThan(40_000);
    expect(f.polylines.length).toBeLessThanOrEqual(60_000);
    expect(f.skipped['INSERT:limit']).toBeGreaterThan(0);
  });

  it('counts entities it cannot draw', () => {
    const f = flat([{ type: '3DSOLID', pairs: [[8, '0'], [1, 'ACIS']] }, { type: 'REGION', pairs: [[8, '0']] }, { type: 'TOLERANCE', pairs: [[8, '0'], [1, '{\\Fgdt;j}%%v']] }]);
    expect(f.skipped).toEqual({ '3DSOLID': 1, REGION: 1, TOLERANCE: 1 });
  });

  it('draws a REGION from its ACIS SAT text: straight and elliptic edges seen from above', () => {
    const sat = [
      '700 0 1 0', '@4 test @4 ACIS @24 Fri May 13 10:01:59 2022', '1 9.9999999999999995e-007 1e-010',
      'point $-1 -1 $-1 0 0 0 #', 'point $-1 -1 $-1 10 0 3 #', 'vertex $-1 -1 $-1 $4 $0 #', 'vertex $-1 -1 $-1 $4 $1 #',
      'edge $-1 -1 $-1 $2 0 $3 10 $-1 $5 forward @7 unknown #', 'straight-curve $-1 -1 $-1 0 0 0 1 0 0 I I #',
      'point $-1 -1 $-1 25 20 0 #', 'vertex $-1 -1 $-1 $8 $6 #', 'edge $-1 -1 $-1 $7 0 $7 6.283185307179586 $-1 $9 forward @7 unknown #',
      'ellipse-curve $-1 -1 $-1 20 20 0 0 0 1 5 0 0 1 I I #', 'End-of-ACIS-data',
    ];
    // every character but the space is stored as 159 − its code
    const encode = (line: string) => [...line].map((ch) => (ch === ' ' ? ' ' : String.fromCharCode(159 - ch.charCodeAt(0)))).join('');
    const f = flat([{ type: 'REGION', pairs: [[8, '0'], [100, 'AcDbModelerGeometry'], [70, 1], ...sat.map((l) => [1, encode(l)] as [number, string])] }]);
    expect(f.skipped).toEqual({});
    expect(f.polylines[0].points).toEqual([0, 0, 10, 0]);
    const circle = f.polylines[1].points;
    expect(circle.length).toBeGreaterThan(40);
    for (let i = 0; i < circle.length; i += 2) expect(Math.hypot(circle[i] - 20, circle[i + 1] - 20)).toBeCloseTo(5, 9);
  });
});

describe('damaged entities', () => {
  it('never throw, hang or hand non-finite numbers to the renderers', () => {
    const d = parseDxf(writeAsciiDxf({ blocks: [{ name: 'B', entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 1]] }] }], entities: [] }));
    const arc: Pairs = [[92, 0], [93, 2], [72, 2], [10, 30], [20, 30], [40, 10], [50, 0], [51, 180], [73, 1], [72, 4], [94, 3], [73, 0], [74, 0], [95, 8], [96, 4], ...[0, 0, 0, 0, 1, 1, 1, 1].map((k) => [40, k] as [number, number]), [10, 20], [20, 30], [10, 20], [20, 0], [10, 40], [20, 0], [10, 40], [20, 30], [97, 0]];
    const samples: FixtureEntity[] = [
      hatch([square(0, 0, 100), square(40, 40, 10)], ansi31(), arc),
      hatch([square(0, 0, 10)], []),
      { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 3], [70, 1], [43, 2], [10, 0], [20, 0], [42, 0.5], [10, 10], [20, 0], [40, 1], [41, 3], [10, 10], [20, 10]] },
      { type: 'SPLINE', pairs: [[8, '0'], [100, 'AcDbSpline'], [70, 8], [71, 3], [72, 8], [73, 4], ...[0, 0, 0, 0, 1, 1, 1, 1].map((k) => [40, k] as [number, number]), [41, 1], [41, 2], [41, 1], [41, 1], [10, 0], [20, 0], [10, 1], [20, 2], [10, 3], [20, 2], [10, 4], [20, 0]] },
      { type: 'DIMENSION', pairs: [[8, '0'], [10, 100], [20, 20], [11, 50], [21, 25], [70, 0], [13, 0], [23, 0], [14, 100], [24, 0], [50, 0]] },
      { type: 'DIMENSION', pairs: [[8, '0'], [10, 5], [20, 5], [70, 2], [13, 0], [23, 0], [14, 10], [24, 0], [15, 0], [25, 0], [16, 5], [26, 5]] },
      { type: 'LEADER', pairs: [[8, '0'], [100, 'AcDbLeader'], [71, 1], [72, 1], [10, 0], [20, 0], [10, 10], [20, 10], [10, 20], [20, 10]] },
      { type: 'MLINE', pairs: [[8, '0'], [100, 'AcDbMline'], [40, 1], [71, 3], [73, 2], [11, 0], [21, 0], [12, 1], [22, 0], [13, 0], [23, 1], [74, 1], [41, 0.5], [75, 0], [74, 1], [41, -0.5], [75, 0], [11, 10], [21, 0], [12, 1], [22, 0], [13, 0], [23, 1], [74, 1], [41, 0.5], [75, 0], [74, 1], [41, -0.5], [75, 0]] },
      { type: 'MESH', pairs: [[8, '0'], [100, 'AcDbSubDMesh'], [92, 3], [10, 0], [20, 0], [10, 4], [20, 0], [10, 0], [20, 3], [93, 4], [90, 3], [90, 0], [90, 1], [90, 2]] },
      { type: 'IMAGE', pairs: [[8, '0'], [10, 5], [20, 5], [11, 0.1], [21, 0], [12, 0], [22, 0.1], [13, 100], [23, 50], [91, 3], [14, 0], [24, 0], [14, 50], [24, 0], [14, 50], [24, 25]] },
      { type: 'INSERT', pairs: [[8, '0'], [2, 'B'], [10, 0], [20, 0], [41, 2], [42, -1], [50, 30], [70, 3], [71, 2], [44, 5], [45, 5], [210, 0], [220, 0], [230, -1]] },
      { type: 'XLINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 1], [21, 1]] },
      { type: 'ELLIPSE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 3], [21, 0], [40, 0.5], [41, 0], [42, 3]] },
    ];
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const values = [NaN, Infinity, -1e300, 1e12, 0, -1, 2.5];
    const codes = [10, 20, 40, 41, 42, 43, 49, 70, 71, 72, 73, 74, 75, 78, 79, 90, 91, 92, 93, 94, 95, 96, 97];
    for (let iter = 0; iter < 1500; iter++) {
      const base = samples[iter % samples.length];
      const pairs = base.pairs.map((p) => [p[0], p[1]] as [number, string | number]);
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
        const i = Math.floor(rnd() * pairs.length), r = rnd();
        if (r < 0.3) pairs.splice(i, 1);
        else if (r < 0.6 && typeof pairs[i]?.[1] === 'number') pairs[i][1] = values[Math.floor(rnd() * values.length)];
        else if (r < 0.8) pairs.splice(i, 0, [...pairs[Math.floor(rnd() * pairs.length)]]);
        else if (pairs[i]) pairs[i][0] = codes[Math.floor(rnd() * codes.length)];
      }
      const e: Entity = { type: base.type, layer: '0', color: 256, paperSpace: false, pairs };
      const started = performance.now();
      const f = flattenEntities(d, [e], { tolerance: 0.01 });
      expect(performance.now() - started).toBeLessThan(2000);
      for (const p of f.polylines) expect(p.points.every(Number.isFinite)).toBe(true);
      for (const t of f.texts) expect([t.x, t.y, t.height].every(Number.isFinite)).toBe(true);
    }
  });
});
