import { describe, expect, it } from 'vitest';
import { UploadQueue, type UploadEntry } from './upload-queue.ts';

function deferred() {
  let resolve!: (v: 'success' | 'instant') => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<'success' | 'instant'>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('upload queue', () => {
  it('runs at most 3 at once and starts waiting ones as slots free', async () => {
    const pending = new Map<string, ReturnType<typeof deferred>>();
    const q = new UploadQueue(async (e: UploadEntry) => {
      const d = deferred();
      pending.set(e.name, d);
      return d.promise;
    });
    q.add(['a', 'b', 'c', 'd', 'e'].map((name) => ({ file: new Blob(['x']), name, parentId: '0' })));
    expect(q.running).toBe(3);
    expect(q.getSnapshot().filter((e) => e.status === 'waiting').map((e) => e.name)).toEqual(['d', 'e']);
    pending.get('b')!.resolve('success');
    await tick();
    expect(q.running).toBe(3);
    expect(pending.has('d')).toBe(true);
    expect(pending.has('e')).toBe(false);
    pending.get('a')!.reject(new Error('Not enough space'));
    await tick();
    expect(pending.has('e')).toBe(true);
    const a = q.getSnapshot().find((e) => e.name === 'a')!;
    expect(a).toMatchObject({ status: 'failed', error: 'Not enough space' });
  });

  it('clears finished uploads and retries failed ones', async () => {
    let fail = true;
    const q = new UploadQueue(async () => {
      if (fail) throw new Error('Network Error!');
      return 'instant';
    });
    q.add([{ file: new Blob(['1']), name: 'ok', parentId: '0' }]);
    await tick();
    expect(q.getSnapshot()[0].status).toBe('failed');
    fail = false;
    q.retry(q.getSnapshot()[0].id);
    await tick();
    expect(q.getSnapshot()[0].status).toBe('instant');
    q.clearFinished();
    expect(q.getSnapshot()).toEqual([]);
  });
});
