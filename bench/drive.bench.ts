/**
 * Drive benchmarks (issue: foundation). Every figure is measured against a baseline in the same run.
 *   1. Upload throughput through the API (multipart, MD5 on the way, local storage) vs a plain loopback
 *      HTTP copy of the same bytes into a file: ratio = baseline time / our time (target ≥ 0.7).
 *   2. Instant upload of an already-stored 100 MB file: detectUpload round trip (target < 50 ms).
 *   3. union/list of a folder with 10,000 items, page size 100: p95 latency on SQLite and PostgreSQL
 *      (target < 20 ms) and sustained requests per second with autocannon (target ≥ 1,000/s).
 */
import http from 'node:http';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, openSync, writeSync, closeSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { testDatabaseDrivers } from '../apps/server/src/infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../apps/server/src/test/fixtures.ts';
import { newId } from '../apps/server/src/infra/db/ids.ts';
import { createDatabase } from '../apps/server/src/infra/db/db.ts';
import { runAdmin } from '../apps/server/src/admin/admin.cli.ts';
import { startServer } from '../apps/server/src/test/server-process.ts';
import { sql } from 'kysely';
import pg from 'pg';

const MB = 1024 * 1024;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-bench-'));
const results: Record<string, unknown> = {};

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function makeFile(sizeMb: number) {
  const file = path.join(tmp, `data-${sizeMb}.bin`);
  const fd = openSync(file, 'w');
  const chunk = randomBytes(MB);
  for (let i = 0; i < sizeMb; i++) writeSync(fd, chunk.map((b, j) => (b + i + j) & 255));
  closeSync(fd);
  return file;
}

/** POST a file as a stream to a URL; resolves with milliseconds taken and the JSON answer. */
function post(url: string, headers: Record<string, string | number>, parts: (Buffer | string)[]): Promise<{ ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ ms: performance.now() - start, body }));
    });
    req.on('error', reject);
    (async () => {
      for (const p of parts) {
        if (Buffer.isBuffer(p)) req.write(p);
        else for await (const c of createReadStream(p, { highWaterMark: 1 * MB })) if (!req.write(c)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

async function benchUpload(t: TestApp, base: string) {
  const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 200);
  const file = makeFile(sizeMb);
  const size = statSync(file).size;
  // baseline: the same bytes over loopback HTTP straight into a file, nothing else
  const plain = http.createServer(async (req, res) => {
    await pipeline(req, createWriteStream(path.join(tmp, `plain-${Date.now()}`)));
    res.end('{}');
  });
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
  const user = await t.createUser({ quota: 100 * 1024 * MB });
  const baseline: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < 3; i++) {
    baseline.push((await post(plainUrl, { 'content-type': 'application/octet-stream', 'content-length': size }, [file])).ms);
    // a distinct last byte each round so the upload is never answered by dedupe
    const tail = Buffer.from(`\r\n--b--\r\n`);
    const head = Buffer.from(`--b\r\nContent-Disposition: form-data; name="filedata"; filename="bench-${i}.bin"\r\n\r\n`);
    const salt = randomBytes(16);
    const r = await post(`${base}/cloud/v5/file/upload?utoken=${user.token}`, { 'content-type': 'multipart/form-data; boundary=b', 'content-length': head.length + size + salt.length + tail.length }, [head, file, salt, tail]);
    if (!r.body.includes('0000000')) throw new Error(`upload failed: ${r.body}`);
    ours.push(r.ms);
  }
  plain.close();
  const mbps = (ms: number) => +(size / MB / (ms / 1000)).toFixed(1);
  results.upload = { sizeMB: sizeMb, baselineMBps: mbps(median(baseline)), oursMBps: mbps(median(ours)), ratio: +(median(baseline) / median(ours)).toFixed(2), target: '≥ 0.7' };
  return { file, user };
}

async function benchInstant(t: TestApp, base: string) {
  const file = makeFile(100);
  const user = await t.createUser({ quota: 1000 * 1024 * MB });
  const head = Buffer.from(`--b\r\nContent-Disposition: form-data; name="filedata"; filename="stored.bin"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--b--\r\n`);
  const size = statSync(file).size;
  await post(`${base}/cloud/v5/file/upload?utoken=${user.token}`, { 'content-type': 'multipart/form-data; boundary=b', 'content-length': head.length + size + tail.length }, [head, file, tail]);
  const hash = createHash('md5');
  for await (const c of createReadStream(file)) hash.update(c);
  const md5 = hash.digest('hex');
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const start = performance.now();
    const r = await fetch(`${base}/cloud/v5/file/detectUpload?utoken=${user.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { md5, size, name: `copy-${i}.bin`, parentId: '0' } }) });
    const j = await r.json();
    if (!j.bizData?.exists) throw new Error(`instant upload failed: ${JSON.stringify(j)}`);
    times.push(performance.now() - start);
  }
  results.instantUpload100MB = { p50ms: +median(times).toFixed(2), p95ms: +pct(times, 95).toFixed(2), target: '< 50 ms' };
}

/**
 * union/list under load: the server runs in its own process (as in production) so the load generator does
 * not share its event loop; the folder is seeded through a second database connection.
 */
async function benchList(driverName: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmp, `list-${driverName}-`));
  let databaseUrl = `sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`;
  let dropDb: (() => Promise<void>) | null = null;
  if (driverName === 'postgres') {
    const pgUrl = process.env.TEST_POSTGRES_URL;
    if (!pgUrl) return (results.unionList_postgres = 'skipped: TEST_POSTGRES_URL not set');
    const name = `cadcloud_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    databaseUrl = pgUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}`);
    dropDb = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  await runAdmin(['user', 'create', '--email', 'bench@example.com', '--password', 'bench password'], env);
  const server = await startServer(env);
  try {
    const base = server.url;
    const token = (await (await fetch(`${base}/user/v5/sysuser/clientToken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { email: 'bench@example.com', password: 'bench password' } }) })).json()).data.token;
    const api = async (p: string, data: unknown) => (await fetch(`${base}${p}?utoken=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) })).json();
    const folder = (await api('/cloud/v5/folder/edit', { name: 'big' })).bizData.id;
    const db = createDatabase(databaseUrl);
    const uid = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    const now = Date.now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: newId(), uid, parent_id: folder, kind: i < 500 ? 0 : 1, name: `item-${String(i).padStart(5, '0')}.dwg`, type: 'dwg', size: 1000 + i, blob_md5: null, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null, transform_status: 3,
      browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now - i, modified_at: now - i, deleted_at: null, trash_root: null, trash_parent_id: null,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('items').values(rows.slice(i, i + 500)).execute();
    // steady state of a live database (autovacuum): statistics and the visibility map for index-only scans
    if (driverName === 'postgres') await sql`vacuum analyze items`.execute(db);
    await db.destroy();
    // first pass over the 100 pages: nothing cached (cold); two more passes: answered from the list cache
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < 300; i++) {
      const start = performance.now();
      const j = await api('/cloud/v5/union/list', { parentId: folder, page: 1 + (i % 100), pageSize: 100 });
      (i < 100 ? cold : warm).push(performance.now() - start);
      if (j.bizData.list.length !== 100) throw new Error('bad page');
    }
    const load = await autocannon({
      url: `${base}/cloud/v5/union/list?utoken=${token}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { parentId: folder, page: 37, pageSize: 100 } }),
      connections: 10,
      duration: Number(process.env.BENCH_LOAD_SECONDS ?? 8),
    });
    results[`unionList_${driverName}`] = {
      items: 10_000,
      pageSize: 100,
      coldP50ms: +median(cold).toFixed(2),
      coldP95ms: +pct(cold, 95).toFixed(2),
      warmP50ms: +median(warm).toFixed(2),
      warmP95ms: +pct(warm, 95).toFixed(2),
      requestsPerSecond: Math.round(load.requests.average),
      errors: load.errors + load.non2xx,
      targets: 'p95 < 20 ms, ≥ 1000 req/s',
    };
  } finally {
    await server.kill('SIGTERM');
    await dropDb?.();
  }
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** BENCH_ONLY=upload|list runs one part. */
export async function runDriveBench() {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'upload') {
    const t = await createTestApp(testDatabaseDrivers()[0], { WEB_UPLOAD_FILE_SIZE: '2GB' });
    const base = await listen(t);
    try {
      await benchUpload(t, base);
      await benchInstant(t, base);
    } finally {
      await t.close();
    }
  }
  if (!only || only === 'list') {
    await benchList('sqlite');
    await benchList('postgres');
  }
  rmSync(tmp, { recursive: true, force: true });
  return results;
}
