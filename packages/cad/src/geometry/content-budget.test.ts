import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { buildSceneBytes } from '../open.ts';
import { decodeScene } from '../scene/binary.ts';
import { CadError } from '../model/drawing.ts';
import { denseHatch, fanOut, hatchArray, hostileSplines, hugeNumbers, manyViewports, nestedArrays } from '../testing/hostile-dxf.ts';
import { flattenLayout } from './layout.ts';
import { tessellateNurbs } from './spline.ts';
import { expansionBound, MAX_SPLINE_POINTS } from './content-budget.ts';

/**
 * Hostile drawings (testing/hostile-dxf.ts) end in seconds with a bounded scene and say what they left out. Before
 * the bounds: nested arrays (1.6 kB) ran past 100 s, a fan-out of blocks (9 kB) took 9 s for a 47 MB scene, a dense
 * hatch under a zig-zag boundary (80 kB) ran out of memory after 65 s, four splines of 20 000 points 28 s, 200
 * ellipses of huge radius (220 kB) a 17 MB scene.
 */
async function build(bytes: Uint8Array, budgetMs?: number) {
  const t0 = performance.now();
  const scene = await buildSceneBytes(parseDxf(bytes), 'Model', undefined, { budgetMs });
  return { ms: performance.now() - t0, bytes: scene.byteLength, notDrawn: decodeScene(scene).meta.notDrawn };
}

describe('content bounds: hostile drawings end quickly with a bounded scene', () => {
  it('nested arrays: a few hundred bytes asking for 10^18 entities expand to the bound, the rest reported', async () => {
    const input = nestedArrays();
    expect(input.byteLength).toBeLessThan(2000);
    const r = await build(input);
    expect(r.ms).toBeLessThan(15_000);
    expect(r.bytes).toBeLessThan(16 << 20);
    expect(r.notDrawn['INSERT:limit']).toBeGreaterThan(0);
  }, 30_000);

  it('a fan-out of blocks nested 8 deep stops at the expansion bound', async () => {
    const r = await build(fanOut());
    expect(r.ms).toBeLessThan(15_000);
    expect(r.bytes).toBeLessThan(12 << 20);
    expect(r.notDrawn['INSERT:limit']).toBeGreaterThan(0);
  }, 30_000);

  it('a pattern hatch whose crossings would take gigabytes draws its outline', async () => {
    const r = await build(denseHatch());
    expect(r.ms).toBeLessThan(5_000);
    expect(r.notDrawn['HATCH:pattern']).toBe(1);
  }, 30_000);

  it('a dense pattern hatch in a 100 × 100 array (8 kB; a 294 MB scene in 18 s before) draws outlines', async () => {
    const r = await build(hatchArray());
    expect(r.ms).toBeLessThan(10_000);
    expect(r.bytes).toBeLessThan(2 << 20);
    expect(r.notDrawn['HATCH:pattern']).toBeGreaterThan(0);
  }, 30_000);

  it('splines: a degree of thousands is drawn as its control polygon, many spans in bounded points', async () => {
    const high = await build(hostileSplines(3000));
    expect(high.ms).toBeLessThan(5_000);
    expect(high.notDrawn['SPLINE:simplified']).toBe(1);
    const many = await build(hostileSplines(20_000, 3, 4));
    expect(many.ms).toBeLessThan(10_000);
    const ctrl = Array.from({ length: 40_000 }, (_, i) => (i % 2 ? (i % 4 === 1 ? 1e6 : -1e6) : i));
    expect(tessellateNurbs(3, [], ctrl, undefined, 1e-3).length / 2).toBeLessThanOrEqual(MAX_SPLINE_POINTS * 4 + 1);
  }, 30_000);

  it('huge numbers: curves no record can hold are baked within the drawing’s share, the rest simplified', async () => {
    const r = await build(hugeNumbers());
    expect(r.ms).toBeLessThan(5_000);
    expect(r.bytes).toBeLessThan(8 << 20);
    expect(r.notDrawn['ELLIPSE:simplified']).toBeGreaterThan(0);
  }, 30_000);

  it('a build past its time budget ends with cad.tooComplex', async () => {
    const e = await build(nestedArrays(), 50).catch((x) => x);
    expect(e).toBeInstanceOf(CadError);
    expect((e as CadError).code).toBe('cad.tooComplex');
  }, 30_000);

  it('a sheet of hundreds of viewports stops moving the model through them at the output bound', () => {
    const flat = flattenLayout(parseDxf(manyViewports(400, 1000)), 'Layout1', { curves: true, maxPrimitives: 100_000 })!;
    let made = flat.curves?.length ?? 0;
    for (const p of flat.polylines) made += p.points.length / 2;
    // 1000 lines and circles per viewport (3000 primitives): 33 viewports drawn, the rest counted
    expect(flat.skipped['VIEWPORT:limit']).toBe(400 - 33);
    expect(made).toBeLessThanOrEqual(100_000);
  });

  it('the expansion bound follows the stored entities between its floor and ceiling', () => {
    expect(expansionBound(10)).toBe(300_000);
    expect(expansionBound(20_000)).toBe(1_000_000);
    expect(expansionBound(1e7)).toBe(2_000_000);
  });
});

describe('storedContent', () => {
  it('counts group codes from the reader’s columns, without building each entity’s pair array', async () => {
    const { storedContent } = await import('./content-budget.ts');
    const { DxfEntity } = await import('../dxf/pair-store.ts');
    const d = parseDxf(fanOut());
    const all = [...d.entities, ...d.blocks.flatMap((b) => b.entities)];
    const built = () => all.filter((e) => e instanceof DxfEntity && Array.isArray(e.source)).length;
    const c = storedContent(d);
    expect(built()).toBe(0); // asking for `pairs` built a tuple array per entity: a first flattening's garbage
    expect(c.entities).toBe(all.length + all.reduce((n, e) => n + (e.children?.length ?? 0), 0));
    expect(c.pairs).toBe(all.reduce((n, e) => n + e.pairs.length + (e.children ?? []).reduce((k, ch) => k + ch.pairs.length, 0), 0));
  });
});
