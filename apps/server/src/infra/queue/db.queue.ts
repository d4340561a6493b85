import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../db/ids.ts';
import { isUniqueViolation } from '../db/db.ts';
import type { EnqueueOptions, JobHandler, JobQueue } from './queue.types.ts';

export interface DbQueueOptions {
  pollMs?: number;
  /** how long a claimed job is ours; a crashed worker's job is taken again after this */
  lockMs?: number;
  concurrency?: number;
}

/**
 * Durable jobs in the application database: enqueue is an INSERT, claiming is an atomic UPDATE of a
 * waiting (or lock-expired) row, so jobs survive a restart and a job of a killed worker runs again.
 */
export function createDbQueue(db: Kysely<Database>, opts: DbQueueOptions = {}): JobQueue {
  const pollMs = opts.pollMs ?? 500;
  const lockMs = opts.lockMs ?? 5 * 60_000;
  const concurrency = opts.concurrency ?? 2;
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const handlers = new Map<string, JobHandler<any>>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  const schedules = new Map<string, number>();
  let stopped = true;

  async function enqueueNext(name: string, delayMs: number) {
    const everyMs = schedules.get(name)!;
    await api.enqueue(name, {}, { jobId: `${name}:${Math.floor((Date.now() + delayMs) / everyMs)}`, delayMs, attempts: 1 });
  }

  async function claim(): Promise<Database['jobs'] | undefined> {
    const now = Date.now();
    const names = [...handlers.keys()];
    if (!names.length) return undefined;
    const candidate = await db
      .selectFrom('jobs')
      .select('id')
      .where('name', 'in', names)
      .where((eb) => eb.or([eb.and([eb('state', '=', 'waiting'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'active'), eb('locked_until', '<', now)])]))
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    if (!candidate) return undefined;
    // the WHERE repeats the claimable condition: of two workers racing for a row only one UPDATE matches
    const res = await db
      .updateTable('jobs')
      .set((eb) => ({ state: 'active', locked_by: workerId, locked_until: now + lockMs, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', '=', candidate.id)
      .where((eb) => eb.or([eb.and([eb('state', '=', 'waiting'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'active'), eb('locked_until', '<', now)])]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    return db.selectFrom('jobs').selectAll().where('id', '=', candidate.id).executeTakeFirst();
  }

  async function run(job: Database['jobs']) {
    const handler = handlers.get(job.name)!;
    const ctx = {
      id: job.id,
      name: job.name,
      attempt: job.attempts,
      progress: async (pct: number) => {
        await db.updateTable('jobs').set({ progress: Math.round(pct), updated_at: Date.now() }).where('id', '=', job.id).execute();
      },
    };
    try {
      const result = await handler(JSON.parse(job.payload), ctx);
      await db
        .updateTable('jobs')
        .set({ state: 'completed', progress: 100, result: result === undefined ? null : JSON.stringify(result), locked_by: null, locked_until: null, updated_at: Date.now() })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      const retry = job.attempts < job.max_attempts;
      await db
        .updateTable('jobs')
        .set({
          state: retry ? 'waiting' : 'failed',
          // exponential backoff: 1 s, 2 s, 4 s …
          run_at: Date.now() + (retry ? 1000 * 2 ** (job.attempts - 1) : 0),
          last_error: message,
          locked_by: null,
          locked_until: null,
          updated_at: Date.now(),
        })
        .where('id', '=', job.id)
        .execute();
    }
    // a scheduled job plans its next run when it ends, whatever the outcome
    if (schedules.has(job.name) && !stopped) await enqueueNext(job.name, schedules.get(job.name)!).catch(() => undefined);
  }

  async function tick() {
    if (stopped) return;
    try {
      while (!stopped && running.size < concurrency) {
        const job = await claim();
        if (!job) break;
        const p = run(job).finally(() => running.delete(p));
        running.add(p);
      }
    } catch {
      // the database may be briefly unavailable; the next tick retries
    }
    if (!stopped) timer = setTimeout(tick, pollMs);
  }

  const api: JobQueue = {
    name: 'db',
    register(name, handler) {
      handlers.set(name, handler);
    },
    async enqueue(name, payload, o: EnqueueOptions = {}) {
      const id = o.jobId ?? newId();
      const now = Date.now();
      try {
        await db
          .insertInto('jobs')
          .values({ id, name, payload: JSON.stringify(payload ?? null), state: 'waiting', run_at: now + (o.delayMs ?? 0), attempts: 0, max_attempts: o.attempts ?? 3, progress: 0, locked_by: null, locked_until: null, last_error: null, result: null, created_at: now, updated_at: now })
          .execute();
      } catch (err) {
        // a job with this id exists already: enqueueing is idempotent
        if (!isUniqueViolation(err)) throw err;
      }
      return id;
    },
    async schedule(name, everyMs) {
      if (!handlers.has(name)) throw new Error(`no handler registered for ${name}`);
      schedules.set(name, everyMs);
      // one pending job per schedule (slot ids make a second process's enqueue a no-op)
      const pending = await db.selectFrom('jobs').select('id').where('name', '=', name).where('state', 'in', ['waiting', 'active']).executeTakeFirst();
      if (!pending) await enqueueNext(name, 0);
    },
    async start() {
      if (!stopped) return;
      stopped = false;
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
    async status(jobId) {
      const j = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      if (!j) return { state: 'unknown', progress: 0 };
      return { state: j.state as 'waiting', progress: j.progress, error: j.last_error ?? undefined, result: j.result ? JSON.parse(j.result) : undefined };
    },
  };
  return api;
}
