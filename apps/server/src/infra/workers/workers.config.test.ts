import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';

describe('the workers\' memory settings', () => {
  it('default to a budget well under the machine\'s memory and a per-worker limit that fits in it', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/x' });
    const machineMb = os.totalmem() / 1024 / 1024;
    expect(c.workerMemoryBudgetMb).toBeLessThanOrEqual(Math.max(512, machineMb * 0.4));
    expect(c.workerMemoryLimitMb).toBeLessThanOrEqual(c.workerMemoryBudgetMb);
    expect(c.workerMemoryLimitMb).toBe(Math.min(2560, c.workerMemoryBudgetMb));
  });

  it('take the operator\'s values, a small budget lowering the default limit', () => {
    expect(loadConfig({ WORKER_MEMORY_BUDGET_MB: '3000', WORKER_MEMORY_LIMIT_MB: '1000' })).toMatchObject({ workerMemoryBudgetMb: 3000, workerMemoryLimitMb: 1000 });
    expect(loadConfig({ WORKER_MEMORY_BUDGET_MB: '1500' }).workerMemoryLimitMb).toBe(1500);
  });

  it('refuse a limit larger than the budget, and nonsense, naming the variable', () => {
    expect(() => loadConfig({ WORKER_MEMORY_BUDGET_MB: '1000', WORKER_MEMORY_LIMIT_MB: '2000' })).toThrow(/WORKER_MEMORY_LIMIT_MB.*must fit in WORKER_MEMORY_BUDGET_MB/);
    expect(() => loadConfig({ WORKER_MEMORY_LIMIT_MB: 'lots' })).toThrow(/WORKER_MEMORY_LIMIT_MB/);
    expect(() => loadConfig({ WORKER_MEMORY_BUDGET_MB: '10' })).toThrow(/WORKER_MEMORY_BUDGET_MB/);
  });
});
