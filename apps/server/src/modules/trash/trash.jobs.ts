import { TRASH_RETENTION_DAYS } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createFilesService } from '../files/files.service.ts';

export const TRASH_SWEEP_JOB = 'trash.sweep';

/** Deletes for good what has been in the recycle bin longer than the retention (10 days), batch by batch. */
export async function sweepTrash(deps: AppDeps, now = Date.now()): Promise<number> {
  const files = createFilesService(deps);
  const cutoff = now - TRASH_RETENTION_DAYS * 24 * 3600 * 1000;
  let total = 0;
  for (;;) {
    const batch = await files.repo.expiredTrashRoots(cutoff, 200);
    if (!batch.length) return total;
    const byUser = new Map<string, string[]>();
    for (const r of batch) byUser.set(r.uid, [...(byUser.get(r.uid) ?? []), r.id]);
    for (const [uid, ids] of byUser) total += (await files.purgeTrashRoots(uid, ids)).deleted;
  }
}

export function registerTrashJobs(queue: JobQueue, deps: AppDeps) {
  queue.register(TRASH_SWEEP_JOB, async () => ({ deleted: await sweepTrash(deps) }));
}
