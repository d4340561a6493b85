import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../apps/server/src/admin/admin.cli.ts';
import { createDatabase } from '../apps/server/src/infra/db/db.ts';
import { startServer, type ServerProcess } from '../apps/server/src/test/server-process.ts';
import { until } from '../apps/server/src/test/until.ts';
import { claiming, makeZip, rawZip, type TestEntry } from '../apps/server/src/modules/unzip/test-archives.ts';

/**
 * Issue 18, hostile archives: "the server answering other requests at its normal p95 meanwhile". The real server
 * process over HTTP. It lives with the browser tests, which run one file at a time: in the unit suite's parallel
 * files the other tests' load, not the extraction, decided the p95 (it failed so once). Measured: another user's drive listing, 60 requests one after another, idle and then while a first user's
 * archives are processed (a 10 GB-of-zeros claim, 100,000 entries, a legit ~100 MB extraction). Extraction that
 * blocked the event loop (synchronous hashing in a busy loop, say) shows as a loaded p95 far above the idle one.
 * The bound, 2× idle (the worse p95 of before and after) + 25 ms, leaves room for the extraction's fair share of 2 busy cores (measured 2026-11-27: idle
 * p95 2–19 ms, loaded 9–17 ms). It was seen to fail with the zip reader hashing each chunk in a 40 ms busy loop
 * (loaded p95 45 ms against idle 2.4 ms); 3× idle + 50 ms, tried first, still passed with 60 ms stalls.
 */
const SAMPLES = 60;
const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(SAMPLES * 0.95) - 1];

/** ~100 MB of drawings: text that deflates (DXF-like lines) and incompressible bytes (scans, DWGs), 10 MB each. */
function legitSet(): TestEntry[] {
  return Array.from({ length: 10 }, (_, i) => {
    if (i % 2) return { name: `set/scans/scan-${i}.bin`, data: new Uint8Array(randomBytes(10 << 20)) };
    const lines: string[] = [];
    let size = 0;
    for (let n = 0; size < 10 << 20; n++) {
      const line = `0\nLINE\n8\nLAYER-${n % 37}\n10\n${(n * 7.31) % 10007}\n20\n${(n * 3.17) % 9973}\n11\n${(n * 1.13) % 8191}\n21\n${n % 4099}\n`;
      lines.push(line);
      size += line.length;
    }
    return { name: `set/plans/level-${i}.dxf`, data: new Uint8Array(Buffer.from(lines.join(''))) };
  });
}

describe('other users keep their normal p95 while hostile and large archives are decompressed', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-unzipp95-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', STORAGE_DEFAULT_QUOTA: '2GB' };
  const db = createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`);
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  const api = async (who: string, p: string, data: unknown) =>
    (await fetch(`${server.url}${p}?utoken=${tokens[who]}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();
  const upload = async (who: string, name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.set('filedata', new Blob([new Uint8Array(bytes)]), name);
    return (await (await fetch(`${server.url}/cloud/v5/file/upload?utoken=${tokens[who]}`, { method: 'POST', body: form })).json()).bizData;
  };
  /** one drive listing of the other user, timed end to end (the answer read whole) */
  const listOnce = async () => {
    const t = performance.now();
    const r = await api('b', '/cloud/v5/union/list', {});
    expect(r.rtnCode).toBe('0000000');
    return performance.now() - t;
  };

  beforeAll(async () => {
    for (const who of ['a', 'b']) {
      await runAdmin(['user', 'create', '--email', `p95${who}@example.com`, '--password', 'p95 password'], env);
    }
    server = await startServer(env);
    for (const who of ['a', 'b']) {
      const r = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: `p95${who}@example.com`, password: 'p95 password' } }), headers: { 'content-type': 'application/json' } })).json();
      tokens[who] = r.data.token;
    }
    // the other user's drive has something to list
    for (let i = 0; i < 30; i++) await api('b', '/cloud/v5/folder/edit', { parentId: '0', name: `folder ${i}` });
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('loaded p95 of /cloud/v5/union/list stays under 2× the idle p95 + 25 ms', async () => {
    const bomb = await upload('a', 'bomb.zip', claiming(10 * 1024 ** 3, 1 << 20));
    const many = await upload('a', 'many.zip', rawZip(Array.from({ length: 100_000 }, (_, i) => ({ name: `f${i}`, data: new Uint8Array([i & 255]) }))));
    const big = await upload('a', 'big.zip', await makeZip(legitSet()));
    expect([bomb.id, many.id, big.id].every(Boolean)).toBe(true);

    for (let i = 0; i < 10; i++) await listOnce(); // warm-up: the first requests compile and fill caches
    const idle: number[] = [];
    for (let i = 0; i < SAMPLES; i++) idle.push(await listOnce());

    const tasks = await Promise.all([bomb, many, big].map(async (f) => (await api('a', '/cloud/v5/file/unzip', { fileId: f.id })).bizData.taskId as string));
    const bigTask = tasks[2];
    const statusOf = async (id: string) => (await db.selectFrom('zip_tasks').select(['status', 'bytes_done']).where('id', '=', id).executeTakeFirstOrThrow());
    // measured while the large archive's bytes flow
    await until(async () => {
      const s = await statusOf(bigTask);
      return s.status === 1 && Number(s.bytes_done) > 0;
    }, 120_000);
    const loaded: number[] = [];
    for (let i = 0; i < SAMPLES; i++) loaded.push(await listOnce());
    const during = await statusOf(bigTask);
    // otherwise the samples were not taken "meanwhile" and prove nothing
    expect(during.status).toBe(1);

    const end = await until(async () => {
      const all = await Promise.all(tasks.map(async (id) => (await api('a', '/cloud/v5/zip/task/taskStatus', { taskId: id })).bizData));
      return all.every((s) => s.status >= 2) ? all : undefined;
    }, 300_000);
    // idle again once the archives are done: the machine's own load (other test files, other work) may have changed
    // meanwhile, and the normal p95 is the worse of the two idle ones
    const after: number[] = [];
    for (let i = 0; i < SAMPLES; i++) after.push(await listOnce());
    const idleP95 = Math.max(p95(idle), p95(after));
    const loadedP95 = p95(loaded);
    console.log(`union/list p95 idle ${p95(idle).toFixed(1)} ms before, ${p95(after).toFixed(1)} ms after; during extraction ${loadedP95.toFixed(1)} ms (max ${Math.max(...loaded).toFixed(1)} ms)`);
    expect(loadedP95).toBeLessThan(2 * idleP95 + 25);
    expect(end.map((s) => [s.status, s.response])).toEqual([
      [3, 'unzip.ratio'],
      [3, 'unzip.tooManyEntries'],
      [2, null],
    ]);
  }, 600_000);
});
