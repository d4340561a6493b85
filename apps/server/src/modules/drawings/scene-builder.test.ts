import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeScene } from '@cadcloud/cad/scene';
import { writeAsciiDxf, type FixtureEntity } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { samplesDir } from '../../../../../packages/cad/src/fidelity/samples.ts';
import { createSceneBuilder, SceneBuildError, type SceneTimings } from './scene-builder.ts';

const noFonts = async () => null;
const small = Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 10], [21, 0], [31, 0]] }] }));
/** ~150,000 circles: far more than a 40 MB heap can parse and tessellate */
const big = Buffer.from(
  writeAsciiDxf({
    entities: Array.from({ length: 150_000 }, (_, i): FixtureEntity => ({ type: 'CIRCLE', pairs: [[8, '0'], [10, i], [20, i % 100], [30, 0], [40, 1 + (i % 7)]] })),
  }),
);

/** The builder's thread is the guard between a drawing and the server: an overrun or a crash costs one error, then it serves again. */
describe('scene builder worker', () => {
  it('ends a build that overruns its deadline with the spec error', async () => {
    const b = createSceneBuilder({ maxHeapMb: 512, timeoutMs: 1 });
    const err = await b.build(big, 'big.dxf', 'Model', noFonts).catch((e) => e);
    expect(err).toBeInstanceOf(SceneBuildError);
    expect(err).toMatchObject({ kind: 'timeout', message: 'The drawing analysis failed!' });
    await b.close();
  }, 120_000);

  it('survives a build that runs out of its heap cap: that one fails, the next one in the same builder works', async () => {
    const b = createSceneBuilder({ maxHeapMb: 40, timeoutMs: 60_000 });
    const err = await b.build(big, 'big.dxf', 'Model', noFonts).catch((e) => e);
    expect(err).toBeInstanceOf(SceneBuildError);
    expect(err.message).toBe('The drawing analysis failed!');
    const scene = decodeScene(await b.build(small, 'small.dxf', 'Model', noFonts));
    expect(scene.meta).toBeTruthy();
    await b.close();
  }, 120_000);

  it('reuses the drawing it read last for the next build of the same bytes, and reads other bytes afresh', async () => {
    const b = createSceneBuilder({ maxHeapMb: 512, timeoutMs: 60_000 });
    const other = Buffer.from(writeAsciiDxf({ entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 5]] }] }));
    const t: SceneTimings[] = [{}, {}, {}, {}];
    const first = await b.build(small, 'small.dxf', 'Model', noFonts, t[0], 'md5-small');
    const again = await b.build(small, 'small.dxf', 'Model', noFonts, t[1], 'md5-small');
    const circle = await b.build(other, 'other.dxf', 'Model', noFonts, t[2], 'md5-other');
    // no key: never reused
    const unkeyed = await b.build(other, 'other.dxf', 'Model', noFonts, t[3]);
    expect(t.map((x) => 'parse' in x)).toEqual([true, false, true, true]);
    expect(Buffer.compare(Buffer.from(again), Buffer.from(first))).toBe(0);
    expect(decodeScene(circle).meta.entities.map((e) => e.type)).toEqual(['CIRCLE']);
    expect(Buffer.compare(Buffer.from(unkeyed), Buffer.from(circle))).toBe(0);
    await b.close();
  }, 60_000);

  // a build must leave the drawing as it found it: every layout built from a reused drawing is the one a fresh read gives
  const layouts: [string, string[]][] = [['dxf_qcad_flange.dxf', ['Model', 'Layout', 'Layout2']], ['dwg_2004_ddc_floorplan.dwg', ['Model', 'TRN_PP_AR-5-01_V01_Korruseplaan']]];
  it.runIf(layouts.every(([f]) => existsSync(path.join(samplesDir, f))))('builds every layout of a reused drawing byte for byte as from a fresh read', async () => {
    const reusing = createSceneBuilder({ maxHeapMb: 1024, timeoutMs: 120_000 });
    for (const [file, names] of layouts) {
      const bytes = readFileSync(path.join(samplesDir, file));
      for (const layout of names) {
        const t: SceneTimings = {};
        const reused = await reusing.build(bytes, file, layout, noFonts, t, `md5-${file}`);
        expect('parse' in t, `${file} ${layout}`).toBe(layout === names[0]);
        const fresh = createSceneBuilder({ maxHeapMb: 1024, timeoutMs: 120_000 });
        const built = await fresh.build(bytes, file, layout, noFonts);
        await fresh.close();
        expect(Buffer.compare(Buffer.from(reused), Buffer.from(built)), `${file} ${layout}`).toBe(0);
      }
    }
    await reusing.close();
  }, 300_000);

  it('answers a missing layout as a layout error', async () => {
    const b = createSceneBuilder({ maxHeapMb: 512, timeoutMs: 60_000 });
    await expect(b.build(small, 'small.dxf', 'No such layout', noFonts)).rejects.toMatchObject({ kind: 'layout' });
    await b.close();
  }, 60_000);
});
