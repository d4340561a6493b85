import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cad from '@cadcloud/cad';
import { haveSamples, repoRoot, sample, samplesDir } from '../../../../packages/cad/src/fidelity/samples.ts';
import { writeAsciiDxf } from '../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { until } from '../test/until.ts';
import { registerThumbnailJobs } from '../modules/thumbnails/thumbnails.jobs.ts';
import { thumbnailJobId } from '../modules/thumbnails/thumbnails.keys.ts';

/**
 * Issue 14 item 2: a DWG with 100 flipped bytes drove one LibreDWG reader past 5.6 GB (its WebAssembly memory is
 * outside V8's heap, so `--max-old-space-size` did not bound it) and the process tree to 10.9 GB. Every worker now
 * has a real memory limit (WORKER_MEMORY_LIMIT_MB: WebAssembly growth capped, an RSS watchdog kills the reader) and
 * all running workers share one budget (WORKER_MEMORY_BUDGET_MB: a job waits for room). Here: hostile readers end
 * in the spec's error, killed at their limit; the readers' total memory stays within the budget while scene and
 * thumbnail jobs run together; and a normal user's list and open stay fast meanwhile.
 */

const LIMIT_MB = 384;
/** two workers at once (a third waits), with room for each one's watchdog overshoot */
const BUDGET_MB = 1000;
/** what a 25 ms sample may miss of a reader growing a few hundred MB per second, plus the kill's own delay */
const OVERSHOOT_MB = 96;
/** the test never lets a reader of the code before this fix grow the shared machine past this (it kills it itself) */
const SAFETY_MB = 1500;

function rssMb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** pids of every process started (directly or not) by this one: the DWG readers of the main thread and worker threads */
function descendants(): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) if (!mine.has(pid) && mine.has(ppid)) (mine.add(pid), (grew = true));
  }
  mine.delete(process.pid);
  return [...mine];
}

/** Samples the readers' memory every 25 ms: the highest total and the highest single process seen. */
function sampleWorkers() {
  let peakTotalMb = 0;
  let peakOneMb = 0;
  const timer = setInterval(() => {
    let total = 0;
    for (const pid of descendants()) {
      const mb = rssMb(pid);
      total += mb;
      peakOneMb = Math.max(peakOneMb, mb);
      if (mb > SAFETY_MB) process.kill(pid, 'SIGKILL');
    }
    peakTotalMb = Math.max(peakTotalMb, total);
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      return { peakTotalMb: Math.round(peakTotalMb), peakOneMb: Math.round(peakOneMb) };
    },
  };
}

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!;

describe.skipIf(process.platform !== 'linux')('hostile drawings and the workers\' memory', () => {
  describe('a reader that allocates without end (generated in code: no sample needed)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-hostile-'));
    const cap = path.join(repoRoot, 'packages/cad/src/dwg/wasm-memory-cap.mjs');
    /**
     * Stand-ins for LibreDWG's reader that speak its messages: one grows WebAssembly memory 16 MB at a time and
     * answers "out of memory" when a grow is refused (as emscripten's malloc does), one grows Buffers (memory
     * outside V8's heap that no heap flag bounds). Each stops itself at SAFETY_MB.
     */
    const wasmReader = path.join(dir, 'wasm-reader.mjs');
    writeFileSync(
      wasmReader,
      `await import(${JSON.stringify(cap)}).catch(() => {});
process.on('message', ({ id }) => {
  const mem = new WebAssembly.Memory({ initial: 256, maximum: 65536 });
  const step = () => {
    try {
      if (mem.buffer.byteLength >= ${SAFETY_MB} * 1048576) throw new Error('safety stop');
      mem.grow(256);
      new Uint8Array(mem.buffer).fill(1, mem.buffer.byteLength - (16 << 20));
    } catch (e) {
      return process.send({ id, ok: false, error: 'out of memory: ' + e.message });
    }
    setTimeout(step, 5);
  };
  step();
});
process.send({ ready: true });
`,
    );
    const bufferReader = path.join(dir, 'buffer-reader.mjs');
    writeFileSync(
      bufferReader,
      `const held = [];
process.on('message', ({ id }) => {
  const step = () => {
    if (held.length * 16 >= ${SAFETY_MB}) return process.send({ id, ok: false, error: 'safety stop' });
    held.push(Buffer.alloc(16 << 20, 1));
    setTimeout(step, 5);
  };
  step();
});
process.send({ ready: true });
`,
    );
    // an R2000 header: the reader is asked (R10–R12 are read in process)
    const dwg = Buffer.concat([Buffer.from('AC1015'), Buffer.alloc(2000, 7)]);

    afterAll(() => {
      cad.stopDwgWorker();
      cad.configureDwgWorker?.({ script: path.join(repoRoot, 'packages/cad/src/dwg/dwg-to-dxf.child.mjs'), memoryLimitMb: 2048, idleMs: 5 * 60_000 });
      rmSync(dir, { recursive: true, force: true });
    });

    for (const [kind, script] of [['WebAssembly memory', wasmReader], ['memory outside the heap', bufferReader]] as const) {
      it(`ends in the spec's error with the reader stopped at its limit (${kind})`, { timeout: 30_000 }, async () => {
        cad.configureDwgWorker({ script, memoryLimitMb: LIMIT_MB, idleMs: 0 });
        const sampler = sampleWorkers();
        const started = Date.now();
        const e = await cad.dwgToDxf(dwg, { timeoutMs: 20_000 }).catch((x: unknown) => x as cad.CadError);
        const { peakOneMb } = sampler.stop();
        expect(e).toBeInstanceOf(cad.CadError);
        expect((e as cad.CadError).message).toBe('The drawing analysis failed!');
        // refused growth (WebAssembly) or the watchdog (both are within the limit), long before the deadline
        expect((e as cad.CadError).detail).toMatch(/out of memory|needed more than 384 MB/);
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(peakOneMb).toBeLessThan(LIMIT_MB + OVERSHOOT_MB);
        // a refused WebAssembly grow must not be mistaken for the safety stop
        expect((e as cad.CadError).detail).not.toMatch(/safety stop/);
        // the reader is gone: killed at the limit, it may take the system a moment to reap it (seen in CI under load)
        await until(async () => descendants().length === 0, 3000);
      });
    }
  });

  const seed = 1;
  const hostileSample = 'dwg_2000_libredwg_TS1.dwg';
  describe.skipIf(!haveSamples)(`the app under hostile opens of ${hostileSample} with 100 flipped bytes (seed ${seed})`, () => {
    let t: TestApp;
    let hostile: { id: string; token: string };
    let normal: { id: string; token: string };
    beforeAll(async () => {
      t = await createTestApp(testDatabaseDrivers()[0]!, { WORKER_MEMORY_LIMIT_MB: String(LIMIT_MB), WORKER_MEMORY_BUDGET_MB: String(BUDGET_MB), SCENE_TIMEOUT_MS: '30000', THUMBNAIL_TIMEOUT_MS: '30000', WEB_OPEN_FILE_SIZE: String(4 * 1024 * 1024) });
      // thumbnails convert DWG in this thread's reader, scenes in the scene thread's: both kinds run at once
      registerThumbnailJobs(t.deps.queue, t.deps);
      hostile = await t.createUser({ quota: 1024 * 1024 * 1024 });
      normal = await t.createUser();
    });
    afterAll(async () => {
      await t?.close();
      cad.stopDwgWorker();
    });

    /** The same 100 flips as the measurements in the issue note (a fixed pseudo-random sequence, bytes XOR 0xFF). */
    function mutated(bytes: Buffer, n = 100): Buffer {
      const b = Buffer.from(bytes);
      let s = seed >>> 0;
      const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
      for (let i = 0; i < n; i++) b[6 + Math.floor(next() * (b.length - 6))]! ^= 0xff;
      return b;
    }

    const scene = (fileId: string, token: string) =>
      t.app.inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${fileId}&utoken=${encodeURIComponent(token)}` });

    const plan = (i: number) =>
      Buffer.from(writeAsciiDxf({ layers: ['0', 'Walls'], entities: [{ type: 'LINE', pairs: [[8, 'Walls'], [10, 0], [20, 0], [30, 0], [11, 100 + i], [21, 0], [31, 0]] }, { type: 'CIRCLE', pairs: [[8, 'Walls'], [10, 50], [20, 50], [30, 0], [40, 10 + i]] }] }));

    it('ends each in the spec\'s error, keeps every reader under its limit and all of them under the budget, while a normal user\'s list and open stay fast', { timeout: 120_000 }, async () => {
      console.log(`hostile drawings from ${samplesDir}`);
      const bytes = mutated(readFileSync(sample(hostileSample)));
      // two files (trailing bytes make their hashes differ): each is a thumbnail job and a scene open
      const ids: string[] = [];
      const hashes: string[] = [];
      const sampler = sampleWorkers();
      const started = Date.now();
      for (let i = 0; i < 2; i++) {
        const body = Buffer.concat([bytes, Buffer.alloc(i + 1)]);
        const up = await t.upload(hostile.token, `attack-${i}.dwg`, body);
        expect(up.rtnCode).toBe('0000000');
        ids.push(up.bizData.id);
        hashes.push((await t.deps.db.selectFrom('items').select('blob_md5').where('id', '=', up.bizData.id).executeTakeFirstOrThrow()).blob_md5!);
      }
      const opens = ids.map((id) => scene(id, hostile.token));

      // meanwhile the normal user lists their drive and opens new drawings (each a build in the scene worker)
      const listMs: number[] = [];
      const openMs: number[] = [];
      let storm = true;
      const lister = (async () => {
        while (storm) {
          const t0 = performance.now();
          expect((await t.call('/cloud/v5/union/list', { parentId: '0', page: 1, pageSize: 100 }, normal.token)).rtnCode).toBe('0000000');
          listMs.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      for (let i = 0; i < 2; i++) {
        const id = (await t.upload(normal.token, `plan-${i}.dxf`, plan(i))).bizData.id;
        const t0 = performance.now();
        expect((await scene(id, normal.token)).statusCode).toBe(200);
        openMs.push(performance.now() - t0);
      }

      for (const r of await Promise.all(opens)) expect(r.json()).toMatchObject({ bizData: { code: 'drawing.parseFailed' }, msg: 'The drawing analysis failed!' });
      const thumbs = await Promise.all(hashes.map((h) => until(async () => {
        const j = await t.deps.queue.status(thumbnailJobId(h));
        return j.state === 'completed' || j.state === 'failed' ? j : undefined;
      }, 90_000)));
      storm = false;
      await lister;
      const { peakTotalMb, peakOneMb } = sampler.stop();
      const elapsed = Date.now() - started;
      console.log(`hostile opens: ${elapsed} ms; readers' peak ${peakOneMb} MB alone, ${peakTotalMb} MB together (limit ${LIMIT_MB}, budget ${BUDGET_MB}); normal user: list p95 ${Math.round(p95(listMs))} ms over ${listMs.length}, opens ${openMs.map(Math.round).join(', ')} ms`);
      // the thumbnails were skipped (no thumbnail), not retried without end
      for (const j of thumbs) expect(j.result).toMatchObject({ skipped: expect.stringMatching(/DWG not readable/) });
      expect(peakOneMb).toBeLessThan(LIMIT_MB + OVERSHOOT_MB);
      expect(peakTotalMb).toBeLessThan(BUDGET_MB);
      // a hostile reader holds a worker only until it reaches its limit (about 10 s here on a busy 2-core machine), not
      // for the whole deadline (30 s here, 120 s by default); a normal open waits at most for the hostile jobs ahead
      // of it in the scene worker (a fair share per user is issue 14 item 7)
      expect(elapsed).toBeLessThan(50_000);
      expect(p95(listMs)).toBeLessThan(1000);
      expect(Math.max(...openMs)).toBeLessThan(40_000);
    });
  });
});
