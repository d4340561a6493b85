import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../../admin/admin.cli.ts';
import { createDatabase } from '../../infra/db/db.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';
import { until } from '../../test/until.ts';
import { makeZip } from './test-archives.ts';

describe('crash safety: a server killed (SIGKILL) in the middle of a decompression', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-unzipcrash-'));
  // a short lease: the job of the killed process is taken again within seconds
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', JOB_LEASE_MS: '2000' };
  const db = createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`);
  let server: ServerProcess;
  let token: string;
  const api = async (p: string, data: unknown) =>
    (await fetch(`${server.url}${p}?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();

  beforeAll(async () => {
    await runAdmin(['user', 'create', '--email', 'unzipcrash@example.com', '--password', 'crash password'], env);
    server = await startServer(env);
    const r = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'unzipcrash@example.com', password: 'crash password' } }), headers: { 'content-type': 'application/json' } })).json();
    token = r.data.token;
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('resumes after a restart: every file once at its full size (no half file), the quota exactly the files', async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({ name: `many/${i}.bin`, data: new Uint8Array(randomBytes(20_000 + i)) }));
    const form = new FormData();
    form.set('filedata', new Blob([new Uint8Array(await makeZip(entries, { level: 0 }))]), 'many.zip');
    const zip = (await (await fetch(`${server.url}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', body: form })).json()).bizData;
    const usedBefore = Number((await db.selectFrom('users').select('storage_used').executeTakeFirstOrThrow()).storage_used);
    const task = (await api('/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
    await until(async () => {
      const s = (await api('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId })).bizData;
      return s.status === 1 && s.unzip.entriesDone > 20;
    }, 120_000);
    await server.kill('SIGKILL');
    server = await startServer(env, server.port);
    const end = await until(async () => {
      const s = (await api('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId })).bizData;
      return s.status >= 2 ? s : undefined;
    }, 240_000);
    expect(end).toMatchObject({ status: 2, unzip: { entriesDone: 400, entriesTotal: 400 } });
    const files = await db.selectFrom('items').select(['name', 'size']).where('kind', '=', 1).where('name', '!=', 'many.zip').execute();
    expect(files).toHaveLength(400);
    for (const f of files) expect(Number(f.size)).toBe(20_000 + Number(f.name.split('.')[0]));
    const total = entries.reduce((a, e) => a + e.data.length, 0);
    expect(Number((await db.selectFrom('users').select('storage_used').executeTakeFirstOrThrow()).storage_used)).toBe(usedBefore + total);
  }, 400_000);
});
