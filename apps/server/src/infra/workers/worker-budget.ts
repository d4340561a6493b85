import { configureDwgWorker } from '@cadcloud/cad';
import { createMemoryBudget, type MemoryBudget } from './memory-budget.ts';

/** What a drawing worker needs to know about memory: its own limit and the budget it reserves it from. */
export interface WorkerMemory {
  /** MB one worker (a worker thread's job, with the DWG reader process it starts) may use */
  limitMb: number;
  budget: MemoryBudget;
}

const shared = new WeakMap<object, WorkerMemory>();

/**
 * The one budget of an app's workers (keyed by its config: one app per process in production, several in tests).
 * The first call also bounds this thread's own DWG reader process (thumbnails convert DWG in the main thread): the
 * same per-worker limit, and stopped as soon as it is idle so its memory is only held under a reservation.
 */
export function workerMemory(config: { workerMemoryBudgetMb: number; workerMemoryLimitMb: number }): WorkerMemory {
  let m = shared.get(config);
  if (!m) {
    m = { limitMb: config.workerMemoryLimitMb, budget: createMemoryBudget(config.workerMemoryBudgetMb) };
    shared.set(config, m);
    configureDwgWorker({ memoryLimitMb: m.limitMb, idleMs: 0 });
  }
  return m;
}

/**
 * The V8 heap cap of a worker thread within its worker limit: the configured heap, less what the young generation
 * and the thread's own code and buffers need.
 */
export function threadHeapMb(configuredMb: number, limitMb: number, youngMb: number): number {
  return Math.max(64, Math.min(configuredMb, limitMb - youngMb - 64));
}
