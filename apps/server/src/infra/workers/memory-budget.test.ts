import { describe, expect, it } from 'vitest';
import { createMemoryBudget } from './memory-budget.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('the workers\' memory budget', () => {
  it('lets jobs run while their limits fit, makes the next one wait (not fail) and starts it when one ends', async () => {
    const b = createMemoryBudget(1000);
    const r1 = await b.reserve(400);
    const r2 = await b.reserve(400);
    expect(b.inUseMb).toBe(800);
    let third = false;
    const p3 = b.reserve(400).then((r) => ((third = true), r));
    await tick();
    expect(third).toBe(false);
    expect(b.waiting).toBe(1);
    r1();
    const r3 = await p3;
    expect(third).toBe(true);
    expect(b.inUseMb).toBe(800);
    r2();
    r3();
    expect(b.inUseMb).toBe(0);
  });

  it('serves waiting jobs in order: a large one is not starved by small ones that would fit', async () => {
    const b = createMemoryBudget(1000);
    const first = await b.reserve(600);
    const order: string[] = [];
    const big = b.reserve(800).then((r) => (order.push('big'), r));
    const small = b.reserve(100).then((r) => (order.push('small'), r));
    await tick();
    // 100 MB would fit beside the first job, but the big one asked before it
    expect(order).toEqual([]);
    first();
    (await big)();
    (await small)();
    expect(order).toEqual(['big', 'small']);
  });

  it('releases once however often release is called, and after a job that throws', async () => {
    const b = createMemoryBudget(500);
    const r = await b.reserve(300);
    r();
    r();
    expect(b.inUseMb).toBe(0);
    await expect(b.run(300, async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(b.inUseMb).toBe(0);
  });

  it('never holds more than the budget however many jobs ask at once', async () => {
    const b = createMemoryBudget(1000);
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        b.run(300, async () => {
          peak = Math.max(peak, b.inUseMb);
          await new Promise((r) => setTimeout(r, 1 + (i % 3)));
        }),
      ),
    );
    expect(peak).toBeLessThanOrEqual(1000);
    expect(peak).toBe(900);
    expect(b.inUseMb).toBe(0);
  });

  it('runs a request larger than the whole budget alone instead of waiting forever', async () => {
    const b = createMemoryBudget(500);
    const r = await b.reserve(800);
    expect(b.inUseMb).toBe(500);
    r();
  });
});
