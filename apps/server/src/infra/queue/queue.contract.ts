import { describe, expect, it } from 'vitest';
import type { JobQueue } from './queue.types.ts';
import { until } from '../../test/until.ts';


export interface QueueHarness {
  /** a fresh queue on the same backing store (a "restarted process") */
  make(): Promise<JobQueue>;
  /** leave a job as a crashed worker would: claimed/active with its lock expiring now */
  simulateCrashedJob?(name: string, payload: unknown): Promise<string>;
  cleanup(): Promise<void>;
}

/** The one behaviour every queue driver must have. */
export function runQueueContract(name: string, harness: () => Promise<QueueHarness>) {
  describe(`queue contract: ${name}`, () => {
    it('runs a job once with its payload, shows its progress while it runs, and reports completion', async () => {
      const h = await harness();
      const q = await h.make();
      const seen: unknown[] = [];
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      q.register('t.echo', async (p: { n: number; s: string }, ctx) => {
        seen.push(p);
        await ctx.progress(50);
        await released;
        return { doubled: p.n * 2 };
      });
      await q.start();
      const id = await q.enqueue('t.echo', { n: 21, s: '图纸' });
      const running = await until(async () => {
        const s = await q.status(id);
        return s.progress === 50 && s;
      });
      expect(running.state).toBe('active');
      release();
      const st = await until(async () => {
        const s = await q.status(id);
        return s.state === 'completed' && s;
      });
      expect(st.progress).toBe(100);
      expect(st.result).toEqual({ doubled: 42 });
      expect(seen).toEqual([{ n: 21, s: '图纸' }]);
      await q.stop();
      await h.cleanup();
    });

    it('retries a failing job and then marks it failed with the error', async () => {
      const h = await harness();
      const q = await h.make();
      let calls = 0;
      q.register('t.fail', async () => {
        calls++;
        throw new Error('always broken');
      });
      await q.start();
      const id = await q.enqueue('t.fail', {}, { attempts: 2 });
      const st = await until(async () => {
        const s = await q.status(id);
        return s.state === 'failed' && s;
      });
      expect(calls).toBe(2);
      expect(st.error).toContain('always broken');
      await q.stop();
      await h.cleanup();
    });

    it('runs a job enqueued twice under the same id once', async () => {
      const h = await harness();
      const q = await h.make();
      let calls = 0;
      q.register('t.once', async () => {
        calls++;
      });
      const a = await q.enqueue('t.once', {}, { jobId: 'same-id' });
      const b = await q.enqueue('t.once', {}, { jobId: 'same-id' });
      expect(a).toBe(b);
      await q.start();
      await until(async () => (await q.status(a)).state === 'completed');
      await new Promise((r) => setTimeout(r, 300));
      expect(calls).toBe(1);
      await q.stop();
      await h.cleanup();
    });

    it('keeps waiting jobs across a restart and runs them in the new process', async () => {
      const h = await harness();
      const first = await h.make();
      first.register('t.later', async () => undefined);
      const id = await first.enqueue('t.later', { x: 1 });
      await first.stop();
      const second = await h.make();
      let got: unknown;
      second.register('t.later', async (p) => {
        got = p;
      });
      await second.start();
      await until(async () => (await second.status(id)).state === 'completed');
      expect(got).toEqual({ x: 1 });
      await second.stop();
      await h.cleanup();
    });

    it('runs again a job whose worker died in the middle', async () => {
      const h = await harness();
      if (!h.simulateCrashedJob) return h.cleanup();
      const id = await h.simulateCrashedJob('t.crash', { y: 2 });
      const q = await h.make();
      let got: unknown;
      q.register('t.crash', async (p) => {
        got = p;
      });
      await q.start();
      await until(async () => (await q.status(id)).state === 'completed', 30_000);
      expect(got).toEqual({ y: 2 });
      await q.stop();
      await h.cleanup();
    });

    it('runs a schedule repeatedly, and again after a restart', async () => {
      const h = await harness();
      let calls = 0;
      const first = await h.make();
      first.register('t.tick', async () => {
        calls++;
      });
      await first.schedule('t.tick', 200);
      await first.schedule('t.tick', 200);
      await first.start();
      await until(async () => calls >= 2, 15_000);
      await first.stop();
      const before = calls;
      const second = await h.make();
      second.register('t.tick', async () => {
        calls++;
      });
      await second.schedule('t.tick', 200);
      await second.start();
      await until(async () => calls >= before + 2, 15_000);
      await second.stop();
      await h.cleanup();
    });

    it('stop() waits for the running job', async () => {
      const h = await harness();
      const q = await h.make();
      let finished = false;
      let started = false;
      q.register('t.slow', async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 400));
        finished = true;
      });
      await q.start();
      await q.enqueue('t.slow', {});
      await until(async () => started);
      await q.stop();
      expect(finished).toBe(true);
      await h.cleanup();
    });

    it('lets an operator list, count, retry and cancel jobs', async () => {
      const h = await harness();
      const q = await h.make();
      let fail = true;
      const ran: string[] = [];
      q.register('t.flaky', async (p: { n: number }) => {
        ran.push(`flaky ${p.n}`);
        if (fail) throw new Error('broken for now');
      });
      q.register('t.later', async () => {
        ran.push('later');
      });
      await q.start();
      const failing = await q.enqueue('t.flaky', { n: 1 }, { attempts: 1 });
      await until(async () => (await q.status(failing)).state === 'failed');
      const later = await q.enqueue('t.later', {}, { delayMs: 60_000 });
      const listed = await q.list();
      expect(listed.map((j) => [j.id, j.name, j.state])).toEqual(expect.arrayContaining([[failing, 't.flaky', 'failed'], [later, 't.later', 'waiting']]));
      expect((await q.list({ state: 'failed' })).map((j) => j.id)).toEqual([failing]);
      expect((await q.list({ state: 'failed' }))[0].error).toContain('broken for now');
      expect(await q.counts()).toMatchObject({ failed: 1, waiting: 1, active: 0 });
      // a failed job runs again; a waiting one is not "retried"
      fail = false;
      expect(await q.retry(later)).toBe(false);
      expect(await q.retry(failing)).toBe(true);
      await until(async () => (await q.status(failing)).state === 'completed');
      expect(ran).toEqual(['flaky 1', 'flaky 1']);
      // a job that has not started goes away and never runs; a finished or unknown one cannot be cancelled
      expect(await q.cancel(later)).toBe(true);
      expect((await q.status(later)).state).toBe('unknown');
      expect(await q.cancel(failing)).toBe(false);
      expect(await q.cancel('no-such-job')).toBe(false);
      expect(await q.counts()).toMatchObject({ waiting: 0, failed: 0, completed: 1 });
      await q.stop();
      await h.cleanup();
    });
  });
}
