/**
 * Issue 14, item 3, on SQLite with several server processes on one database file (one process's connection runs
 * its transactions one at a time, but two processes each have their own): A→B on one server while B→A on the
 * other must not commit a loop, and one name made in parallel through both stays one live item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { runAdmin } from '../admin/admin.cli.ts';
import { createDatabase } from '../infra/db/db.ts';
import { startServer, type ServerProcess } from '../test/server-process.ts';

const MOVE_TRIES = 20;
const CYCLE3_TRIES = 10;

describe('drive writes through two server processes on one SQLite file', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-two-servers-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'cadcloud.sqlite')}` };
  const servers: ServerProcess[] = [];
  let token: string;

  const api = async (server: ServerProcess, p: string, data: unknown) =>
    (await fetch(`${server.url}${p}?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();
  const folder = async (name: string) => {
    const r = await api(servers[0], '/cloud/v5/folder/edit', { parentId: '0', name });
    expect(r.rtnCode, r.msg).toBe('0000000');
    return r.bizData.id as string;
  };

  beforeAll(async () => {
    await runAdmin(['user', 'create', '--email', 'two@example.com', '--password', 'two servers'], env);
    // one after the other: the first creates the secrets and migrates, the second finds them
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const r = await (await fetch(`${servers[0].url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'two@example.com', password: 'two servers' } }), headers: { 'content-type': 'application/json' } })).json();
    token = r.data.token;
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill().catch(() => undefined)));
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }, 60_000);

  it(`A→B on one server while B→A on the other never commits a loop (${MOVE_TRIES} tries; three-way ${CYCLE3_TRIES})`, async () => {
    let cycles2 = 0;
    let cycles3 = 0;
    const refusals: string[] = [];
    for (let i = 0; i < MOVE_TRIES; i++) {
      const [a, b] = [await folder(`A${i}`), await folder(`B${i}`)];
      const r = await Promise.all([
        api(servers[0], '/cloud/v5/union/move', { folderIds: [a], moveToId: b }),
        api(servers[1], '/cloud/v5/union/move', { folderIds: [b], moveToId: a }),
      ]);
      if (r.every((x) => x.rtnCode === '0000000')) cycles2++;
      for (const x of r) if (x.rtnCode !== '0000000') refusals.push(x.bizData?.code ?? x.rtnCode);
    }
    for (let i = 0; i < CYCLE3_TRIES; i++) {
      const [a, b, c] = [await folder(`X${i}`), await folder(`Y${i}`), await folder(`Z${i}`)];
      const r = await Promise.all([
        api(servers[0], '/cloud/v5/union/move', { folderIds: [a], moveToId: b }),
        api(servers[1], '/cloud/v5/union/move', { folderIds: [b], moveToId: c }),
        api(servers[0], '/cloud/v5/union/move', { folderIds: [c], moveToId: a }),
      ]);
      if (r.every((x) => x.rtnCode === '0000000')) cycles3++;
      for (const x of r) if (x.rtnCode !== '0000000') refusals.push(x.bizData?.code ?? x.rtnCode);
    }
    console.info(`[sqlite, two processes] move races: two-way loops ${cycles2}/${MOVE_TRIES}, three-way loops ${cycles3}/${CYCLE3_TRIES}; refusals ${JSON.stringify([...new Set(refusals)])}`);
    expect(cycles2 + cycles3).toBe(0);
    // every race refused exactly one move, as "into itself" (the other server waited for the write lock, it did not fail)
    expect(refusals).toEqual(Array(MOVE_TRIES + CYCLE3_TRIES).fill('move.intoItself'));
  });

  it('one name created and uploaded in parallel through both servers stays one live item per name', async () => {
    const creates = await Promise.all(Array.from({ length: 30 }, (_, i) => api(servers[i % 2], '/cloud/v5/folder/edit', { parentId: '0', name: 'Same' })));
    const uploads = await Promise.all(Array.from({ length: 20 }, (_, i) => {
      const form = new FormData();
      form.set('filedata', new Blob([randomBytes(64)]), 'same.dwg');
      return fetch(`${servers[i % 2].url}/cloud/v5/file/upload?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: form }).then((r) => r.json());
    }));
    const db = createDatabase(env.DATABASE_URL);
    const names = (await db.selectFrom('items').select('name').where('parent_id', '=', '0').where('deleted_at', 'is', null).execute()).map((r) => r.name);
    await db.destroy();
    const made = creates.filter((r) => r.rtnCode === '0000000').length;
    const uploaded = new Set(uploads.map((r) => r.bizData?.name));
    console.info(`[sqlite, two processes] 30 parallel creates: ${made} made; 20 parallel uploads: ${uploaded.size} distinct names`);
    expect(made).toBe(1);
    for (const r of creates) if (r.rtnCode !== '0000000') expect(r.bizData.code).toBe('name.duplicateFolder');
    for (const r of uploads) expect(r.rtnCode, r.msg).toBe('0000000');
    expect(uploaded.size).toBe(20);
    expect(names.length).toBe(new Set(names).size);
  });
});
