import { describe, expect, it } from 'vitest';
import { decodeScene, encodeScene, loadedPrimitives, SceneReader, type SceneEvent } from './binary.ts';
import { withPerVertexViews, type SceneArrays } from './runs.ts';
import type { Scene } from './scene.types.ts';

/** A scene of `segments` segments and `triangles` triangles with values that say where they are (no compiler needed). */
function synthetic(segments: number, triangles: number, glyphs = 1000): Scene {
  const lp = new Float32Array(segments * 4).map((_, i) => i * 0.5);
  const lc = new Uint8Array(segments * 4).map((_, i) => (i * 7) & 255);
  const tp = new Float32Array(triangles * 6).map((_, i) => -i);
  const tc = new Uint8Array(triangles * 4).map((_, i) => (i * 13) & 255);
  const gi = new Float32Array(glyphs * 8).map((_, i) => i % 97);
  const s: SceneArrays = {
    meta: {
      format: 1, layout: 'Model', layouts: ['Model'], units: 4, bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, origin: [0, 0],
      layers: [{ name: '0', color: 0xffffff, on: true, frozen: false, locked: false }],
      lineRanges: [[0, 0, segments * 2]], triRanges: [[0, 0, triangles * 3]], glyphs: [[0, 2, 0, 3, 0, glyphs]],
      entities: [{ type: 'LINE', handle: '1F', layer: '0', color: 0xffffff } as never], texts: [{ text: 'x', x: 0, y: 0, height: 1, rotation: 0, entity: 0 }], notDrawn: {},
    },
    linePositions: lp, lineSegmentColors: lc, lineEntityRuns: new Uint32Array([0, 0]), lineWeights: new Uint8Array(segments).map((_, i) => i % 200),
    triPositions: tp, triangleColors: tc, triEntityRuns: new Uint32Array([0, 0]),
    glyphLinePositions: new Float32Array([0, 0, 1, 1]), glyphTriPositions: new Float32Array([0, 0, 1, 0, 0, 1]),
    glyphInstances: gi, glyphInstanceEntities: new Uint32Array(glyphs),
    curves: new Float32Array(24).map((_, i) => i + 0.25), curveEntities: new Uint32Array([0, 0]),
    blockLinePositions: new Float32Array([0, 0, 1, 1]), blockLineColors: new Uint8Array([1, 2, 3, 4]), blockLineLayers: new Uint32Array([0]), blockLineWeights: new Uint8Array([0]),
    blockTriPositions: new Float32Array(0), blockTriColors: new Uint8Array(0), blockTriLayers: new Uint32Array(0), blockInstances: new Float32Array(16).map((_, i) => i), blockInstanceEntities: new Uint32Array([0, 0]),
  };
  return withPerVertexViews(s);
}

const KEYS = ['linePositions', 'lineSegmentColors', 'lineEntityRuns', 'lineWeights', 'triPositions', 'triangleColors', 'triEntityRuns', 'glyphLinePositions', 'glyphTriPositions', 'glyphInstances', 'glyphInstanceEntities', 'curves', 'curveEntities', 'blockLinePositions', 'blockInstances'] as const;

describe('scene stream (format 4)', () => {
  it('a small scene is one batch, and round-trips whole', () => {
    const s = synthetic(100, 50, 10);
    const bytes = encodeScene(s);
    const r = new SceneReader();
    const kinds = r.push(bytes).map((e) => e.kind);
    expect(kinds[0]).toBe('head');
    expect(kinds.filter((k) => k === 'batch')).toHaveLength(1);
    expect(kinds.slice(-2)).toEqual(['tail', 'end']);
    const d = decodeScene(bytes);
    for (const k of KEYS) expect([...d[k]], k).toEqual([...s[k]]);
    expect(d.meta).toEqual(s.meta);
  });

  it('a large scene comes in batches that can be drawn as they arrive, whatever the network chunks', () => {
    const s = synthetic(400_000, 150_000, 20_000); // ~11 MB of arrays
    const bytes = encodeScene(s);
    const r = new SceneReader();
    const events: SceneEvent[] = [];
    // chunks of odd sizes, as a network delivers them
    let seed = 7;
    for (let at = 0; at < bytes.length; ) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = 1 + (seed % 200_000);
      const before = events.length;
      events.push(...r.push(bytes.subarray(at, at + n)));
      at += n;
      // after every batch: whole segments, triangles and characters have arrived, and they are the final values
      for (const e of events.slice(before)) {
        if (e.kind !== 'batch') continue;
        const p = loadedPrimitives(r);
        const sc = r.scene!;
        expect(p.segments).toBeGreaterThan(0);
        expect([...sc.linePositions.subarray(p.segments * 4 - 4, p.segments * 4)]).toEqual([...s.linePositions.subarray(p.segments * 4 - 4, p.segments * 4)]);
        expect([...sc.lineSegmentColors.subarray(p.segments * 4 - 4, p.segments * 4)]).toEqual([...s.lineSegmentColors.subarray(p.segments * 4 - 4, p.segments * 4)]);
        expect([...sc.triangleColors.subarray(p.triangles * 4 - 4, p.triangles * 4)]).toEqual([...s.triangleColors.subarray(p.triangles * 4 - 4, p.triangles * 4)]);
        // every batch but the last leaves something to come; after the last, the entity table may still be on its way
        const last = p.segments === 400_000 && p.triangles === 150_000 && p.glyphs === 20_000;
        expect(r.allBatches).toBe(last);
        if (e.index === 0) {
          // the first batch is a part, not the whole: the viewer draws it before the rest arrives
          expect(p.segments).toBeLessThan(400_000);
          expect(p.triangles).toBeLessThan(150_000);
          expect(sc.meta.entities).toEqual([]); // the entity table comes last
          expect(sc.meta.layers).toEqual(s.meta.layers);
        }
      }
    }
    expect(r.done).toBe(true);
    expect(r.allBatches).toBe(true);
    expect(events.filter((e) => e.kind === 'batch').length).toBeGreaterThan(4);
    expect(loadedPrimitives(r)).toEqual({ segments: 400_000, weights: 400_000, triangles: 150_000, glyphs: 20_000 });
    for (const k of KEYS) expect(Buffer.from(r.scene![k].buffer).equals(Buffer.from(s[k].buffer, s[k].byteOffset, s[k].byteLength)), k).toBe(true);
    expect(r.scene!.meta).toEqual(s.meta);
  });

  it('refuses truncated, foreign and older bytes', () => {
    const bytes = encodeScene(synthetic(50_000, 1000));
    expect(() => decodeScene(bytes.subarray(0, bytes.length - 20))).toThrow('truncated scene');
    expect(() => decodeScene(bytes.subarray(0, 8))).toThrow('not a scene');
    expect(() => decodeScene(new TextEncoder().encode('{"rtnCode":"1"}  '))).toThrow('not a scene');
    const old = bytes.slice();
    new DataView(old.buffer).setUint32(4, 5, true);
    expect(() => decodeScene(old)).toThrow('scene version mismatch');
    // a slice out of order (a damaged cache file) is refused, not written over another array's bytes
    const bad = bytes.slice();
    const headLen = new DataView(bad.buffer).getUint32(8, true);
    new DataView(bad.buffer).setUint32(12 + ((headLen + 3) & ~3) + 8, 4, true);
    expect(() => decodeScene(bad)).toThrow('bad scene slice');
  });
});
