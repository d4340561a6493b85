import { describe, expect, it } from 'vitest';
import { throttledProgress } from './model3d.progress.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('throttledProgress', () => {
  it('writes the first report at once, then at most one per interval, always the latest; nothing after stop', async () => {
    const writes: Array<[number, string, number]> = [];
    const t0 = performance.now();
    const p = throttledProgress(async (pct, stage) => void writes.push([pct, stage, performance.now() - t0]), 100);
    // 200 reports over ~350 ms
    for (let i = 0; i < 200; i++) {
      p.report(i, i < 100 ? 'parse' : 'import');
      if (i % 40 === 39) await sleep(70);
    }
    await sleep(150);
    expect(writes[0].slice(0, 2)).toEqual([0, 'parse']);
    expect(writes.at(-1)!.slice(0, 2)).toEqual([199, 'import']);
    expect(writes.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < writes.length; i++) expect(writes[i][2] - writes[i - 1][2]).toBeGreaterThanOrEqual(95);
    p.report(500, 'write');
    p.report(501, 'write');
    await p.stop();
    const n = writes.length;
    await sleep(150);
    expect(writes.length).toBe(n);
    expect(writes.some((w) => w[0] === 501)).toBe(false);
  });

  it('the same report again writes nothing', async () => {
    const writes: string[] = [];
    const p = throttledProgress(async (pct, stage) => void writes.push(`${pct} ${stage}`), 10);
    p.report(10, 'parse');
    await sleep(20);
    p.report(10, 'parse');
    await sleep(20);
    p.report(12, 'parse');
    await sleep(20);
    await p.stop();
    expect(writes).toEqual(['10 parse', '12 parse']);
  });

  it('a failed write does not stop the next one', async () => {
    const writes: number[] = [];
    const p = throttledProgress(async (pct) => {
      if (pct === 1) throw new Error('db busy');
      writes.push(pct);
    }, 10);
    p.report(1, 'parse');
    await sleep(20);
    p.report(2, 'parse');
    await sleep(20);
    await p.stop();
    expect(writes).toEqual([2]);
  });
});
