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

  it('an open goes before waiting background builds (the prewarm after uploads), whoever is in turn', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const order: string[] = [];
    let release!: () => void;
    const first = q.run('a', () => new Promise<void>((r) => (release = r)).then(() => void order.push('a-running')), { background: true });
    const job = (name: string) => async () => void order.push(name);
    const bg = [q.run('a', job('a-prewarm2'), { background: true }), q.run('c', job('c-prewarm'), { background: true })];
    const open = q.run('b', job('b-open'));
    release();
    await Promise.all([first, ...bg, open]);
    expect(order).toEqual(['a-running', 'b-open', 'a-prewarm2', 'c-prewarm']);
  });

  it('an open that joins a waiting background build takes it to the front', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const order: string[] = [];
    let release!: () => void;
    const first = q.run('x', () => new Promise<void>((r) => (release = r)), { background: true });
    const job = (name: string) => async () => void order.push(name);
    const others = [q.run('x', job('x-prewarm'), { background: true }), q.run('y', job('y-prewarm'), { background: true })];
    const ticket = { background: true };
    const mine = q.run('z', job('z-prewarm-now-opened'), ticket);
    ticket.background = false;
    q.promote();
    release();
    await Promise.all([first, ...others, mine]);
    expect(order[0]).toBe('z-prewarm-now-opened');
  });

  it('quiet() waits while an open waits or runs, not for background builds, and gives up after its time', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    let releaseBg!: () => void;
    const bg = q.run('a', () => new Promise<void>((r) => (releaseBg = r)), { background: true });
    let quiet = false;
    await q.quiet(1000).then(() => (quiet = true));
    expect(quiet).toBe(true);
    let releaseOpen!: () => void;
    const open = q.run('b', () => new Promise<void>((r) => (releaseOpen = r)));
    let done = false;
    const waiting = q.quiet(5000).then(() => (done = true));
    releaseBg();
    await bg;
    await tick();
    expect(done).toBe(false);
    releaseOpen();
    await open;
    await waiting;
    expect(done).toBe(true);
    // an open that never ends does not hold background work for ever
    const stuck = q.run('c', () => new Promise<void>(() => undefined));
    const t0 = Date.now();
    await q.quiet(50);
    expect(Date.now() - t0).toBeLessThan(1000);
    void stuck;
  });
});
