/**
 * An upload storm against the real server (`main.ts` in its own process, SQLite, local disk) through the HTTP API,
 * sampling the server's resident memory (issue 14 item 13: the main process grew from 426 MB to 3.8 GB during such a
 * storm and stayed near 750 MB). Used by bench/upload-storm.ts (large) and security/upload-memory.test.ts (small).
 *   const r = await runUploadStorm({ users: 8, filesPerUser: 3, minMB: 2, maxMB: 12 });
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { generateLargeDxf } from '../../../../bench/gen-large-dxf.ts';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../admin/admin.cli.ts';
import { createDatabase } from '../infra/db/db.ts';
import { startServer, type ServerProcess } from './server-process.ts';

export interface StormOptions {
  users: number;
  filesPerUser: number;
  /** file sizes, spread evenly between these */
  minMB: number;
  maxMB: number;
  /** files above this go chunked (upload/init, chunk, complete), the rest as one multipart request; default 8 MB */
  chunkedAboveMB?: number;
  /** every how many files is a real drawing (a generated DXF the server thumbnails and builds a scene of); default 2 */
  drawingEvery?: number;
  /** extra server environment */
  env?: Record<string, string>;
  /** after the storm and the background jobs it started (thumbnails, scenes), how long to wait for memory to settle (ms); default 5000 */
  settleMs?: number;
  /** the longest wait for those jobs (ms); default 120000 */
  jobsWaitMs?: number;
  log?: (line: string) => void;
  /** called with the server's pid once memory settled, before the server stops (e.g. to take a heap snapshot) */
  onSettled?: (pid: number) => Promise<void>;
}

export interface StormResult {
  /** MB */
  baselineRss: number;
  peakRss: number;
  afterRss: number;
  /** seconds from the storm's end until the jobs it queued were done */
  jobsSeconds: number;
  jobs: { name: string; state: string; n: number }[];
  uploadedMB: number;
  uploads: number;
  failures: string[];
  seconds: number;
  samples: { t: number; rss: number }[];
}

const MB = 1024 * 1024;

/** Resident set of a process in MB (Linux /proc). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

export async function runUploadStorm(o: StormOptions): Promise<StormResult> {
  const log = o.log ?? (() => undefined);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-storm-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', STORAGE_DEFAULT_QUOTA: '10GB', WEB_UPLOAD_FILE_SIZE: '500MB', UPLOAD_SESSIONS_PER_USER: '50', ...o.env };
  let server: ServerProcess | undefined;
  try {
    const emails = Array.from({ length: o.users }, (_, i) => `storm${i}@example.com`);
    for (const email of emails) await runAdmin(['user', 'create', '--email', email, '--password', 'storm password'], env);
    server = await startServer(env);
    const base = server.url;
    const pid = server.child.pid!;
    const tokens = await Promise.all(emails.map(async (email) => {
      const r = await fetch(`${base}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email, password: 'storm password' } }), headers: { 'content-type': 'application/json' } }).then((x) => x.json());
      return r.data.token as string;
    }));
    // warm up (first requests compile routes, open the database) so the baseline is the idle server
    for (const token of tokens) await fetch(`${base}/cloud/v5/union/list?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data: {} }), headers: { 'content-type': 'application/json' } });
    await new Promise((r) => setTimeout(r, 1000));
    const baselineRss = rssOf(pid);
    log(`baseline RSS ${baselineRss.toFixed(0)} MB`);

    const samples: { t: number; rss: number }[] = [];
    const t0 = Date.now();
    const sampler = setInterval(() => samples.push({ t: Date.now() - t0, rss: rssOf(pid) }), 100);
    const failures: string[] = [];
    let uploadedBytes = 0;
    let uploads = 0;
    const chunkedAbove = (o.chunkedAboveMB ?? 8) * MB;
    const count = o.users * o.filesPerUser;
    const sizes = Array.from({ length: count }, (_, i) => Math.round((o.minMB + ((o.maxMB - o.minMB) * i) / Math.max(1, count - 1)) * MB));

    const uploadOne = async (token: string, name: string, wanted: number) => {
      // bytes made per file and dropped after: the client's own memory stays small (a generated drawing is about `wanted`)
      const body = name.endsWith('.dxf') ? drawing(wanted) : randomBytes(wanted);
      const size = body.length;
      const md5 = createHash('md5').update(body).digest('hex');
      if (size <= chunkedAbove) {
        const form = new FormData();
        form.append('parentId', '0');
        form.append('filedata', new Blob([body]), name);
        const r = await fetch(`${base}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', body: form }).then((x) => x.json());
        if (r.rtnCode !== '0000000') throw new Error(`${name}: ${r.msg}`);
      } else {
        const call = (p: string, data: unknown) => fetch(`${base}${p}?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data }), headers: { 'content-type': 'application/json' } }).then((x) => x.json());
        const init = await call('/cloud/v5/upload/init', { name, size, md5, parentId: '0' });
        if (init.rtnCode !== '0000000') throw new Error(`${name}: ${init.msg}`);
        const chunk = init.bizData.chunkSize as number;
        for (let offset = init.bizData.received as number; offset < size; ) {
          const r = await fetch(`${base}/cloud/v5/upload/chunk?utoken=${token}&uploadId=${init.bizData.uploadId}&offset=${offset}`, { method: 'PUT', body: body.subarray(offset, offset + chunk), headers: { 'content-type': 'application/octet-stream' } }).then((x) => x.json());
          if (r.rtnCode !== '0000000') throw new Error(`${name} chunk: ${r.msg}`);
          offset = r.bizData.received;
        }
        const done = await call('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId });
        if (!done.bizData?.complete) throw new Error(`${name}: ${done.msg}`);
      }
      uploadedBytes += size;
      uploads++;
    };
    // every user at once, each sending its files one after another (the spec's client runs up to 3 in parallel)
    let seed = 1;
    const drawing = (size: number) => {
      const f = path.join(dataDir, `gen-${seed}.dxf`);
      generateLargeDxf(f, size, seed++);
      const b = readFileSync(f);
      rmSync(f);
      return b;
    };
    const every = o.drawingEvery ?? 2;
    const others = ['plan.dwg', 'site.pdf', 'photo.png', 'model.step', 'notes.bin'];
    await Promise.all(tokens.map(async (token, u) => {
      for (let f = 0; f < o.filesPerUser; f++) {
        const i = u * o.filesPerUser + f;
        const n = i % every === 0 ? 'detail.dxf' : others[i % others.length];
        await uploadOne(token, n.replace('.', ` ${u}-${f}.`), sizes[(i * 7) % sizes.length]).catch((e) => failures.push(String(e.message ?? e)));
      }
    }));
    const seconds = (Date.now() - t0) / 1000;
    log(`${uploads} uploads, ${(uploadedBytes / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s; peak RSS ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} MB`);
    // the thumbnails and scenes the uploads queued run in this process (PROCESS_MODE=all): wait for them
    const db = createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`);
    const jobsStart = Date.now();
    let jobs: { name: string; state: string; n: number }[] = [];
    try {
      for (;;) {
        const pending = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('state', 'in', ['waiting', 'active']).where('run_at', '<=', Date.now() + 60_000).executeTakeFirstOrThrow();
        if (Number(pending.n) === 0 || Date.now() - jobsStart > (o.jobsWaitMs ?? 120_000)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      jobs = (await db.selectFrom('jobs').select(['name', 'state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy(['name', 'state']).execute()).map((j) => ({ ...j, n: Number(j.n) }));
    } finally {
      await db.destroy();
    }
    const jobsSeconds = (Date.now() - jobsStart) / 1000;
    log(`jobs done ${jobsSeconds.toFixed(1)} s after the storm: ${jobs.map((j) => `${j.name} ${j.state} ${j.n}`).join(', ')}; RSS ${rssOf(pid).toFixed(0)} MB`);
    await new Promise((r) => setTimeout(r, o.settleMs ?? 5000));
    clearInterval(sampler);
    const afterRss = rssOf(pid);
    log(`after settling: RSS ${afterRss.toFixed(0)} MB`);
    await o.onSettled?.(pid);
    return { baselineRss, peakRss: Math.max(baselineRss, ...samples.map((s) => s.rss)), afterRss, jobsSeconds, jobs, uploadedMB: uploadedBytes / MB, uploads, failures, seconds, samples };
  } finally {
    await server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
