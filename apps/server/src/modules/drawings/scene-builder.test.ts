import { describe, expect, it } from 'vitest';
import { decodeScene } from '@cadcloud/cad/scene';
import { writeAsciiDxf, type FixtureEntity } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { createSceneBuilder, SceneBuildError } from './scene-builder.ts';

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

  it('answers a missing layout as a layout error', async () => {
    const b = createSceneBuilder({ maxHeapMb: 512, timeoutMs: 60_000 });
    await expect(b.build(small, 'small.dxf', 'No such layout', noFonts)).rejects.toMatchObject({ kind: 'layout' });
    await b.close();
  }, 60_000);
});
