import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { runQueueContract } from './queue.contract.ts';
import { createDbQueue } from './db.queue.ts';
import { createBullmqQueue } from './bullmq.queue.ts';
import { testDatabaseDrivers } from '../db/test-databases.ts';
import { newId } from '../db/ids.ts';
import { until } from '../../test/until.ts';
import { createQueue } from './queue.factory.ts';
import { loadConfig } from '../config/index.ts';

for (const driver of testDatabaseDrivers()) {
  runQueueContract(`database (${driver.name})`, async () => {
    const t = await driver.create();
    const queues: ReturnType<typeof createDbQueue>[] = [];
    return {
      async make() {
        const q = createDbQueue(t.db, { pollMs: 30, lockMs: 2000 });
        queues.push(q);
        return q;
      },
      async simulateCrashedJob(name, payload) {
        const id = newId();
        const now = Date.now();
        await t.db
          .insertInto('jobs')
          .values({ id, name, payload: JSON.stringify(payload), state: 'active', run_at: now, attempts: 1, max_attempts: 3, progress: 10, locked_by: 'dead-worker', locked_until: now - 1, last_error: null, result: null, created_at: now, updated_at: now })
          .execute();
        return id;
      },
      async cleanup() {
        for (const q of queues) await q.stop();
        await t.destroy();
      },
    };
  });
}

for (const driver of testDatabaseDrivers()) {
  describe(`database queue specifics (${driver.name})`, () => {
    it('keeps one pending row per schedule however many processes declare it', async () => {
      const t = await driver.create();
      try {
        const a = createDbQueue(t.db);
        const b = createDbQueue(t.db);
        for (const q of [a, b]) q.register('t.sweep', async () => undefined);
        await Promise.all([a.schedule('t.sweep', 60_000), b.schedule('t.sweep', 60_000), a.schedule('t.sweep', 60_000)]);
        const rows = await t.db.selectFrom('jobs').select(['state']).where('name', '=', 't.sweep').execute();
        expect(rows).toEqual([{ state: 'waiting' }]);
      } finally {
        await t.destroy();
      }
    });

    it('a job running longer than the lock keeps it: another worker does not take it over', async () => {
      const t = await driver.create();
      let runs = 0;
      const queues = [0, 1].map(() => createDbQueue(t.db, { pollMs: 20, lockMs: 300 }));
      try {
        for (const q of queues) {
          q.register('t.long', async () => {
            runs++;
            await new Promise((r) => setTimeout(r, 1500));
          });
        }
        const id = await queues[0].enqueue('t.long', {});
        await Promise.all(queues.map((q) => q.start()));
        await until(async () => (await queues[0].status(id)).state === 'completed');
        expect(runs).toBe(1);
      } finally {
        for (const q of queues) await q.stop();
        await t.destroy();
      }
    });

    it('two workers racing for the same jobs run each exactly once', async () => {
      const t = await driver.create();
      const ran = new Map<number, number>();
      const queues = [0, 1, 2].map(() => createDbQueue(t.db, { pollMs: 5, concurrency: 3 }));
      try {
        for (const q of queues) q.register('t.race', async (p: { i: number }) => void ran.set(p.i, (ran.get(p.i) ?? 0) + 1));
        const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => queues[0].enqueue('t.race', { i })));
        await Promise.all(queues.map((q) => q.start()));
        await until(async () => (await Promise.all(ids.map((id) => queues[0].status(id)))).every((s) => s.state === 'completed'));
        expect([...ran.values()].every((n) => n === 1)).toBe(true);
        expect(ran.size).toBe(30);
      } finally {
        for (const q of queues) await q.stop();
        await t.destroy();
      }
    });
  });
}

describe('createQueue', () => {
  it('keeps jobs in the database without REDIS_URL', async () => {
    const t = await testDatabaseDrivers()[0].create();
    try {
      expect(createQueue(loadConfig({}), t.db).name).toBe('db');
    } finally {
      await t.destroy();
    }
  });

  it.runIf(process.env.TEST_REDIS_URL)('uses BullMQ under REDIS_PREFIX when REDIS_URL is set', async () => {
    const t = await testDatabaseDrivers()[0].create();
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const q = createQueue(loadConfig({ REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: prefix }), t.db);
    const r = new Redis(process.env.TEST_REDIS_URL!);
    try {
      expect(q.name).toBe('bullmq');
      await q.enqueue('t.any', { a: 1 }, { jobId: 'x1' });
      expect((await r.keys(`${prefix}:*`)).length).toBeGreaterThan(0);
    } finally {
      await q.stop();
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
      await t.destroy();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  runQueueContract('BullMQ on Redis', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const queues: ReturnType<typeof createBullmqQueue>[] = [];
    return {
      async make() {
        const q = createBullmqQueue({ redisUrl, prefix, leaseMs: 2000 });
        queues.push(q);
        return q;
      },
      async simulateCrashedJob(name, payload) {
        // a worker that takes the job and dies without finishing: its lock expires, BullMQ marks it stalled
        const conn = new Redis(redisUrl, { maxRetriesPerRequest: null });
        const queue = new Queue('cadcloud', { connection: conn, prefix });
        const job = await queue.add(name, payload, { attempts: 3 });
        const { Worker } = await import('bullmq');
        const wconn = new Redis(redisUrl, { maxRetriesPerRequest: null });
        const w = new Worker('cadcloud', null, { connection: wconn, prefix, lockDuration: 1000 });
        await w.getNextJob('crash-token');
        await w.close(true);
        wconn.disconnect();
        await queue.close();
        conn.disconnect();
        return job.id!;
      },
      async cleanup() {
        for (const q of queues) await q.stop().catch(() => undefined);
        const r = new Redis(redisUrl);
        const keys = await r.keys(`${prefix}:*`);
        if (keys.length) await r.del(...keys);
        r.disconnect();
      },
    };
  });
} else {
  describe('queue contract: BullMQ', () => {
    // Skipped only on a developer machine without the service, so the local run says what it did not check.
    // Never in CI: `npm test` provides the service, and with CI set the missing variable fails the run (below).
    it.skip('needs TEST_REDIS_URL (npm test starts Redis)', () => {});
  });
  if (process.env.CI) throw new Error('TEST_REDIS_URL must be set in CI');
}
