import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fanOut } from '../../../../../packages/cad/src/testing/hostile-dxf.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerDrawingJobs } from './drawings.jobs.ts';
import { sharedSceneBuilder } from './scene-builder.ts';

/**
 * Issue 16 item 14 (an open of a file whose prewarm is running joins it instead of building twice) through the real
 * pieces: the prewarm job the upload queues, run by the queue, and the scene route. Both used to make a drawings
 * service of their own, so the route never saw the job's build in flight and built the scene a second time.
 * Item 4: on a web process (PROCESS_MODE=web) the prewarm runs on the worker only; an open must not wait for it.
 */
describe('an open joins the prewarm of its drawing', () => {
  const driver = testDatabaseDrivers()[0];
  /** a drawing whose build takes a second or more: the open comes while it is building */
  const heavy = (k: number) => Buffer.from(fanOut(7, 40 + k));
  const openScene = (t: TestApp, id: string, token: string) => t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${id}&utoken=${encodeURIComponent(token)}` });
  const jobState = async (t: TestApp, id: string) => (await t.db.db.selectFrom('jobs').select(['state', 'result']).where('id', '=', `scene-${id}`).executeTakeFirst());

  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
    registerDrawingJobs(t.deps.queue, t.deps);
  });
  afterAll(async () => t?.close());

  it('an open through the API while the prewarm job builds the drawing is served by that build: one build', async () => {
    const builds = vi.spyOn(sharedSceneBuilder(t.deps), 'build');
    const u = await t.createUser();
    const id = (await t.upload(u.token, 'joined.dxf', heavy(0))).bizData.id as string;
    // the queue has taken the prewarm job and its build has started
    await until(async () => builds.mock.calls.length > 0);
    const r = await openScene(t, id, u.token);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('application/vnd.cadcloud.scene');
    const job = await until(async () => ((await jobState(t, id))?.state === 'completed' ? jobState(t, id) : undefined), 120_000);
    // one build of the Model scene for both (a fan-out drawing has no paper layouts to prewarm)
    expect(builds.mock.calls.map((c) => c[2]), `builds: ${JSON.stringify(builds.mock.calls.map((c) => [c[1], c[2]]))}, job ${JSON.stringify(job)}`).toEqual(['Model']);
    builds.mockRestore();
  }, 180_000);

  it('on a web process (PROCESS_MODE=web) an open does not wait for the prewarm only the worker runs', async () => {
    // the web process: same database and data folder, no jobs registered (main.ts starts none with PROCESS_MODE=web)
    const web = await createTestApp(driver, { PROCESS_MODE: 'web' }, { db: t.db, dataDir: t.dataDir });
    try {
      expect(web.deps.config.processMode).toBe('web');
      const u = await web.createUser();
      // the worker is busy elsewhere: this upload's prewarm job is queued for later
      await t.deps.queue.stop();
      const id = (await web.upload(u.token, 'web.dxf', heavy(1))).bizData.id as string;
      expect((await jobState(t, id))?.state).toBe('waiting');
      // the data folder is shared with the test before, whose scene is there already: wait for one more
      const scenes = async () => {
        let n = 0;
        for await (const o of web.deps.storage.list('scenes/')) if (o.size > 0) n++;
        return n;
      };
      const before = await scenes();
      const r = await openScene(web, id, u.token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-scene-cache']).toBe('miss');
      // built by the web process itself: the job has not run
      expect((await jobState(t, id))?.state).toBe('waiting');
      // written to the shared cache behind the answer
      await until(async () => (await scenes()) > before);
      // when the worker gets to it, the scene is in the shared cache already: the prewarm builds nothing
      const worker = await createTestApp(driver, { PROCESS_MODE: 'worker' }, { db: t.db, dataDir: t.dataDir });
      registerDrawingJobs(worker.deps.queue, worker.deps);
      try {
        const job = await until(async () => {
          const j = await jobState(t, id);
          return j?.state === 'completed' ? j : undefined;
        }, 60_000);
        expect(JSON.parse(String(job.result))).toMatchObject({ cached: true });
      } finally {
        await worker.deps.queue.stop();
        await worker.app.close();
      }
    } finally {
      await web.deps.queue.stop();
      await web.app.close();
      await t.deps.queue.start();
    }
  }, 180_000);
});
