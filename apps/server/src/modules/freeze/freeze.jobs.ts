import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createFreezeService } from './freeze.service.ts';

export const FREEZE_SWEEP_JOB = 'freeze.sweep';
/** Hourly: an entitlement that ended freezes within the hour (and at once when the user's state is read). */
export const FREEZE_SWEEP_EVERY_MS = 3600_000;

export function registerFreezeJobs(queue: JobQueue, deps: AppDeps) {
  queue.register(FREEZE_SWEEP_JOB, () => createFreezeService(deps).sweep());
}
