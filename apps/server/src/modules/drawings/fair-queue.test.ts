import { describe, expect, it } from 'vitest';
import { createFairQueue, QueueFullError } from './fair-queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('fair queue', () => {
  it('serves users in turn: a second user waits for one of the first user’s builds, not all of them', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
      await tick();
    };
    const all = [q.run('a', job('a1')), q.run('a', job('a2')), q.run('a', job('a3')), q.run('a', job('a4')), q.run('b', job('b1')), q.run('a', job('a5')), q.run('c', job('c1'))];
    await Promise.all(all);
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4', 'a5']);
  });

  it('refuses a user’s builds past their share of the queue, not other users’', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 2 });
    let release!: () => void;
    const held = q.run('a', () => new Promise<void>((r) => (release = r)));
    const queued = [q.run('a', async () => 1), q.run('a', async () => 2)];
    await expect(q.run('a', async () => 3)).rejects.toBeInstanceOf(QueueFullError);
    const other = q.run('b', async () => 'b');
    release();
    expect(await other).toBe('b');
    expect(await Promise.all(queued)).toEqual([1, 2]);
    await held;
  });

  it('a failing task frees its slot', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 2 });
    await expect(q.run('a', async () => { throw new Error('x'); })).rejects.toThrow('x');
    expect(await q.run('a', async () => 'next')).toBe('next');
  });
});
