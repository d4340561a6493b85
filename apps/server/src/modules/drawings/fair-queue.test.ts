import { describe, expect, it } from 'vitest';
import { createFairQueue, PreemptedError, QueueFullError } from './fair-queue.ts';

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

  /** a task that runs until released or stopped (its signal aborts it, as the scene worker's thread is ended) */
  const held = (log: string[], name: string) => {
    let release!: () => void;
    const task = (signal: AbortSignal) => {
      log.push(`${name} start`);
      return new Promise<string>((resolve, reject) => {
        release = () => resolve(name);
        signal.addEventListener('abort', () => {
          log.push(`${name} stopped`);
          reject(signal.reason);
        });
      });
    };
    return { task, release: () => release() };
  };

  it('an open pre-empts a running background build, which runs again after it (issue 16 item 14)', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const log: string[] = [];
    const bg = held(log, 'prewarm');
    const prewarm = q.run('a', bg.task, { background: true });
    const later = q.run('a', async () => void log.push('prewarm2'), { background: true });
    expect(log).toEqual(['prewarm start']);
    // the open does not wait for the running background build: it is stopped, the open runs at once
    const open = q.run('b', async () => void log.push('open'));
    expect(await open).toBeUndefined();
    // the stopped build runs again when the open is done, first of its owner's line; its caller gets that run's result
    await tick();
    expect(log).toEqual(['prewarm start', 'prewarm stopped', 'open', 'prewarm start']);
    bg.release();
    expect(await prewarm).toBe('prewarm');
    await later;
    expect(log).toEqual(['prewarm start', 'prewarm stopped', 'open', 'prewarm start', 'prewarm2']);
  });

  it('a background build is stopped a bounded number of times, then finishes (its lost work is bounded)', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10, maxPreemptions: 2 });
    const log: string[] = [];
    const bg = held(log, 'bg');
    const build = q.run('a', bg.task, { background: true });
    for (let k = 0; k < 3; k++) {
      const open = q.run('b', async () => void log.push(`open${k}`));
      // the third open waits for the build: it was stopped twice already
      if (k === 2) {
        await tick();
        expect(log.at(-1)).toBe('bg start');
        bg.release();
      }
      await open;
    }
    expect(await build).toBe('bg');
    expect(log.filter((l) => l === 'bg stopped')).toHaveLength(2);
    expect(log.at(-1)).toBe('open2');
  });

  it('a running background build an open joined is not stopped for another open', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const log: string[] = [];
    const bg = held(log, 'joined');
    const ticket = { background: true };
    const build = q.run('a', bg.task, ticket);
    ticket.background = false;
    q.promote();
    const other = q.run('b', async () => void log.push('other open'));
    await tick();
    expect(log).toEqual(['joined start']);
    bg.release();
    await Promise.all([build, other]);
    expect(log).toEqual(['joined start', 'other open']);
  });

  it('yielding work (thumbnails) is stopped when an open comes and runs again when it is done', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueuedPerUser: 10 });
    const log: string[] = [];
    const thumb = held(log, 'thumb');
    const render = q.yielding(10_000, thumb.task);
    await tick();
    expect(log).toEqual(['thumb start']);
    let releaseOpen!: () => void;
    const open = q.run('b', () => new Promise<void>((r) => (releaseOpen = r)));
    await tick();
    expect(log).toEqual(['thumb start', 'thumb stopped']);
    releaseOpen();
    await open;
    await tick();
    expect(log).toEqual(['thumb start', 'thumb stopped', 'thumb start']);
    thumb.release();
    expect(await render).toBe('thumb');
    // a stop is no failure: an error of the work itself still fails it
    await expect(q.yielding(100, async () => { throw new Error('bad drawing'); })).rejects.toThrow('bad drawing');
    expect(new PreemptedError()).toBeInstanceOf(Error);
  });

  it('with a slot kept for opens, an open starts at once; a running background build stops for it and waits until it ends', async () => {
    const q = createFairQueue({ concurrency: 2, backgroundSlots: 1, maxQueuedPerUser: 10 });
    const log: string[] = [];
    const bg = held(log, 'bg1');
    const first = q.run('a', bg.task, { background: true });
    const second = q.run('a', async () => void log.push('bg2'), { background: true });
    await tick();
    // the second background build does not take the open's slot
    expect(log).toEqual(['bg1 start']);
    let releaseOpen!: () => void;
    const open = q.run('b', () => new Promise<void>((r) => (releaseOpen = r)).then(() => void log.push('open')));
    await tick();
    // the background build does not run beside the open (it would take a core from it)
    expect(log).toEqual(['bg1 start', 'bg1 stopped']);
    releaseOpen();
    await open;
    await tick();
    expect(log).toEqual(['bg1 start', 'bg1 stopped', 'open', 'bg1 start']);
    bg.release();
    await Promise.all([first, second]);
    expect(log.at(-1)).toBe('bg2');
  });
});
