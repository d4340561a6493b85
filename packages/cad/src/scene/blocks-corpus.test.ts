import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { flattenLayout, layoutNames } from '../geometry/layout.ts';
import { diffPrims, areaBy, sceneSegments, sceneTriangles } from '../testing/scene-geometry.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';

const samplesDir = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => /\.(dxf|dwg)$/i.test(f)) : [];
if (!samples.length) console.warn(`no samples in ${samplesDir}: the block instancing corpus test is skipped`);

/**
 * Every sample, every layout: the scene with block instances draws the segment set of the scene without them
 * (positions within 1e-6 of the extent, colours, entities, layers, weights), the same fill area per entity, and
 * survives the binary round trip.
 */
describe.runIf(samples.length > 0)('block instancing on every sample', () => {
  const totals = { instances: 0, meshes: 0, drawings: 0 };
  afterAll(() => {
    console.info(`block instancing across ${samples.length} samples: ${JSON.stringify(totals)}`);
    stopDwgWorker();
  });
  for (const name of samples) {
    it(name, async () => {
      let d;
      try {
        d = await readDrawing(readFileSync(path.join(samplesDir, name)), name);
      } catch (e) {
        // a sample LibreDWG cannot read is the reader's business (and its own test's), not this one's
        console.warn(`${name}: not read (${(e as Error).message})`);
        return;
      }
      const layouts = layoutNames(d);
      for (const layout of layouts) {
        const flat = flattenLayout(d, layout, { blockInstances: true })!;
        const instanced = compileScene(d, flat, { layout, layouts });
        const baked = compileScene(d, flattenLayout(d, layout)!, { layout, layouts });
        const b = baked.meta.bounds;
        const tol = 1e-6 * Math.max(Math.hypot(b.maxX - b.minX, b.maxY - b.minY), 1e-9);
        const segs = diffPrims(sceneSegments(instanced), sceneSegments(baked), tol);
        expect(segs.onlyA, `${name} ${layout}: segments only with instances`).toEqual([]);
        expect(segs.onlyB, `${name} ${layout}: segments only baked`).toEqual([]);
        // fills: the same triangles, or (a ring triangulated in its block's frame may be cut differently) the same area
        const tris = diffPrims(sceneTriangles(instanced), sceneTriangles(baked), tol);
        if (tris.onlyA.length || tris.onlyB.length) {
          const a = areaBy(sceneTriangles(instanced)), c = areaBy(sceneTriangles(baked));
          expect([...a.keys()].sort()).toEqual([...c.keys()].sort());
          for (const [k, v] of a) expect(Math.abs(v - c.get(k)!)).toBeLessThanOrEqual(1e-6 * Math.max(1, v));
        }
        // as the server builds scenes, with exact curves: an instanced block's curves are records placed per instance
        const exact = compileScene(d, flattenLayout(d, layout, { curves: true, blockInstances: true })!, { layout, layouts });
        const exactBaked = compileScene(d, flattenLayout(d, layout, { curves: true })!, { layout, layouts });
        expect(exact.curves.length, `${name} ${layout}: curve records`).toBe(exactBaked.curves.length);
        const cs = diffPrims(sceneSegments(exact), sceneSegments(exactBaked), tol);
        expect(cs.onlyA.length + cs.onlyB.length, `${name} ${layout}: segments with curves`).toBe(0);
        expect(decodeScene(encodeScene(instanced)).meta.blocks).toEqual(instanced.meta.blocks);
        totals.instances += instanced.blockInstanceEntities.length;
        totals.meshes += instanced.meta.blocks?.length ?? 0;
        if (instanced.meta.blocks?.length) totals.drawings++;
      }
    }, 120_000);
  }
});
