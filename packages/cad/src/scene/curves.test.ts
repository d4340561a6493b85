import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { curveDxf, expected } from '../testing/curve-fixture.ts';
import { flattenLayout, layoutNames } from '../geometry/layout.ts';
import { chordError, curvePoint, curveRadius, CURVE_MAX_SEGMENTS } from '../geometry/curve.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';
import { entityBounds, pickEntity, snapPoint } from './pick.ts';
import { bucketSegments, curveCount, curveTile, CURVE_FLOATS, CURVE_TOLERANCE_PX, sceneCurve, sizeClass, sweepClass, tessellateSceneCurves } from './curves.ts';
import type { Scene } from './scene.types.ts';

const build = (bytes: Uint8Array, layout = 'Model') => {
  const d = parseDxf(bytes);
  return decodeScene(encodeScene(compileScene(d, flattenLayout(d, layout, { curves: true })!, { layout, layouts: layoutNames(d) })));
};

describe('scene format 4: curves as records', () => {
  const s = build(curveDxf);
  const [ox, oy] = s.meta.origin;

  it('stores every continuous curve as a record that evaluates to the exact curve (float32 relative to the origin)', () => {
    const n = curveCount(s);
    expect(n).toBe([...expected.values()].reduce((a, e) => a + e.length, 0));
    expect(s.curveEntities.length).toBe(n);
    for (const [h, exact] of expected) {
      const ref = s.meta.entities.findIndex((e) => e.handle === h);
      const mine = Array.from({ length: n }, (_, i) => i).filter((i) => s.curveEntities[i] === ref);
      expect(mine.length, h).toBe(exact.length);
      for (const e of exact) {
        // the best matching record of the entity (records are reordered into buckets)
        const errs = mine.map((i) => {
          const g = sceneCurve(s, i);
          let worst = 0;
          for (const dir of [0, 1]) {
            let w = 0;
            for (let k = 0; k <= 64; k++) {
              const u = k / 64;
              const [x, y] = curvePoint(g, g.t0 + g.sweep * u), [qx, qy] = e.at(dir ? 1 - u : u);
              w = Math.max(w, Math.hypot(x + ox - qx, y + oy - qy));
            }
            worst = dir ? Math.min(worst, w) : w;
          }
          // float32: ~6e-8 of the centre's distance from the origin, of the axes and of the parameters
          return worst / (1e-6 * (Math.hypot(g.cx, g.cy) + e.size));
        });
        expect(Math.min(...errs), h).toBeLessThanOrEqual(1);
      }
    }
  });

  it('buckets the records by size and sweep class, each bucket ordered by tile as the viewer computes it', () => {
    const buckets = s.meta.curveBuckets!;
    let next = 0;
    for (const [size, sweep, first, count, maxR, maxSweep] of buckets) {
      expect(first).toBe(next);
      next += count;
      let lastTile = -1;
      for (let i = first; i < first + count; i++) {
        const g = sceneCurve(s, i);
        const r = curveRadius(g.ux, g.uy, g.vx, g.vy);
        expect(sizeClass(r)).toBe(size);
        expect(sweepClass(g.sweep)).toBe(sweep);
        expect(r).toBeLessThanOrEqual(maxR);
        expect(g.sweep).toBeLessThanOrEqual(maxSweep);
        const tile = curveTile(g.cx, g.cy, s.meta.bounds, s.meta.origin);
        expect(tile).toBeGreaterThanOrEqual(lastTile);
        lastTile = tile;
      }
    }
    expect(next).toBe(curveCount(s));
    // circles of radius 1e-3 … 1e5: at least nine size classes
    expect(new Set(buckets.map((b) => b[0])).size).toBeGreaterThanOrEqual(9);
  });

  it('the segment count the viewer picks for a zoom keeps every record of a bucket within 0.25 px', () => {
    let capped = 0;
    for (let e = -6; e <= 6; e += 0.5) {
      const ppu = 10 ** e;
      for (const b of s.meta.curveBuckets!) {
        const n = bucketSegments(b, ppu);
        if (n === CURVE_MAX_SEGMENTS) {
          // only circles of more than ~850,000 px radius reach the cap
          expect(b[4] * ppu).toBeGreaterThan(8e5);
          capped++;
          continue;
        }
        for (let i = b[2]; i < b[2] + b[3]; i++) {
          const g = sceneCurve(s, i);
          expect(chordError(curveRadius(g.ux, g.uy, g.vx, g.vy) * ppu, g.sweep, n)).toBeLessThanOrEqual(CURVE_TOLERANCE_PX);
        }
      }
    }
    expect(capped).toBeGreaterThan(0);
  });

  it('sends the dashed circle as its dashes, exact arcs, and nothing of it in the line buffer', () => {
    const dashed = s.meta.entities.findIndex((e) => e.handle === [...expected.keys()].at(-1));
    expect([...s.lineEntities]).not.toContain(dashed);
    expect([...s.curveEntities].filter((e) => e === dashed).length).toBe(21);
  });
});

describe('picking, snapping and bounds on exact curves', () => {
  const s = build(writeAsciiDxf({
    layers: ['0', 'C', 'Hidden'],
    entities: [
      { type: 'CIRCLE', pairs: [[5, 'C1'], [8, 'C'], [62, 1], [10, 0], [20, 0], [30, 0], [40, 10]] },
      { type: 'ARC', pairs: [[5, 'A1'], [8, 'C'], [10, 50], [20, 0], [30, 0], [40, 5], [50, 0], [51, 90]] },
      { type: 'CIRCLE', pairs: [[5, 'H1'], [8, 'Hidden'], [10, 0], [20, 40], [30, 0], [40, 3]] },
      { type: 'LINE', pairs: [[5, 'L1'], [8, '0'], [10, -100], [20, -100], [11, 100], [21, 100]] },
    ],
  }));
  const id = (h: string) => s.meta.entities.findIndex((e) => e.handle === h);
  const layer = (n: string) => s.meta.layers.findIndex((l) => l.name === n);

  it('has no chords: a point on the true circle between any two of its old vertices picks it at a tight tolerance', () => {
    expect(curveCount(s)).toBe(3);
    // the old compile-time tessellation (extent 283 / 4000 ≈ 0.07) would sit up to 0.07 inside the circle
    for (let a = 0; a < 360; a += 7.3) {
      const x = 10 * Math.cos((a * Math.PI) / 180), y = 10 * Math.sin((a * Math.PI) / 180);
      // the diagonal line passes through the circle at 45° and 225°
      if (Math.abs(((a - 45 + 360) % 180)) < 1) continue;
      expect(pickEntity(s, x, y, 1e-4), `at ${a}°`).toBe(id('C1'));
    }
    expect(pickEntity(s, 9.5, 0, 0.4)).toBeNull();
    expect(pickEntity(s, 9.5, 0, 0.6)).toBe(id('C1'));
    // the arc covers 0°…90° only
    expect(pickEntity(s, 50 + 5 * Math.cos(1), 5 * Math.sin(1), 1e-4)).toBe(id('A1'));
    expect(pickEntity(s, 45, 0, 0.5)).toBeNull();
  });

  it('leaves hidden layers out of picking and snapping', () => {
    const all = new Set(s.meta.layers.map((_, i) => i));
    const shown = new Set([...all].filter((i) => i !== layer('Hidden')));
    expect(pickEntity(s, 3, 40, 1e-3, all)).toBe(id('H1'));
    expect(pickEntity(s, 3, 40, 1e-3, shown)).toBeNull();
    expect(snapPoint(s, 0.5, 40.5, 2, all)).toEqual({ x: 0, y: 40 });
    expect(snapPoint(s, 0.5, 40.5, 2, shown)).toBeNull();
  });

  it('snaps to centres and arc ends (drawing coordinates, float32 exact for these)', () => {
    expect(snapPoint(s, 0.7, -0.4, 2)).toEqual({ x: 0, y: 0 });
    const end = snapPoint(s, 55.3, 0.2, 2)!;
    expect(end.x).toBeCloseTo(55, 5);
    expect(end.y).toBeCloseTo(0, 5);
    const top = snapPoint(s, 50.2, 5.3, 2)!;
    expect(top.x).toBeCloseTo(50, 5);
    expect(top.y).toBeCloseTo(5, 5);
    // a line's end still wins when it is nearer
    expect(snapPoint(s, 99, 99, 5)).toEqual({ x: 100, y: 100 });
    expect(snapPoint(s, 30, 30.5, 0.1)).toBeNull();
  });

  it('bounds curves exactly (zoom to a selected circle or arc)', () => {
    const b = entityBounds(s, id('C1'))!;
    expect([b.minX, b.minY, b.maxX, b.maxY].map((v) => +v.toFixed(4))).toEqual([-10, -10, 10, 10]);
    const a = entityBounds(s, id('A1'))!;
    expect([a.minX, a.minY, a.maxX, a.maxY].map((v) => +v.toFixed(4))).toEqual([50, 0, 55, 5]);
  });

  it('tessellates the records for tools that read segments, within the tolerance', () => {
    const t = tessellateSceneCurves(s, 0.01);
    const [ox, oy] = s.meta.origin;
    const c1 = id('C1');
    let n = 0;
    for (let i = 0; i < t.entities.length; i++) {
      if (t.entities[i] !== c1) continue;
      n++;
      const mx = (t.positions[i * 4] + t.positions[i * 4 + 2]) / 2 + ox, my = (t.positions[i * 4 + 1] + t.positions[i * 4 + 3]) / 2 + oy;
      expect(10 - Math.hypot(mx, my)).toBeLessThanOrEqual(0.01 + 1e-4);
      expect([...t.colors.subarray(i * 4, i * 4 + 4)]).toEqual([255, 0, 0, 255]);
      expect(t.layers[i]).toBe(layer('C'));
    }
    expect(n).toBeGreaterThan(40);
  });

  it('records carry their layer index and colour for the viewer', () => {
    for (let i = 0; i < curveCount(s); i++) {
      const e = s.meta.entities[s.curveEntities[i]];
      expect(s.meta.layers[s.curves[i * CURVE_FLOATS + 8]].name).toBe(e.layer);
      expect(s.curves[i * CURVE_FLOATS + 9]).toBe(e.color);
    }
  });
});

describe('curves float32 cannot hold', () => {
  it('bakes a near-straight bulge of enormous radius into segments, keeps a normal one as a record', () => {
    const s = build(writeAsciiDxf({
      layers: ['0'],
      entities: [
        // bulge 1e-9 over a chord of 100: radius 2.5e10, its centre 2.5e10 away
        { type: 'LWPOLYLINE', pairs: [[5, 'F1'], [8, '0'], [90, 2], [70, 0], [10, 0], [20, 0], [42, 1e-9], [10, 100], [20, 0]] },
        { type: 'LWPOLYLINE', pairs: [[5, 'F2'], [8, '0'], [90, 2], [70, 0], [10, 0], [20, 10], [42, 0.5], [10, 100], [20, 10]] },
      ],
    }));
    const f1 = s.meta.entities.findIndex((e) => e.handle === 'F1');
    expect([...s.curveEntities]).toEqual([s.meta.entities.findIndex((e) => e.handle === 'F2')]);
    const segs = s.lineEntities.map((e, i) => (e === f1 ? i : -1)).filter((i) => i >= 0);
    expect(segs.length).toBeGreaterThanOrEqual(1);
    const [ox, oy] = s.meta.origin;
    // the segments run from (0, 0) to (100, 0), within float32 of the (invisible) arc
    expect(s.linePositions[segs[0] * 4] + ox).toBeCloseTo(0, 4);
    expect(s.linePositions[segs.at(-1)! * 4 + 2] + ox).toBeCloseTo(100, 4);
    for (const i of segs) expect(Math.abs(s.linePositions[i * 4 + 1] + oy)).toBeLessThan(1e-3);
  });
});

describe('curves seen through a paper viewport', () => {
  it('are records cut at the viewport border', () => {
    const s: Scene = build(writeAsciiDxf({
      layers: ['0'],
      entities: [
        { type: 'CIRCLE', pairs: [[5, 'A0'], [8, '0'], [10, 0], [20, 0], [30, 0], [40, 10]] },
        { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100], [20, 100], [40, 30], [41, 30], [68, 1], [69, 2], [12, 0], [22, 0], [45, 15]] },
      ],
    }), 'Layout1');
    expect(curveCount(s)).toBe(4);
    expect(s.meta.bounds.minX).toBeGreaterThanOrEqual(85 - 1e-9);
    expect(s.meta.bounds.maxX).toBeLessThanOrEqual(115 + 1e-9);
  });
});
