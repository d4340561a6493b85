import os from 'node:os';
import { z } from 'zod';
import { defineConfig, envInt } from '../config/config.ts';

/** 40 % of the machine: the database, the web server and the operating system keep the rest */
export const DEFAULT_WORKER_MEMORY_BUDGET_MB = Math.max(512, Math.floor((os.totalmem() / 1024 / 1024) * 0.4));
/** one worker: room for the scene thread's 2 GB heap, and for LibreDWG on the largest drawings users open */
export const DEFAULT_WORKER_MEMORY_LIMIT_MB = 2560;

/**
 * Memory of the drawing workers (scene, compare, thumbnail, DWG reader processes): each running worker may use up
 * to its limit (real memory, enforced), and all running workers together stay within the budget (jobs wait for room).
 */
export const workersConfig = defineConfig({
  workerMemoryBudgetMb: { env: 'WORKER_MEMORY_BUDGET_MB', schema: envInt(DEFAULT_WORKER_MEMORY_BUDGET_MB, 256, 1 << 22), doc: 'memory all drawing workers together may use at once (MB; default 40 % of the machine)' },
  workerMemoryLimitMbSet: {
    env: 'WORKER_MEMORY_LIMIT_MB',
    schema: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(128)).optional(),
    doc: `memory one drawing worker may use (MB; default ${DEFAULT_WORKER_MEMORY_LIMIT_MB} or the budget if smaller); a worker that goes over is ended and its file fails`,
  },
});
