/**
 * Issue 16, item 4: the product scaled out as three processes on PostgreSQL, S3 and Redis — two API processes
 * (PROCESS_MODE=web) on their own ports and one worker (PROCESS_MODE=worker). Whatever one process writes the
 * others must see: uploads, lists, downloads, shares, the extraction guard of a share, the upload quota, the version
 * history of one file; and every background job (thumbnails, scene prewarm, zips) runs on the worker, never on a
 * web process (their /metrics count no jobs).
 *
 * Each process has its own DATA_DIR, as on machines that share no disk: the signing secrets (sessions, share tokens,
 * download links) come from the database (infra/secrets.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { writeAsciiDxf, type FixtureEntity } from '../../../../packages/cad/src/testing/dxf-writer.ts';
import { runAdmin } from '../admin/admin.cli.ts';
import { createDatabase } from '../infra/db/db.ts';
import { loadConfig } from '../infra/config/index.ts';
import { createStorage } from '../infra/storage/storage.factory.ts';
import { s3TestEnv } from '../test/fixtures.ts';
import { solveProof } from '../test/share-proof.ts';
import { freePortPair, startServer, type ServerProcess } from '../test/server-process.ts';
import { until } from '../test/until.ts';

const pgUrl = process.env.TEST_POSTGRES_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const s3 = s3TestEnv('scale');
const missing = [!pgUrl && 'TEST_POSTGRES_URL', !redisUrl && 'TEST_REDIS_URL', !s3 && 'TEST_S3_ENDPOINT'].filter(Boolean);
if (missing.length) console.info(`three-process scale-out test skipped: ${missing.join(', ')} not set (npm test and CI set them)`);

const QUOTA = 4 * 1024 * 1024;
const BURST_FILE = 256 * 1024;
const METRICS_TOKEN = `metrics-${randomBytes(8).toString('hex')}`;

type Envelope = { rtnCode: string; bizData: any; msg: string };
const codeOf = (r: Envelope) => (r.rtnCode === '0000000' ? 'ok' : (r.bizData?.code as string) ?? r.rtnCode);
const otherCode = (code: string, i: number) => String((Number(code) + 1 + i) % 10 ** code.length).padStart(code.length, '0');

function drawingDxf(seed: number): Buffer {
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < 40; i++) entities.push({ type: 'LINE', pairs: [[8, '0'], [62, 1 + (i % 7)], [10, i], [20, seed], [11, i + 10], [21, seed + 20 + i]] });
  entities.push({ type: 'CIRCLE', pairs: [[8, '0'], [10, 20], [20, 20], [40, 5 + seed]] });
  return Buffer.from(writeAsciiDxf({ entities }));
}

describe.skipIf(missing.length > 0)('three processes (two web, one worker) on PostgreSQL, S3 and Redis', () => {
  let root: string;
  const dbName = `t3p_${randomBytes(6).toString('hex')}`;
  const prefix = `t3p-${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = {
    ...(s3 ?? {}),
    DATABASE_URL: pgUrl ? `${pgUrl.replace(/\/[^/]*$/, '')}/${dbName}` : '',
    REDIS_URL: redisUrl ?? '',
    REDIS_PREFIX: prefix,
    METRICS_TOKEN,
    STORAGE_DEFAULT_QUOTA: String(QUOTA),
    SHARE_POW_BASE_BITS: '8',
    SHARE_ATTACKER_HASH_RATE: String(1e11 / 1024),
    LOG_LEVEL: 'warn',
  };
  /** its own DATA_DIR: nothing on disk is shared */
  const dataDir = (name: string) => {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  let api1: ServerProcess;
  let api2: ServerProcess;
  let worker: ServerProcess;
  let workerPort: number;
  let token: string;

  const call = async (server: ServerProcess, p: string, data: unknown, tok: string | null = token): Promise<Envelope> =>
    (await fetch(`${server.url}${p}${tok ? `?utoken=${encodeURIComponent(tok)}` : ''}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();
  const upload = async (server: ServerProcess, name: string, bytes: Buffer, p = '/cloud/v5/file/upload', fields: Record<string, string> = {}): Promise<Envelope> => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('filedata', new Blob([new Uint8Array(bytes)]), name);
    return (await fetch(`${server.url}${p}?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: form })).json();
  };
  const metrics = async (server: ServerProcess | string) => (await fetch(`${typeof server === 'string' ? server : server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  /** the sum of one counter's samples whose labels match */
  const counter = (text: string, name: string, labels = '') =>
    text.split('\n').filter((l) => l.startsWith(`${name}{`) && l.includes(labels)).reduce((n, l) => n + Number(l.split(' ').pop()), 0);

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-scale-'));
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    await runAdmin(['user', 'create', '--email', 'scale@example.com', '--password', 'three processes'], { ...env, DATA_DIR: dataDir('admin') });
    workerPort = await freePortPair();
    // the first migrates; the others find the schema ready
    api1 = await startServer({ ...env, PROCESS_MODE: 'web', DATA_DIR: dataDir('api1') });
    [api2, worker] = await Promise.all([
      startServer({ ...env, PROCESS_MODE: 'web', DATA_DIR: dataDir('api2') }),
      startServer({ ...env, PROCESS_MODE: 'worker', DATA_DIR: dataDir('worker'), WORKER_PORT: String(workerPort) }, undefined, 'CADCloud worker is running'),
    ]);
    const r = await (await fetch(`${api1.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'scale@example.com', password: 'three processes' } }), headers: { 'content-type': 'application/json' } })).json();
    token = r.data.token;
    expect(token).toBeTruthy();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api1, api2, worker].map((s) => s?.kill('SIGTERM').catch(() => undefined)));
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await admin.end();
    }
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    if (root) rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  }, 60_000);

  it('uploaded through API 1, listed and downloaded through API 2; thumbnail, scene and zip made by the worker', async () => {
    // API 2 lists first, so its list cache holds the empty drive: the upload on API 1 must not be hidden by it
    expect((await call(api2, '/cloud/v5/file/list', { folderId: '0' })).bizData.list).toEqual([]);
    const dxf = drawingDxf(1);
    const up = await upload(api1, 'plan.dxf', dxf);
    expect(up.rtnCode, up.msg).toBe('0000000');
    const id = up.bizData.id as string;

    const list = await call(api2, '/cloud/v5/file/list', { folderId: '0' });
    expect(list.rtnCode, list.msg).toBe('0000000');
    expect(list.bizData.list.map((x: any) => x.id)).toContain(id);

    const dl = await call(api2, '/cloud/v5/file/download', { fileId: id });
    expect(dl.rtnCode, dl.msg).toBe('0000000');
    const bytes = Buffer.from(await (await fetch(dl.bizData.signedUrl)).arrayBuffer());
    expect(bytes.equals(dxf)).toBe(true);

    // the thumbnail: rendered by the worker, served by either API
    const thumbkey = await until(async () => (await call(api2, '/cloud/v5/file/list', { folderId: '0' })).bizData.list.find((x: any) => x.id === id)?.thumbkey, 60_000);
    const thumb = await fetch(`${api1.url}/cloud/v5/file/thumb/${thumbkey}?utoken=${encodeURIComponent(token)}`);
    expect(thumb.status).toBe(200);

    // the scene: prewarmed by the worker into the shared cache, so API 2's open is a cache hit and builds nothing
    const storage = createStorage(loadConfig({ ...env, DATA_DIR: path.join(root, 'admin') }));
    await until(async () => {
      for await (const o of storage.list('scenes/')) if (o.size > 0) return true;
      return false;
    }, 60_000);
    const scene = await fetch(`${api2.url}/cloud/v5/drawing/scene?fileId=${id}&utoken=${encodeURIComponent(token)}`);
    expect(scene.status).toBe(200);
    expect((await scene.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const m2 = await metrics(api2);
    expect(counter(m2, 'cadcloud_scene_cache_total', 'result="hit"')).toBe(1);
    expect(counter(m2, 'cadcloud_scene_cache_total', 'result="miss"')).toBe(0);

    // a zip: queued on API 2, built by the worker, its link signed by API 1
    const task = await call(api2, '/cloud/v5/file/downloadBatchZip', { fileIds: [id] });
    expect(task.rtnCode, task.msg).toBe('0000000');
    await until(async () => (await call(api1, '/cloud/v5/zip/task/taskStatus', { taskId: task.bizData.taskId })).bizData.status === 2, 60_000);
    const zipUrl = await call(api1, '/cloud/v5/file/downloadBatchTempUrl', { taskId: task.bizData.taskId });
    expect(zipUrl.rtnCode, zipUrl.msg).toBe('0000000');
    const zip = Buffer.from(await (await fetch(zipUrl.bizData.signedUrl)).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');

    // the worker counts the jobs: thumbnail, scene prewarm and zip completed there
    const mw = await metrics(`http://127.0.0.1:${workerPort}`);
    for (const job of ['thumbnail.render', 'drawing.prewarm', 'zip.build']) expect(counter(mw, 'cadcloud_jobs_total', `name="${job}",outcome="completed"`), `${job} on the worker:\n${mw.split('\n').filter((l) => l.startsWith('cadcloud_jobs_total')).join('\n')}`).toBeGreaterThan(0);
    // no job ran on a web process: neither counts one
    for (const s of [api1, api2]) {
      const m = await metrics(s);
      expect(counter(m, 'cadcloud_jobs_total'), `jobs on ${s.url}:\n${m.split('\n').filter((l) => l.startsWith('cadcloud_jobs_total')).join('\n')}`).toBe(0);
    }
  }, 90_000);

  it('a share created on API 1 is extracted on API 2, and its extraction guard counts the wrong codes of both', async () => {
    const id = (await upload(api1, 'shared.dxf', drawingDxf(2))).bizData.id as string;
    const s = await call(api1, '/cloud/v5/share/create', { fileIds: [id], validDays: 7 });
    expect(s.rtnCode, s.msg).toBe('0000000');
    const { rand, code } = s.bizData as { rand: string; code: string };

    // 20 wrong codes at once, spread over both processes: only the share's free failures (3) are compared at all
    const wrong = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? api2 : api1, '/cloud/v5/share/extract', { rand, code: otherCode(code, i), password: '' }, null)));
    const tally = wrong.map(codeOf).reduce<Record<string, number>>((a, c) => ({ ...a, [c]: (a[c] ?? 0) + 1 }), {});
    console.info(`[three processes] 20 wrong codes over two API processes: ${JSON.stringify(tally)}`);
    expect(tally['share.wrongCode'] ?? 0).toBeLessThanOrEqual(3);
    expect(Object.keys(tally).every((k) => ['share.wrongCode', 'share.tryLater', 'share.proofRequired'].includes(k)), JSON.stringify(tally)).toBe(true);
    // the client backoff may have put some off: wrong codes until the share's free failures are used up, then both
    // processes ask for a proof of work
    let compared = tally['share.wrongCode'] ?? 0;
    for (let i = 0; compared < 3; i++) {
      const r = await until(async () => {
        const x = await call(i % 2 ? api1 : api2, '/cloud/v5/share/extract', { rand, code: otherCode(code, 100 + i), password: '' }, null);
        return codeOf(x) === 'share.tryLater' ? undefined : x;
      }, 30_000);
      if (codeOf(r) !== 'share.wrongCode') break;
      compared++;
    }
    for (const server of [api1, api2]) expect((await call(server, '/cloud/v5/share/challenge', { rand }, null)).bizData.bits).toBeGreaterThan(0);

    // the right code with a proof: challenge from API 1, extraction on API 2, the share token used on API 1
    const c = (await call(api1, '/cloud/v5/share/challenge', { rand }, null)).bizData as { challenge: string; bits: number };
    const { proof } = solveProof(c.challenge, c.bits);
    const ex = await until(async () => {
      const r = await call(api2, '/cloud/v5/share/extract', { rand, code, password: '', challenge: c.challenge, proof }, null);
      return codeOf(r) === 'share.tryLater' ? undefined : r;
    }, 30_000);
    expect(codeOf(ex), JSON.stringify(ex)).toBe('ok');
    const files = await call(api1, '/cloud/v5/share/files', { rand, shareToken: ex.bizData.shareToken }, null);
    expect(files.rtnCode, files.msg).toBe('0000000');
    expect(JSON.stringify(files.bizData)).toContain(id);
  }, 60_000);

  it('the upload quota holds when parallel uploads are spread over both API processes', async () => {
    const before = (await call(api2, '/cloud/v5/folder/capacity', {})).bizData as { used: number; total: number };
    expect(before.total).toBe(QUOTA);
    const fits = Math.floor((before.total - before.used) / BURST_FILE);
    const rs = await Promise.all(Array.from({ length: fits + 8 }, (_, i) => upload(i % 2 ? api2 : api1, `burst-${i}.dwg`, randomBytes(BURST_FILE))));
    const accepted = rs.filter((r) => r.rtnCode === '0000000').length;
    const after = (await call(api1, '/cloud/v5/folder/capacity', {})).bizData as { used: number; total: number };
    console.info(`[three processes] ${rs.length} parallel uploads of ${BURST_FILE} B with room for ${fits}: ${accepted} accepted; used ${after.used}/${after.total}`);
    expect(accepted).toBeLessThanOrEqual(fits);
    expect(accepted).toBeGreaterThan(0);
    expect(after.used).toBeLessThanOrEqual(after.total);
    for (const r of rs) if (r.rtnCode !== '0000000') expect(codeOf(r)).toBe('upload.noSpace');
    // what the database holds agrees with what was answered
    const db = createDatabase(env.DATABASE_URL);
    const n = await db.selectFrom('items').select((eb) => eb.fn.countAll<string>().as('n')).where('name', 'like', 'burst-%').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    await db.destroy();
    expect(Number(n.n)).toBe(accepted);
  }, 60_000);

  it('new versions of one file uploaded at once through both API processes keep one numbering and true blob references', async () => {
    const id = (await upload(api1, 'versions.dxf', drawingDxf(3))).bizData.id as string;
    const contents = Array.from({ length: 8 }, (_, i) => drawingDxf(100 + i));
    const rs = await Promise.all(contents.map((bytes, i) => upload(i % 2 ? api2 : api1, 'versions.dxf', bytes, '/cloud/v5/version/upload', { fileId: id })));
    const accepted = rs.filter((r) => r.rtnCode === '0000000');
    console.info(`[three processes] 8 parallel version uploads of one file over two processes: ${accepted.length} accepted; refused ${JSON.stringify(rs.filter((r) => r.rtnCode !== '0000000').map(codeOf))}`);
    // one file's versions are made one at a time across processes: every upload becomes a version, none fails
    const errors = [api1, api2].map((s) => s.output().split('\n').filter((l) => /error/i.test(l)).slice(-5).join('\n')).join('\n');
    expect(rs.map(codeOf), errors).toEqual(rs.map(() => 'ok'));
    const db = createDatabase(env.DATABASE_URL);
    try {
      const versions = await db.selectFrom('file_versions').select(['number', 'blob_md5']).where('item_id', '=', id).where('deleted_at', 'is', null).orderBy('number').execute();
      expect(versions.map((v) => Number(v.number))).toEqual(Array.from({ length: accepted.length + 1 }, (_, i) => i + 1));
      const item = await db.selectFrom('items').select(['blob_md5', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(item.blob_md5).toBe(versions.at(-1)!.blob_md5);
      // each live version holds one reference on its bytes and the file one on its current bytes
      const want = new Map<string, number>();
      for (const v of versions) want.set(v.blob_md5, (want.get(v.blob_md5) ?? 0) + 1);
      want.set(item.blob_md5!, want.get(item.blob_md5!)! + 1);
      const blobs = await db.selectFrom('blobs').select(['md5', 'ref_count']).where('md5', 'in', [...want.keys()]).execute();
      expect(Object.fromEntries(blobs.map((b) => [b.md5, Number(b.ref_count)]))).toEqual(Object.fromEntries(want));
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
