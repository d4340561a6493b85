import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '../infra/config/index.ts';
import { testDatabaseDrivers, type TestDatabase } from '../infra/db/test-databases.ts';
import { createDatabase } from '../infra/db/db.ts';
import { createQueue } from '../infra/queue/queue.factory.ts';
import type { JobQueue } from '../infra/queue/queue.types.ts';
import { repoRoot } from '../test/server-process.ts';
import { until } from '../test/until.ts';

/**
 * Issue 14 item 13: a job whose worker was killed waited about five minutes (the database queue's lock) before
 * another worker took it. With the default lease (JOB_LEASE_MS, renewed while the job runs) it is taken again
 * within about half a minute on both drivers; and a job running several leases long on a live worker is never
 * taken twice.
 */
const RETAKEN_WITHIN_MS = 35_000;

interface Backend {
  name: string;
  env: Record<string, string>;
  queue(env?: Record<string, string>): JobQueue;
  cleanup(): Promise<void>;
}

async function databaseBackend(driver: ReturnType<typeof testDatabaseDrivers>[number]): Promise<Backend> {
  const t: TestDatabase = await driver.create();
  const env: Record<string, string> = { DATABASE_URL: t.url, ...(t.searchPath ? { TEST_PG_SCHEMA: t.searchPath } : {}) };
  return { name: `database (${driver.name})`, env, queue: (extra = {}) => createQueue(loadConfig({ ...env, ...extra }), t.db), cleanup: () => t.destroy() };
}

async function bullmqBackend(redisUrl: string): Promise<Backend> {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const db = await testDatabaseDrivers()[0].create();
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix, DATABASE_URL: db.url };
  return {
    name: 'BullMQ',
    env,
    queue: (extra = {}) => createQueue(loadConfig({ ...env, ...extra }), db.db),
    async cleanup() {
      const r = new Redis(redisUrl);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
      await db.destroy();
    },
  };
}

const backends: (() => Promise<Backend>)[] = [...testDatabaseDrivers().map((d) => () => databaseBackend(d)), ...(process.env.TEST_REDIS_URL ? [() => bullmqBackend(process.env.TEST_REDIS_URL!)] : [])];

describe('a job whose worker is killed', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  /** A worker process with the production queue settings, which starts the job and never finishes it. */
  async function hangingWorker(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/test/queue-worker-child.ts'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    return { child, started: () => until(async () => /started /.test(out), 90_000).catch(() => Promise.reject(new Error(`the worker did not start the job:\n${out}`))) };
  }

  for (const make of backends) {
    it.concurrent('is taken again by another worker within the default lease', { timeout: 240_000 }, async () => {
      const b = await make();
      const producer = b.queue();
      try {
        const id = await producer.enqueue('t.hang', { n: 1 }, { attempts: 3 });
        const w = await hangingWorker(b.env);
        await w.started();
        const exited = new Promise((r) => w.child.once('exit', r));
        w.child.kill('SIGKILL');
        await exited;
        const killedAt = Date.now();
        let retakenAt = 0;
        const next = b.queue();
        next.register('t.hang', async () => {
          retakenAt ||= Date.now();
        });
        await next.start();
        try {
          await until(async () => (await next.status(id)).state === 'completed', RETAKEN_WITHIN_MS + 20_000);
        } finally {
          await next.stop();
        }
        console.log(`${b.name}: the killed worker's job was taken again after ${retakenAt - killedAt} ms`);
        expect(retakenAt - killedAt).toBeLessThan(RETAKEN_WITHIN_MS);
      } finally {
        await producer.stop();
        await b.cleanup();
      }
    });

    it.concurrent('runs once on a live worker though it takes several leases', { timeout: 120_000 }, async () => {
      const b = await make();
      // a short lease so the job outlives it four times over; two workers watch for a lapsed lease
      const queues = [b.queue({ JOB_LEASE_MS: '2000' }), b.queue({ JOB_LEASE_MS: '2000' })];
      let runs = 0;
      try {
        for (const q of queues) {
          q.register('t.long', async () => {
            runs++;
            await new Promise((r) => setTimeout(r, 8000));
          });
        }
        const id = await queues[0].enqueue('t.long', {});
        await Promise.all(queues.map((q) => q.start()));
        await until(async () => (await queues[0].status(id)).state === 'completed', 60_000);
        expect(runs).toBe(1);
      } finally {
        for (const q of queues) await q.stop();
        await b.cleanup();
      }
    });
  }
});
