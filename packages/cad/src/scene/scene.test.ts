import { beforeAll, describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { flattenLayout, layoutNames } from '../geometry/layout.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';
import { entityBounds, pickEntity } from './pick.ts';
import { runValueAt } from './runs.ts';
import { loadFonts, textGeometry, textGlyphs, type FontSet } from '../text/index.ts';
import type { Scene } from './scene.types.ts';

const d = parseDxf(writeAsciiDxf({
  layers: ['0', 'A', 'B'],
  entities: [
    { type: 'LINE', pairs: [[5, '1F'], [8, 'A'], [62, 1], [370, 50], [10, 0], [20, 0], [11, 100], [21, 0]] },
    { type: 'LWPOLYLINE', pairs: [[5, '20'], [8, 'B'], [90, 4], [70, 1], [10, 10], [20, 10], [10, 20], [20, 10], [10, 20], [20, 20], [10, 10], [20, 20]] },
    { type: 'SOLID', pairs: [[5, '21'], [8, 'B'], [10, 50], [20, 50], [11, 60], [21, 50], [12, 50], [22, 60], [13, 60], [23, 60]] },
    // paper space: a viewport 100 wide showing model x 0…50 (scale 2), so the line is cut at its border
    { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100], [20, 100], [40, 100], [41, 50], [68, 1], [69, 2], [12, 25], [22, 0], [45, 25]] },
  ],
}));
const scene = (layout: string) => compileScene(d, flattenLayout(d, layout)!, { layout, layouts: layoutNames(d) });

describe('scene compiler', () => {
  it('groups geometry by layer into line and triangle ranges, with weights, and survives the binary round trip', () => {
    const s = decodeScene(encodeScene(scene('Model')));
    const name = (i: number) => s.meta.layers[i].name;
    expect(s.meta.layouts).toEqual(['Model', 'Layout1']);
    expect(s.meta.lineRanges.map(([l, , n]) => [name(l), n])).toEqual([['A', 2], ['B', 8]]);
    expect(s.meta.triRanges.map(([l, , n]) => [name(l), n])).toEqual([['B', 6]]);
    expect([...s.lineWeights]).toEqual([50, 0, 0, 0, 0]);
    expect(s.meta.entities.map((e) => e.handle)).toEqual(['1F', '20', '21']);
    expect(s.meta.bounds).toEqual({ minX: 0, minY: 0, maxX: 100, maxY: 60 });
  });

  it('picks the entity under a point and bounds it', () => {
    const s = scene('Model');
    expect(s.meta.entities[pickEntity(s, 70, 0.4, 1)!].handle).toBe('1F');
    expect(s.meta.entities[pickEntity(s, 15, 19.8, 1)!].handle).toBe('20');
    expect(s.meta.entities[pickEntity(s, 55, 55, 1)!].handle).toBe('21'); // inside the solid
    expect(pickEntity(s, 80, 40, 1)).toBeNull();
    expect(entityBounds(s, 1)).toEqual({ minX: 10, minY: 10, maxX: 20, maxY: 20 });
  });

  it('draws model space through a paper viewport, scaled and clipped to it', () => {
    const s = scene('Layout1');
    const [ox, oy] = s.meta.origin;
    const red: number[] = [];
    for (let v = 0; v < s.lineColors.length / 4; v++) if (s.lineColors[v * 4] === 255 && s.lineColors[v * 4 + 1] === 0) red.push(s.linePositions[v * 2] + ox, s.linePositions[v * 2 + 1] + oy);
    // model (0,0)-(100,0) → paper (100 + (x - 25) · 2, 100 + y · 2): 50…250 at y 100, cut at the viewport's right edge 150
    expect(red.map((n) => Math.round(n * 1000) / 1000)).toEqual([50, 100, 150, 100]);
  });
});

describe('scene format 3: per-primitive colours, entity runs, instanced glyphs', () => {
  // 80 E's (instanced: used often), one Z (baked), 24 中 (a filled outline glyph, instanced), a line
  const dt = parseDxf(writeAsciiDxf({
    layers: ['0', 'T', 'U', 'L'],
    entities: [
      { type: 'LINE', pairs: [[5, '30'], [8, 'L'], [62, 3], [10, 0], [20, -50], [11, 100], [21, -50]] },
      { type: 'TEXT', pairs: [[5, '31'], [8, 'T'], [62, 1], [10, 10], [20, 20], [40, 2.5], [50, 30], [1, 'E'.repeat(80)]] },
      { type: 'TEXT', pairs: [[5, '32'], [8, 'T'], [10, 0], [20, 80], [40, 4], [1, 'Z']] },
      { type: 'TEXT', pairs: [[5, '33'], [8, 'U'], [62, 5], [10, 0], [20, 120], [40, 5], [1, '\\U+4E2D'.repeat(24)]] },
    ],
  }));
  const flat = flattenLayout(dt, 'Model')!;
  let fonts: FontSet;
  beforeAll(async () => {
    fonts = await loadFonts(dt, async () => null);
  });
  const baked = () => compileScene(dt, flat, { layout: 'Model', layouts: ['Model'], textGeometry: (r) => textGeometry(r, dt, fonts) });
  const instanced = () => compileScene(dt, flat, { layout: 'Model', layouts: ['Model'], textGeometry: (r) => textGeometry(r, dt, fonts), textGlyphs: (r) => textGlyphs(r, dt, fonts) });
  const entityOf = (s: Scene, handle: string) => s.meta.entities.findIndex((e) => e.handle === handle);

  /** Every segment and triangle of one entity in drawing units, instanced glyphs expanded. */
  function geometryOf(s: Scene, entity: number) {
    const [ox, oy] = s.meta.origin;
    const segs: number[][] = [], tris: number[][] = [];
    const le = s.lineEntities, te = s.triEntities;
    for (let i = 0; i < le.length; i++) if (le[i] === entity) segs.push([...s.linePositions.subarray(i * 4, i * 4 + 4)].map((v, k) => v + (k % 2 ? oy : ox)));
    for (let i = 0; i < te.length; i++) if (te[i] === entity) tris.push([...s.triPositions.subarray(i * 6, i * 6 + 6)].map((v, k) => v + (k % 2 ? oy : ox)));
    for (const [lf, lc, tf, tc, first, count] of s.meta.glyphs ?? []) {
      for (let i = first; i < first + count; i++) {
        if (s.glyphInstanceEntities[i] !== entity) continue;
        const [a, b, c, d, e, f] = s.glyphInstances.subarray(i * 8, i * 8 + 6);
        const map = (p: Float32Array, v0: number, n: number) => {
          const out: number[] = [];
          for (let v = v0; v < v0 + n; v++) out.push(a * p[v * 2] + c * p[v * 2 + 1] + e + ox, b * p[v * 2] + d * p[v * 2 + 1] + f + oy);
          return out;
        };
        for (let v = lf; v < lf + lc; v += 2) segs.push(map(s.glyphLinePositions, v, 2));
        for (let v = tf; v < tf + tc; v += 3) tris.push(map(s.glyphTriPositions, v, 3));
      }
    }
    const len = segs.reduce((a, q) => a + Math.hypot(q[2] - q[0], q[3] - q[1]), 0);
    const area = tris.reduce((a, t) => a + Math.abs((t[2] - t[0]) * (t[5] - t[1]) - (t[4] - t[0]) * (t[3] - t[1])) / 2, 0);
    const xs = [...segs.flatMap((q) => [q[0], q[2]]), ...tris.flatMap((t) => [t[0], t[2], t[4]])];
    const ys = [...segs.flatMap((q) => [q[1], q[3]]), ...tris.flatMap((t) => [t[1], t[3], t[5]])];
    return { segments: segs.length, triangles: tris.length, len, area, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
  }

  it('bounds the drawing with its text geometry, not only the insertion points (zoom to fit shows whole titles)', () => {
    for (const s of [baked(), instanced()]) {
      const b = s.meta.bounds;
      for (const h of ['31', '32', '33']) {
        const [minX, minY, maxX, maxY] = geometryOf(s, entityOf(s, h)).box;
        // float32 positions around the origin
        expect(minX, h).toBeGreaterThanOrEqual(b.minX - 1e-3);
        expect(minY, h).toBeGreaterThanOrEqual(b.minY - 1e-3);
        expect(maxX, h).toBeLessThanOrEqual(b.maxX + 1e-3);
        expect(maxY, h).toBeLessThanOrEqual(b.maxY + 1e-3);
      }
      // the 中 line (5 high at y 120) reaches above its insertion point, the rotated E's to the right of the line
      expect(b.maxY).toBeGreaterThan(123);
      expect(b.maxX).toBeGreaterThan(100);
    }
  });

  it('draws frequent glyphs as instances of one mesh each: the same geometry as baked text in a fraction of the bytes', () => {
    const b = baked(), s = decodeScene(encodeScene(instanced()));
    // E (a stroke glyph) and 中 (an outline glyph) are meshes; the single Z is baked into the line buffer
    expect(s.meta.glyphs!.map((g) => g[5]).sort((x, y) => x - y)).toEqual([24, 80]);
    expect(geometryOf(s, entityOf(s, '32')).segments).toBeGreaterThan(0);
    expect(b.meta.glyphs).toEqual([]);
    for (const h of ['31', '32', '33']) {
      const want = geometryOf(b, entityOf(b, h)), got = geometryOf(s, entityOf(s, h));
      expect(got.segments, h).toBe(want.segments);
      expect(got.triangles, h).toBe(want.triangles);
      expect(got.len).toBeCloseTo(want.len, 2);
      expect(got.area).toBeCloseTo(want.area, 2);
      got.box.forEach((v, i) => expect(v).toBeCloseTo(want.box[i], 3));
    }
    // colours per instance, layers per instance
    const e = s.meta.glyphs!.find((g) => g[5] === 80)!;
    expect(s.glyphInstances[e[4] * 8 + 7]).toBe(0xff0000);
    expect(s.meta.layers[s.glyphInstances[e[4] * 8 + 6]].name).toBe('T');
    const bytes = (x: Scene) => encodeScene(x).byteLength - new TextEncoder().encode(JSON.stringify(x.meta)).length;
    expect(bytes(s)).toBeLessThan(bytes(b) / 4);
  });

  it('picks and bounds text drawn by instances, and hides it with its layer', () => {
    const b = baked(), s = instanced();
    const text = entityOf(s, '31');
    // a point on the 40th E's vertical stem (the baked drawing's own geometry says where it is)
    const i = s.meta.glyphs!.find((g) => g[5] === 80)![4] + 39;
    const [a, bb, c, d, e, f] = s.glyphInstances.subarray(i * 8, i * 8 + 6);
    const [ox, oy] = s.meta.origin;
    const at = (gx: number, gy: number) => [a * gx + c * gy + e + ox, bb * gx + d * gy + f + oy];
    const seg = s.glyphLinePositions.subarray(0, 4);
    const [x, y] = at((seg[0] + seg[2]) / 2, (seg[1] + seg[3]) / 2);
    expect(pickEntity(s, x, y, 0.01)).toBe(text);
    const t = s.meta.layers.findIndex((l) => l.name === 'T');
    expect(pickEntity(s, x, y, 0.01, new Set([0, 2, 3].filter((l) => l !== t)))).toBeNull();
    // inside a filled 中 (a triangle's centroid)
    const cjk = s.meta.glyphs!.find((g) => g[5] === 24)!;
    const k = cjk[4] + 5;
    const [a2, b2, c2, d2, e2, f2] = s.glyphInstances.subarray(k * 8, k * 8 + 6);
    const tri = s.glyphTriPositions.subarray(cjk[2] * 2, cjk[2] * 2 + 6);
    const gx = (tri[0] + tri[2] + tri[4]) / 3, gy = (tri[1] + tri[3] + tri[5]) / 3;
    expect(s.meta.entities[pickEntity(s, a2 * gx + c2 * gy + e2 + ox, b2 * gx + d2 * gy + f2 + oy, 1e-6)!].handle).toBe('33');
    for (const h of ['31', '33']) {
      const want = entityBounds(b, entityOf(b, h))!, got = entityBounds(s, entityOf(s, h))!;
      for (const k2 of ['minX', 'minY', 'maxX', 'maxY'] as const) expect(got[k2]).toBeCloseTo(want[k2], 3);
    }
  });

  it('stores colours per segment and entities as runs, with the per-vertex forms built on demand', () => {
    const s = decodeScene(encodeScene(instanced()));
    const segs = s.linePositions.length / 4;
    expect(s.lineSegmentColors.length).toBe(segs * 4);
    expect(s.lineWeights.length).toBe(segs);
    // runs: far fewer than segments, and each segment's entity is its run's
    expect(s.lineEntityRuns.length / 2).toBeLessThan(segs);
    const le = s.lineEntities;
    expect(le.length).toBe(segs);
    for (let i = 0; i < segs; i++) expect(runValueAt(s.lineEntityRuns, i)).toBe(le[i]);
    expect(s.lineColors.length).toBe(segs * 8);
    const line = entityOf(s, '30');
    const k = le.indexOf(line);
    expect([...s.lineColors.subarray(k * 8, k * 8 + 8)]).toEqual([0, 255, 0, 255, 0, 255, 0, 255]);
    expect(s.triColors.length).toBe((s.triPositions.length / 6) * 12);
    // an older cached scene is refused, so the server rebuilds it
    const old = encodeScene(s);
    new DataView(old.buffer).setUint32(4, 2, true);
    expect(() => decodeScene(old)).toThrow('scene version mismatch');
  });
});
