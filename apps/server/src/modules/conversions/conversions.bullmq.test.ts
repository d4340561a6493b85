import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createBullmqQueue } from '../../infra/queue/bullmq.queue.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import type { AppDeps } from '../../app.deps.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { drawingFonts } from '../drawings/drawing-fonts.ts';
import { sharedConversionRunner } from './conversion-runner.ts';
import { registerConversionJobs } from './conversions.jobs.ts';
import { createConversionsService } from './conversions.service.ts';
import { sampleDxf } from '../../test/dxf-fixtures.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** The same conversion job on the scale-out driver: BullMQ on Redis (TEST_REDIS_URL), the result next to the source. */
describe.skipIf(!redisUrl)('conversions on BullMQ', () => {
  let t: TestApp;
  let bull: JobQueue;
  let deps: AppDeps;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
    bull = createBullmqQueue({ redisUrl: redisUrl!, prefix: `cc-conv-${randomBytes(4).toString('hex')}`, leaseMs: 2000 });
    deps = { ...t.deps, queue: bull };
    registerConversionJobs(bull, deps);
    await bull.start();
  });
  afterAll(async () => {
    await bull?.stop();
    await t?.close();
  });

  it('converts through a BullMQ job and ends the conversion', async () => {
    const a = await t.createUser();
    await t.db.db.updateTable('users').set({ vip_type: 1 }).where('id', '=', a.id).execute();
    const src = (await t.upload(a.token, 'bull.dxf', sampleDxf(40))).bizData;
    const service = createConversionsService(deps, sharedConversionRunner(deps), drawingFonts(deps));
    const [c] = (await service.request({ id: a.id, freeze: 0, vip_type: 1 }, { fileIds: [src.id], target: 'pdf' }, 'en')).list;
    expect(await bull.status(`conversion-${c.taskId}`)).toMatchObject({ state: expect.stringMatching(/waiting|active|completed/) });
    const done = await until(async () => {
      const s = (await service.statusBatch(a.id, [src.id], 'en')).list[0];
      return s.transformStatus !== 0 ? s : undefined;
    }, 60_000);
    expect(done).toMatchObject({ transformStatus: 1, resultName: 'bull.pdf' });
    // a conversion whose BullMQ job is gone (failed as stalled, removed) is ended by the sweep
    expect(await service.sweepStranded(0)).toBe(0);
  });
});
