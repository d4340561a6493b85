/**
 * The free monthly allowance (FREE_CONVERSIONS_PER_MONTH) across two server processes on one database: the database
 * is the arbiter, so parallel transformBatch calls through both admit exactly the allowance (SQLite file always,
 * PostgreSQL when TEST_POSTGRES_URL is set). In one process on both drivers: conversions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runAdmin } from '../../admin/admin.cli.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';
import { sampleDxf } from '../../test/dxf-fixtures.ts';

const ALLOWANCE = 3;
const REQUESTS = 16;
const pgUrl = process.env.TEST_POSTGRES_URL;
const backends = [{ name: 'sqlite', pg: false }, ...(pgUrl ? [{ name: 'postgres', pg: true }] : [])];

for (const backend of backends) {
  describe(`conversion allowance through two server processes on ${backend.name}`, () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-convrace-'));
    const dbName = `convrace_${randomBytes(6).toString('hex')}`;
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: backend.pg ? `${pgUrl!.replace(/\/[^/]*$/, '')}/${dbName}` : `sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`,
      FREE_CONVERSIONS_PER_MONTH: String(ALLOWANCE),
      LOG_LEVEL: 'warn',
    };
    const servers: ServerProcess[] = [];
    let token: string;
    const api = async (server: ServerProcess, p: string, data: unknown) =>
      (await fetch(`${server.url}${p}?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();

    beforeAll(async () => {
      if (backend.pg) {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`create database ${dbName}`);
        await admin.end();
      }
      await runAdmin(['user', 'create', '--email', 'race@example.com', '--password', 'race password'], env);
      // one after the other: the first migrates and creates the secrets, the second finds them
      servers.push(await startServer(env));
      servers.push(await startServer(env));
      const r = await (await fetch(`${servers[0].url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'race@example.com', password: 'race password' } }), headers: { 'content-type': 'application/json' } })).json();
      token = r.data.token;
    }, 180_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.kill().catch(() => undefined)));
      if (backend.pg) {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
    }, 60_000);

    it(`${REQUESTS} parallel requests of a free account through both servers admit exactly ${ALLOWANCE}`, async () => {
      const ids: string[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const form = new FormData();
        form.set('filedata', new Blob([new Uint8Array(sampleDxf(40 + i))]), `r${i}.dxf`);
        const up = await (await fetch(`${servers[0].url}/cloud/v5/file/upload?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: form })).json();
        expect(up.rtnCode, up.msg).toBe('0000000');
        ids.push(up.bizData.id);
      }
      // connections opened beforehand: the requests reach both servers together instead of one handshake apart
      await Promise.all(ids.map((_, i) => api(servers[i % 2], '/cloud/v5/file/task/transformTargets', {})));
      const answers = await Promise.all(ids.map((id, i) => api(servers[i % 2], '/cloud/v5/file/task/transformBatch', { fileIds: [id], target: 'pdf' })));
      const codes = answers.map((r) => (r.rtnCode === '0000000' ? 'ok' : r.bizData?.code ?? r.rtnCode));
      console.info(`[${backend.name}, two processes] ${REQUESTS} parallel conversions, allowance ${ALLOWANCE}: ${codes.filter((c) => c === 'ok').length} admitted`);
      expect(codes.filter((c) => c === 'ok')).toHaveLength(ALLOWANCE);
      expect(codes.filter((c) => c !== 'ok')).toEqual(Array(REQUESTS - ALLOWANCE).fill('conversion.monthlyLimit'));
      expect((await api(servers[1], '/cloud/v5/file/task/transformTargets', {})).bizData.usedThisMonth).toBe(ALLOWANCE);
      // the refused sources were never marked converting
      const statuses = (await api(servers[0], '/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: ids })).bizData.list;
      expect(statuses.filter((s: any) => s.taskId !== null)).toHaveLength(ALLOWANCE);
    }, 120_000);
  });
}
