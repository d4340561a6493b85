import { describe, expect, it } from 'vitest';
import { asciiStl } from '../fixtures/mesh.ts';
import { expectModel } from '../fixtures/read-back.ts';
import { stepPart } from '../fixtures/step.ts';
import { convertInWorker } from './run-in-worker.ts';

const enc = (s: string) => new TextEncoder().encode(s);

/** an OBJ grid of n×n vertices: 2(n-1)² triangles, ~22 MB of text for n = 600 */
function gridObj(n: number): string {
  const out: string[] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) out.push(`v ${x} ${y} ${(x * y) % 7}`);
  for (let y = 0; y < n - 1; y++)
    for (let x = 0; x < n - 1; x++) {
      const a = y * n + x + 1;
      out.push(`f ${a} ${a + 1} ${a + n + 1}`, `f ${a} ${a + n + 1} ${a + n}`);
    }
  return out.join('\n');
}

describe('convertInWorker', () => {
  it('converts in a thread of its own: a STEP cube and an STL', async () => {
    let t = performance.now();
    const r = await convertInWorker(enc(stepPart({ name: 'Cube', min: [0, 0, 0], max: [3, 4, 5] })), 'cube.step', { maxOldGenerationSizeMb: 256, timeoutMs: 60_000 });
    console.log(`STEP cube in a worker: ${Math.round(performance.now() - t)} ms`);
    await expectModel(r, 12, [0, 0, 0], [3, 4, 5]);
    t = performance.now();
    const s = await convertInWorker(enc(asciiStl()), 'box.stl');
    console.log(`STL cube in a worker: ${Math.round(performance.now() - t)} ms`);
    await expectModel(s, 12, [0, 0, 0], [10, 10, 10]);
  });

  it('its errors keep their kind', async () => {
    await expect(convertInWorker(new Uint8Array(0), 'empty.stp')).rejects.toMatchObject({ kind: 'bad-input' });
  });

  const big = enc(gridObj(600));

  it('a conversion over its heap cap ends its thread: too-large, and the next conversion runs', async () => {
    await expect(convertInWorker(big, 'grid.obj', { maxOldGenerationSizeMb: 48, timeoutMs: 60_000 })).rejects.toMatchObject({ kind: 'too-large' });
    // the same cap is room enough for a small model: it was the grid that overran it
    await expectModel(await convertInWorker(enc(asciiStl()), 'box.stl', { maxOldGenerationSizeMb: 48 }), 12, [0, 0, 0], [10, 10, 10]);
  });

  it('a conversion past its time ends its thread: timeout', async () => {
    const t = performance.now();
    await expect(convertInWorker(big, 'grid.obj', { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('an aborted conversion ends its thread at once with the signal\'s reason', async () => {
    const t = performance.now();
    await expect(convertInWorker(big, 'grid.obj', { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ name: 'TimeoutError' });
    const c = new AbortController();
    const reason = new Error('job cancelled');
    setTimeout(() => c.abort(reason), 200);
    await expect(convertInWorker(big, 'grid.obj', { signal: c.signal })).rejects.toBe(reason);
    expect(performance.now() - t).toBeLessThan(5000);
    await expect(convertInWorker(big, 'grid.obj', { signal: c.signal })).rejects.toBe(reason);
  });

  it('the same grid converts with room: 718 202 triangles', async () => {
    const t = performance.now();
    const r = await convertInWorker(big, 'grid.obj', { maxOldGenerationSizeMb: 1024, timeoutMs: 120_000 });
    console.log(`OBJ grid 718k triangles (${(big.length / 1e6).toFixed(1)} MB) in a worker: ${Math.round(performance.now() - t)} ms, GLB ${(r.glb.length / 1e6).toFixed(2)} MB`);
    expect(r.stats.triangles).toBe(2 * 599 * 599);
  });
});
