import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { fanOut } from '../../../../../packages/cad/src/testing/hostile-dxf.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { drawingFonts } from './drawing-fonts.ts';
import { createDrawingsService } from './drawings.service.ts';
import { sharedSceneBuilder } from './scene-builder.ts';
import { until } from '../../test/until.ts';

/**
 * Issue 16 item 14: the first open of a drawing right after an upload took 9 s: it waited behind the background
 * builds (prewarm) of the other files just uploaded. An open now goes before waiting background builds, and an open
 * of a drawing whose prewarm is waiting takes that build to the front instead of building twice.
 */
describe('a first open does not wait behind background builds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
  });
  afterAll(async () => t?.close());

  const small = () => Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, Math.random() * 100], [21, 10]] }] }));
  /** a drawing whose build takes a while (a block fanned out eight levels deep: a second or more) */
  const heavy = (k: number) => Buffer.from(fanOut(7, 10 + k));

  it('opening a small drawing right after uploading heavy ones answers before their background builds end', async () => {
    const u = await t.createUser();
    const drawings = createDrawingsService(t.deps, sharedSceneBuilder(t.deps), drawingFonts(t.deps));
    const ids: string[] = [];
    for (let k = 0; k < 3; k++) ids.push((await t.upload(u.token, `heavy${k}.dxf`, heavy(k))).bizData.id);
    const mine = (await t.upload(u.token, 'small.dxf', small())).bizData.id;
    const ended: string[] = [];
    // what the prewarm job does after each upload, all at once as a busy queue would
    const prewarms = ids.map((id) => drawings.scene({ uid: u.id, fileId: id }, 'Model', { background: true }).then(async (s) => {
      await s.stored;
      ended.push(id);
    }));
    // the user opens the small drawing at once
    const t0 = performance.now();
    const open = await drawings.scene({ uid: u.id, fileId: mine }, 'Model');
    const openMs = performance.now() - t0;
    const endedBeforeOpen = ended.length;
    await Promise.all(prewarms);
    // at most the build already running when the open came finished first; the others waited for the open
    expect(endedBeforeOpen, `open took ${openMs.toFixed(0)} ms`).toBeLessThanOrEqual(1);
    expect(open.cached).toBe(false);
  }, 180_000);

  it('an open of a drawing whose prewarm waits in line takes that build to the front (built once)', async () => {
    const u = await t.createUser();
    const drawings = createDrawingsService(t.deps, sharedSceneBuilder(t.deps), drawingFonts(t.deps));
    const ids: string[] = [];
    for (let k = 0; k < 3; k++) ids.push((await t.upload(u.token, `h${k}.dxf`, heavy(10 + k))).bizData.id);
    const mine = (await t.upload(u.token, 'mine.dxf', small())).bizData.id;
    const ended: string[] = [];
    const prewarm = (id: string) => drawings.scene({ uid: u.id, fileId: id }, 'Model', { background: true }).then(async (s) => {
      await s.stored;
      ended.push(id);
      return s;
    });
    const others = ids.map(prewarm);
    const minePrewarm = prewarm(mine);
    const open = await drawings.scene({ uid: u.id, fileId: mine }, 'Model');
    // the open joined the prewarm's build (not a second one): its answer is that build's bytes
    expect(open.cached).toBe(false);
    const mineEnded = ended.length;
    await Promise.all([...others, minePrewarm]);
    expect(mineEnded).toBeLessThanOrEqual(1);
    expect((await minePrewarm).body).toBe(open.body);
  }, 180_000);

  it('an open does not wait for a slow background build already running; that build still ends with its scene', async () => {
    const u = await t.createUser();
    const builder = sharedSceneBuilder(t.deps);
    const drawings = createDrawingsService(t.deps, builder, drawingFonts(t.deps));
    const slow = (k: number) => Buffer.from(fanOut(7, 14 + k));
    // how long the slow drawing's build takes with nothing else running (same content, other bytes: not cached)
    const aloneId = (await t.upload(u.token, 'alone.dxf', slow(0))).bizData.id;
    let t0 = performance.now();
    await drawings.scene({ uid: u.id, fileId: aloneId }, 'Model', { background: true });
    const aloneMs = performance.now() - t0;

    const bigId = (await t.upload(u.token, 'big.dxf', Buffer.concat([Buffer.from('999\r\nother bytes\r\n'), slow(0)]))).bizData.id;
    const mine = (await t.upload(u.token, 'small.dxf', small())).bizData.id;
    const builds = vi.spyOn(builder, 'build');
    const ended: string[] = [];
    const prewarm = drawings.scene({ uid: u.id, fileId: bigId }, 'Model', { background: true }).then((s) => {
      ended.push('prewarm');
      return s;
    });
    // the prewarm's build has left the queue: it is running in the worker
    await until(async () => builds.mock.calls.length > 0 && builder.waiting() === 0, 60_000);
    builds.mockRestore();
    t0 = performance.now();
    const open = await drawings.scene({ uid: u.id, fileId: mine }, 'Model');
    const openMs = performance.now() - t0;
    ended.push('open');
    const big = await prewarm;
    // the open came first, in a fraction of the running build's time (it used to wait for all of it)
    expect(ended, `open ${openMs.toFixed(0)} ms, the slow build alone ${aloneMs.toFixed(0)} ms`).toEqual(['open', 'prewarm']);
    expect(openMs, `the slow build alone ${aloneMs.toFixed(0)} ms`).toBeLessThan(aloneMs / 3);
    expect(open.cached).toBe(false);
    // the background build ends with its scene, cached (no failure remembered)
    expect((big.body as Uint8Array).byteLength).toBeGreaterThan(0);
    await big.stored;
    expect((await drawings.scene({ uid: u.id, fileId: bigId }, 'Model')).cached).toBe(true);
  }, 300_000);
});
