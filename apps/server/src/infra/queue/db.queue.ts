import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../db/ids.ts';
import { isUniqueViolation } from '../db/db.ts';
import { JOB_STATES, type EnqueueOptions, type JobHandler, type JobQueue, type JobState } from './queue.types.ts';

/** The default lease (JOB_LEASE_MS): a job of a killed worker waits about this long before another takes it. */
export const DEFAULT_JOB_LEASE_MS = 20_000;

export interface DbQueueOptions {
  pollMs?: number;
  /** how long a claimed job is ours without renewal; a crashed worker's job is taken again after this */
  lockMs?: number;
  concurrency?: number;
}

/**
 * Durable jobs in the application database: enqueue is an INSERT, claiming is an atomic UPDATE of a
 * waiting (or lock-expired) row, so jobs survive a restart and a job of a killed worker runs again.
 */
export function createDbQueue(db: Kysely<Database>, opts: DbQueueOptions = {}): JobQueue {
  const pollMs = opts.pollMs ?? 500;
  const lockMs = opts.lockMs ?? DEFAULT_JOB_LEASE_MS;
  const concurrency = opts.concurrency ?? 2;
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const handlers = new Map<string, JobHandler<any>>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  const schedules = new Map<string, number>();
  let stopped = true;

  /** A schedule is one row that cycles waiting → active → waiting, so there is never more than one pending run. */
  const scheduleId = (name: string) => `schedule:${name}`;

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
    const everyMs = job.id === scheduleId(job.name) ? schedules.get(job.name) : undefined;
    const ctx = {
      id: job.id,
      name: job.name,
      attempt: job.attempts,
      progress: async (pct: number) => {
        await db.updateTable('jobs').set({ progress: Math.round(pct), updated_at: Date.now() }).where('id', '=', job.id).execute();
      },
    };
    // The lease is renewed three times per period while the handler runs, so a long job (a big zip) is never
    // taken over while its worker lives, and a killed worker's job is free again one lease after its last renewal.
    // Renewal only extends a lease we still hold: one lost to another worker (the database away longer than the
    // lease) stays lost, and below that worker alone records the outcome.
    const heartbeat = setInterval(() => {
      void db
        .updateTable('jobs')
        .set({ locked_until: Date.now() + lockMs })
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'active')
        .execute()
        .catch(() => undefined);
    }, Math.max(10, Math.floor(lockMs / 3)));
    let outcome: { result: string | null; error: null } | { result: null; error: string };
    try {
      const result = await handler(JSON.parse(job.payload), ctx);
      outcome = { result: result === undefined ? null : JSON.stringify(result), error: null };
    } catch (err) {
      outcome = { result: null, error: (err as Error)?.message ?? String(err) };
    } finally {
      clearInterval(heartbeat);
    }
    const now = Date.now();
    const unlocked = { locked_by: null, locked_until: null, updated_at: now };
    // only the worker holding the lease records an outcome
    const mine = db.updateTable('jobs').where('id', '=', job.id).where('locked_by', '=', workerId);
    if (everyMs !== undefined) {
      // a scheduled run plans the next one whatever the outcome (also while stopping: the row waits for the next start)
      await mine.set({ ...unlocked, state: 'waiting', run_at: now + everyMs, attempts: 0, progress: 0, result: outcome.result, last_error: outcome.error }).execute();
    } else if (outcome.error === null) {
      await mine.set({ ...unlocked, state: 'completed', progress: 100, result: outcome.result }).execute();
    } else {
      const retry = job.attempts < job.max_attempts;
      // exponential backoff: 1 s, 2 s, 4 s …
      await mine.set({ ...unlocked, state: retry ? 'waiting' : 'failed', run_at: now + (retry ? 1000 * 2 ** (job.attempts - 1) : 0), last_error: outcome.error }).execute();
    }
  }

  let ticking: Promise<void> = Promise.resolve();
  function tick() {
    ticking = claimAndRun();
  }
  async function claimAndRun() {
    if (stopped) return;
    try {
      while (!stopped && running.size < concurrency) {
        const job = await claim();
        if (!job) break;
        // run() records failures itself; a failure to record (database gone while stopping) must not crash the server
        const p = run(job)
          .catch((e) => console.error(`job ${job.id} (${job.name}): could not record the outcome`, e))
          .finally(() => running.delete(p));
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
      const id = scheduleId(name);
      const now = Date.now();
      // several processes may call this at start: the row id makes the insert a no-op for all but one
      await api.enqueue(name, {}, { jobId: id, attempts: 1 });
      // a row left finished by older code, or planned further out than the (maybe shortened) interval: due again
      await db
        .updateTable('jobs')
        .set({ state: 'waiting', run_at: now, attempts: 0, updated_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('state', 'in', ['completed', 'failed']), eb.and([eb('state', '=', 'waiting'), eb('run_at', '>', now + everyMs)])]))
        .execute();
    },
    async start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // a claim in flight may still hand over a job: wait for it, then for every running job
      await ticking;
      await Promise.allSettled([...running]);
    },
    async status(jobId) {
      const j = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      if (!j) return { state: 'unknown', progress: 0 };
      return { state: j.state as 'waiting', progress: j.progress, error: j.last_error ?? undefined, result: j.result ? JSON.parse(j.result) : undefined };
    },
    async list(o = {}) {
      let q = db.selectFrom('jobs').select(['id', 'name', 'state', 'attempts', 'progress', 'last_error', 'created_at', 'updated_at']).orderBy('created_at', 'desc').limit(o.limit ?? 50);
      if (o.state) q = q.where('state', '=', o.state);
      return (await q.execute()).map((j) => ({ id: j.id, name: j.name, state: j.state as JobState, attempts: j.attempts, progress: j.progress, error: j.last_error ?? undefined, createdAt: Number(j.created_at), updatedAt: Number(j.updated_at) }));
    },
    async retry(jobId) {
      const now = Date.now();
      const r = await db.updateTable('jobs').set({ state: 'waiting', run_at: now, attempts: 0, progress: 0, last_error: null, updated_at: now }).where('id', '=', jobId).where('state', '=', 'failed').executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async cancel(jobId) {
      // a schedule's row is the schedule itself: cancelling it would stop the sweep until the next start
      if (jobId.startsWith('schedule:')) return false;
      const r = await db.deleteFrom('jobs').where('id', '=', jobId).where('state', 'in', ['waiting', 'failed']).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
    async counts() {
      const rows = await db.selectFrom('jobs').select(['state', db.fn.countAll<string>().as('n')]).groupBy('state').execute();
      const out = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
      for (const r of rows) if (r.state in out) out[r.state as JobState] = Number(r.n);
      return out;
    },
  };
  return api;
}
