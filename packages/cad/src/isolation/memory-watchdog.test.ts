import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processRssMb, watchProcessMemory } from './memory-watchdog.ts';

const linux = process.platform === 'linux';

describe.skipIf(!linux)('the memory watchdog', () => {
  it('reads a process\'s resident memory', () => {
    const mine = processRssMb(process.pid)!;
    expect(mine).toBeGreaterThan(10);
    expect(Math.abs(mine - process.memoryUsage().rss / 1024 / 1024)).toBeLessThan(64);
    expect(processRssMb(2 ** 22 + 12345)).toBeNull();
  });

  it('kills a process whose memory outside the V8 heap grows past its limit, which --max-old-space-size does not stop', async () => {
    // Buffers live outside the heap: this child grows 16 MB every 10 ms up to 1 GB (its own safety stop)
    const grow = `const held = []; setInterval(() => { if (held.length < 64) held.push(Buffer.alloc(16 << 20, 1)); }, 10);`;
    const child = spawn(process.execPath, ['--max-old-space-size=64', '-e', grow], { stdio: 'ignore' });
    let killedAt = 0;
    const watch = watchProcessMemory(child, 200, (rss) => (killedAt = rss), 20);
    const exit = await new Promise<string | null>((r) => child.once('exit', (_c, s) => r(s)));
    watch.stop();
    expect(exit).toBe('SIGKILL');
    expect(watch.killed).toBe(true);
    expect(killedAt).toBeGreaterThan(200);
    // 20 ms sampling at 1.6 GB/s overshoots by tens of MB, not hundreds
    expect(watch.peakMb).toBeLessThan(400);
  });

  it('leaves a process within its limit alone', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { stdio: 'ignore' });
    const watch = watchProcessMemory(child, 1024, () => undefined, 20);
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    watch.stop();
    expect(code).toBe(0);
    expect(watch.killed).toBe(false);
    expect(watch.peakMb).toBeGreaterThan(10);
  });
});
