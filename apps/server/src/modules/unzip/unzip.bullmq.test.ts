import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createBullmqQueue } from '../../infra/queue/bullmq.queue.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import type { AppDeps } from '../../app.deps.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerUnzipJobs } from './unzip.jobs.ts';
import { createUnzipService } from './unzip.service.ts';
import { makeZip } from './test-archives.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** The decompression job on the scale-out driver: BullMQ on Redis (TEST_REDIS_URL). */
describe.skipIf(!redisUrl)('decompression on BullMQ', () => {
  let t: TestApp;
  let bull: JobQueue;
  let deps: AppDeps;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
    bull = createBullmqQueue({ redisUrl: redisUrl!, prefix: `cc-unzip-${randomBytes(4).toString('hex')}`, leaseMs: 2000 });
    deps = { ...t.deps, queue: bull };
    registerUnzipJobs(bull, deps);
    await bull.start();
  });
  afterAll(async () => {
    await bull?.stop();
    await t?.close();
  });

  it('extracts through a BullMQ job, waits for a password and continues with it', async () => {
    const a = await t.createUser();
    const data = new Uint8Array(randomBytes(30_000));
    const zip = (await t.upload(a.token, 'bull.zip', Buffer.from(await makeZip([{ name: 'd/x.bin', data }], { password: 'pw' })))).bizData;
    const service = createUnzipService(deps);
    const task = await service.request({ ...a, freeze: 0 }, { fileId: zip.id });
    const settled = (want: number) => until(async () => {
      const r = await t.db.db.selectFrom('zip_tasks').selectAll().where('id', '=', task.taskId).executeTakeFirstOrThrow();
      return r.status === want ? r : undefined;
    }, 30_000);
    expect((await settled(6)).error).toBe('unzip.passwordRequired');
    await service.request({ ...a, freeze: 0 }, { fileId: zip.id, password: 'pw' });
    const done = await settled(2);
    const file = await t.db.db.selectFrom('items').selectAll().where('uid', '=', a.id).where('name', '=', 'x.bin').executeTakeFirstOrThrow();
    expect(Number(file.size)).toBe(30_000);
    expect(done.folder_id).toBeTruthy();
  });
});
