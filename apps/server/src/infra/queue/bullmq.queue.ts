import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EnqueueOptions, JobHandler, JobQueue, JobState, JobSummary } from './queue.types.ts';
import { DEFAULT_JOB_LEASE_MS } from './db.queue.ts';

/**
 * BullMQ's worker settings for a lease: the lock, renewed every third of it (a live worker keeps it through two
 * missed renewals), and the check for lapsed locks every quarter of it: a killed worker's job is taken again
 * between 2/3 and 5/4 of a lease after the kill.
 */
export function bullmqLease(leaseMs: number) {
  return { lockDuration: leaseMs, lockRenewTime: Math.floor(leaseMs / 3), stalledInterval: Math.max(500, Math.floor(leaseMs / 4)) };
}

/** Our four states in BullMQ's words (a delayed job is one waiting for its time, a retry waiting for its backoff). */
const BULLMQ_TYPES: Record<JobState, ('waiting' | 'delayed' | 'prioritized' | 'waiting-children' | 'active' | 'completed' | 'failed')[]> = {
  waiting: ['waiting', 'delayed', 'prioritized', 'waiting-children'],
  active: ['active'],
  completed: ['completed'],
  failed: ['failed'],
};
const ourState = (s: string): JobState => (s === 'active' || s === 'completed' || s === 'failed' ? s : 'waiting');

/**
 * BullMQ on Redis: the scale-out driver (workers in separate processes with PROCESS_MODE=worker).
 * `leaseMs` (JOB_LEASE_MS) is BullMQ's lock, renewed while a job runs, so a live worker keeps its job however
 * long it takes; a killed worker's lock lapses and the stalled-job check gives the job to another worker
 * (see bullmqLease).
 */
export function createBullmqQueue(opts: { redisUrl: string; prefix?: string; queueName?: string; concurrency?: number; leaseMs?: number }): JobQueue {
  const connection = () => new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  const queueName = opts.queueName ?? 'cadcloud';
  const prefix = opts.prefix ?? 'cadcloud';
  const queueConn = connection();
  const queue = new Queue(queueName, { connection: queueConn, prefix });
  const handlers = new Map<string, JobHandler<any>>();
  let worker: Worker | null = null;
  let workerConn: Redis | null = null;

  return {
    name: 'bullmq',
    register(name, handler) {
      handlers.set(name, handler);
    },
    async enqueue(name, payload, o: EnqueueOptions = {}) {
      const job = await queue.add(name, payload ?? null, {
        jobId: o.jobId?.replace(/:/g, '_'),
        delay: o.delayMs,
        attempts: o.attempts ?? 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 30 * 24 * 3600 },
      });
      return job.id!;
    },
    async schedule(name, everyMs) {
      await queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {} });
    },
    async start() {
      if (worker) return;
      workerConn = connection();
      worker = new Worker(
        queueName,
        async (job: Job) => {
          const handler = handlers.get(job.name);
          if (!handler) throw new Error(`no handler registered for ${job.name}`);
          return handler(job.data, { id: job.id!, name: job.name, attempt: job.attemptsMade + 1, progress: (pct) => job.updateProgress(Math.round(pct)) });
        },
        { connection: workerConn, prefix, concurrency: opts.concurrency ?? 2, ...bullmqLease(opts.leaseMs ?? DEFAULT_JOB_LEASE_MS) },
      );
    },
    async stop() {
      await worker?.close();
      worker = null;
      await queue.close();
      workerConn?.disconnect();
      queueConn.disconnect();
    },
    async status(jobId) {
      const id = jobId.replace(/:/g, '_');
      // state first, then the job: read the other way round, a job finishing in between looks completed without its result
      const s = await queue.getJobState(id);
      const job = await queue.getJob(id);
      if (!job) return { state: 'unknown', progress: 0 };
      const state = s === 'completed' || s === 'failed' || s === 'active' ? s : s === 'unknown' ? 'unknown' : 'waiting';
      return { state, progress: state === 'completed' ? 100 : typeof job.progress === 'number' ? job.progress : 0, error: job.failedReason || undefined, result: job.returnvalue ?? undefined };
    },
    async list(o = {}) {
      const limit = o.limit ?? 50;
      const types = o.state ? BULLMQ_TYPES[o.state] : Object.values(BULLMQ_TYPES).flat();
      const jobs = (await queue.getJobs(types, 0, limit - 1, false)).filter(Boolean);
      const states = await Promise.all(jobs.map((j) => j.getState()));
      const summaries: JobSummary[] = jobs.map((j, i) => ({ id: j.id!, name: j.name, state: ourState(states[i]), attempts: j.attemptsMade, progress: typeof j.progress === 'number' ? j.progress : 0, error: j.failedReason || undefined, createdAt: j.timestamp, updatedAt: j.finishedOn ?? j.processedOn ?? j.timestamp }));
      return summaries.sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
    },
    async retry(jobId) {
      const job = await queue.getJob(jobId.replace(/:/g, '_'));
      if (!job || !(await job.isFailed())) return false;
      await job.retry('failed', { resetAttemptsMade: true });
      return true;
    },
    async cancel(jobId) {
      const job = await queue.getJob(jobId.replace(/:/g, '_'));
      if (!job || !['waiting', 'delayed', 'prioritized', 'failed'].includes(await job.getState())) return false;
      // a job a worker takes meanwhile is locked: remove then fails, and the job runs
      return job.remove().then(() => true, () => false);
    },
    async counts() {
      const c = await queue.getJobCounts(...Object.values(BULLMQ_TYPES).flat());
      const out = {} as Record<JobState, number>;
      for (const [s, types] of Object.entries(BULLMQ_TYPES) as [JobState, string[]][]) out[s] = types.reduce((n, t) => n + (c[t] ?? 0), 0);
      return out;
    },
  };
}
