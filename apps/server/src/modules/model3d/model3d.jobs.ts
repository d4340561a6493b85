import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createModel3dService, MODEL3D_RUN_JOB, MODEL3D_SWEEP_JOB } from './model3d.service.ts';

/**
 * model3d.run: one 3D conversion in a capped worker thread of its own. The job is durable (database table or BullMQ):
 * a process killed mid-conversion leaves the job to be taken again after its lease, and the conversion resumes (or,
 * killed on its last attempt, ends as failed): never stuck "converting".
 */
export function registerModel3dJobs(queue: JobQueue, deps: AppDeps) {
  const model3d = createModel3dService(deps);
  queue.register<{ id: string }>(MODEL3D_RUN_JOB, (p, ctx) => model3d.run(p.id, ctx));
  queue.register(MODEL3D_SWEEP_JOB, async () => ({ ended: await model3d.sweepStranded() }));
}

/** how often stranded 3D conversions are looked for */
export const MODEL3D_SWEEP_EVERY_MS = 5 * 60_000;
