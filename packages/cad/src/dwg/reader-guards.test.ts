import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** runs `code` (an ES module) in a fresh node with `args`; what it printed and how it ended */
function run(code: string, args: string[] = []): Promise<{ out: string; err: string; signal: string | null; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', code, '--', ...args], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((r) => child.once('close', (_c, signal) => r({ out, err, signal, ms: Date.now() - t0 })));
}

const here = (f: string) => JSON.stringify(path.join(import.meta.dirname, f));

describe('the DWG reader\'s own guards', () => {
  it('refuses WebAssembly memory growth past --wasm-max-mb (LibreDWG may otherwise grow to 4 GB)', async () => {
    const r = await run(
      `await import(${here('wasm-memory-cap.mjs')});
const m = new WebAssembly.Memory({ initial: 16, maximum: 65536 });
let error = '';
try { for (;;) m.grow(16); } catch (e) { error = e.message; }
console.log(m.buffer.byteLength / 1048576, error);`,
      ['--wasm-max-mb=64'],
    );
    expect(r.out.trim()).toBe('64 WebAssembly memory over 64 MB refused');
  });

  it('ends a reader over its memory even when nobody watches it (its parent thread was terminated)', { timeout: 20_000 }, async () => {
    const r = await run(
      `const { startSelfWatch } = await import(${here('reader-self-watch.mjs')});
startSelfWatch(150);
const held = [];
setInterval(() => { if (held.length < 64) held.push(Buffer.alloc(16 << 20, 1)); }, 10);`,
    );
    expect(r.signal).toBe('SIGKILL');
    expect(r.err).toMatch(/reader-self-watch: memory \d+ MB/);
  });

  it('ends a reader past its job\'s deadline while its main thread is busy (WebAssembly running)', { timeout: 20_000 }, async () => {
    const r = await run(
      `const { startSelfWatch } = await import(${here('reader-self-watch.mjs')});
const job = startSelfWatch(4096);
job(500);
await new Promise((r) => setTimeout(r, 50));
for (;;) {}`,
    );
    expect(r.signal).toBe('SIGKILL');
    expect(r.err).toMatch(/reader-self-watch: deadline/);
    expect(r.ms).toBeLessThan(5000);
  });
});
