import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createUnzipService, UNZIP_ATTEMPTS, UNZIP_RUN_JOB, UNZIP_SWEEP_JOB } from './unzip.service.ts';

/**
 * unzip.run: one decompression. Durable (database table or BullMQ): a server killed mid-extraction leaves the job to
 * be taken again after its lease, and the task resumes (files stored before are skipped) or, killed on its last
 * attempt, fails cleanly. When another decompression of the same user runs, the job comes back a moment later.
 */
export function registerUnzipJobs(queue: JobQueue, deps: AppDeps) {
  const unzip = createUnzipService(deps);
  queue.register<{ taskId: string; turn?: number }>(UNZIP_RUN_JOB, async (p, ctx) => {
    const r = await unzip.run(p.taskId, ctx);
    if (r === 'later') {
      const turn = (p.turn ?? 0) + 1;
      await queue.enqueue(UNZIP_RUN_JOB, { taskId: p.taskId, turn }, { jobId: `unzip-${p.taskId}-t${turn}`, delayMs: 1000, attempts: UNZIP_ATTEMPTS });
    }
    return r;
  });
  queue.register(UNZIP_SWEEP_JOB, async () => unzip.sweepStranded());
}

/** how often stranded decompressions are looked for */
export const UNZIP_SWEEP_EVERY_MS = 5 * 60_000;
