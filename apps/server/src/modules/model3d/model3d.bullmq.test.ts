import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { VipType } from '@cadcloud/contracts';
import { asciiStl } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createBullmqQueue } from '../../infra/queue/bullmq.queue.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import type { AppDeps } from '../../app.deps.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerModel3dJobs } from './model3d.jobs.ts';
import { createModel3dService } from './model3d.service.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** The same 3D conversion job on the scale-out driver: BullMQ on Redis (TEST_REDIS_URL). */
describe.skipIf(!redisUrl)('3D conversions on BullMQ', () => {
  let t: TestApp;
  let bull: JobQueue;
  let deps: AppDeps;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
    bull = createBullmqQueue({ redisUrl: redisUrl!, prefix: `cc-m3d-${randomBytes(4).toString('hex')}`, leaseMs: 2000 });
    deps = { ...t.deps, queue: bull };
    registerModel3dJobs(bull, deps);
    await bull.start();
  });
  afterAll(async () => {
    await bull?.stop();
    await t?.close();
  });

  it('converts an STL through a BullMQ job; two requests at once start one job', async () => {
    const a = await t.createUser();
    await t.db.db.updateTable('users').set({ vip_type: VipType.SUPER }).where('id', '=', a.id).execute();
    const src = (await t.upload(a.token, 'bull.stl', Buffer.from(asciiStl('bull')))).bizData;
    const service = createModel3dService(deps);
    const actor = { id: a.id, vip_type: VipType.SUPER };
    const both = await Promise.allSettled([service.transformBatch(actor, { fileIds: [src.id] }, 'en'), service.transformBatch(actor, { fileIds: [src.id] }, 'en')]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(both.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['model3d.converting']);
    const [row] = await t.db.db.selectFrom('model3d_conversions').select('id').where('source_id', '=', src.id).execute();
    expect(await bull.status(`model3d-${row.id}`)).toMatchObject({ state: expect.stringMatching(/waiting|active|completed/) });
    const done = await until(async () => {
      const s = (await service.statusBatch(a.id, [src.id], 'en')).list[0];
      return s.transformStatus !== 0 ? s : undefined;
    }, 60_000);
    expect(done).toMatchObject({ transformStatus: 1, stats: { triangles: 12 } });
    expect(await service.sweepStranded(0)).toBe(0);
  });
});
