import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createDownloadsService, ZIP_BUILD_JOB } from './downloads.service.ts';

/** zip.build: when another zip of the same user is running, the job re-queues itself a moment later. */
export function registerDownloadJobs(queue: JobQueue, deps: AppDeps) {
  const downloads = createDownloadsService(deps);
  queue.register<{ taskId: string; turn?: number }>(ZIP_BUILD_JOB, async (p, ctx) => {
    const r = await downloads.buildZip(p.taskId, ctx.progress);
    if (r === 'later') {
      const turn = (p.turn ?? 0) + 1;
      await queue.enqueue(ZIP_BUILD_JOB, { taskId: p.taskId, turn }, { jobId: `zip-${p.taskId}-${turn}`, delayMs: 1000 });
    }
    return r;
  });
}
