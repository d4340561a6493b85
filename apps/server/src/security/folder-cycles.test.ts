/**
 * Issue 14, item 3: a parent loop already in the database (as concurrent moves could commit on PostgreSQL) must
 * not hang a walk of the tree. Zip download, path, capacity, listing, save from a share, bin, restore, permanent
 * delete and the trash sweep each finish quickly with an error or a bounded answer. The old zip download ran a
 * recursive query that never ended (PostgreSQL wrote temporary files without bound; SQLite spun forever).
 *
 * The server runs as a child process, so a request that never ends can be cut off (and fails the test) instead of
 * blocking the test runner; on PostgreSQL its own database, with a statement timeout so nothing runs on forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { runAdmin } from '../admin/admin.cli.ts';
import { createDatabase } from '../infra/db/db.ts';
import type { Database } from '../infra/db/schema.ts';
import { loadConfig } from '../infra/config/index.ts';
import { createStorage } from '../infra/storage/storage.factory.ts';
import { createDbQueue } from '../infra/queue/db.queue.ts';
import { createMailer } from '../infra/mail/mailer.factory.ts';
import { sweepTrash } from '../modules/trash/trash.jobs.ts';
import { startServer, type ServerProcess } from '../test/server-process.ts';
import { unzip } from '../test/unzip.ts';

/** Each call must answer within this (generous for a loaded 2-core machine; a sound walk takes milliseconds). */
const QUICK_MS = 10_000;
/** A request still running after this is cut off (the server is killed) and fails the test. */
const CUT_OFF_MS = 30_000;

const drivers: { name: string; pgUrl?: string }[] = [{ name: 'sqlite' }];
if (process.env.TEST_POSTGRES_URL) drivers.push({ name: 'postgres', pgUrl: process.env.TEST_POSTGRES_URL });

for (const driver of drivers) {
  describe(`a parent loop planted in the database on ${driver.name}`, () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-cycles-'));
    const dbName = `cc_cycles_${randomBytes(5).toString('hex')}`;
    let databaseUrl = `sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`;
    let env: Record<string, string>;
    let server: ServerProcess;
    let db: Kysely<Database>;
    let owner: { token: string; id: string };
    let other: { token: string; id: string };
    const ids: Record<string, string> = {};

    async function pgAdmin(q: string) {
      const c = new pg.Client({ connectionString: driver.pgUrl });
      await c.connect();
      try {
        return await c.query(q);
      } finally {
        await c.end();
      }
    }

    /** One API call; fails when it takes longer than QUICK_MS, and kills a server that does not answer at all. */
    async function quick(p: string, data: unknown, token = owner.token) {
      const started = Date.now();
      const res = await fetch(`${server.url}${p}?utoken=${encodeURIComponent(token)}`, {
        method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(CUT_OFF_MS),
      }).catch(async (e) => {
        await server.kill();
        throw new Error(`${p} did not answer in ${CUT_OFF_MS} ms (${(e as Error).message})`);
      });
      const body = await res.json();
      const took = Date.now() - started;
      expect(took, `${p} took ${took} ms`).toBeLessThan(QUICK_MS);
      return body;
    }

    async function upload(name: string, parentId: string) {
      const form = new FormData();
      form.set('parentId', parentId);
      form.set('filedata', new Blob([randomBytes(2000)]), name);
      const r = await (await fetch(`${server.url}/cloud/v5/file/upload?utoken=${encodeURIComponent(owner.token)}`, { method: 'POST', body: form })).json();
      expect(r.rtnCode, r.msg).toBe('0000000');
      return r.bizData.id as string;
    }

    async function signIn(email: string) {
      await runAdmin(['user', 'create', '--email', email, '--password', 'cycle password'], env);
      const r = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email, password: 'cycle password' } }), headers: { 'content-type': 'application/json' } })).json();
      return { token: r.data.token as string, id: r.data.id as string };
    }

    /** The loops: A → B → A (C and the files hang below them), and D its own parent. */
    async function plantLoops() {
      await db.updateTable('items').set({ parent_id: ids.B }).where('id', '=', ids.A).execute();
      await db.updateTable('items').set({ parent_id: ids.D }).where('id', '=', ids.D).execute();
    }

    const tempBytes = async () => (driver.pgUrl ? Number((await pgAdmin(`select temp_bytes from pg_stat_database where datname = '${dbName}'`)).rows[0].temp_bytes) : 0);
    const dirBytes = (dir: string): number => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).reduce((a, d) => a + statSync(path.join(d.parentPath, d.name)).size, 0);

    beforeAll(async () => {
      if (driver.pgUrl) {
        await pgAdmin(`create database ${dbName}`);
        const u = new URL(driver.pgUrl);
        u.pathname = `/${dbName}`;
        // the old walk of a loop never ended: on this database nothing may run longer than this
        u.searchParams.set('options', `-c statement_timeout=${CUT_OFF_MS}`);
        databaseUrl = u.toString();
      }
      env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
      server = await startServer(env);
      db = createDatabase(databaseUrl);
      owner = await signIn('loop-owner@example.com');
      other = await signIn('loop-saver@example.com');
      const folder = async (name: string, parentId: string) => (await quick('/cloud/v5/folder/edit', { parentId, name })).bizData.id as string;
      ids.A = await folder('A', '0');
      ids.B = await folder('B', ids.A);
      ids.C = await folder('C', ids.B);
      ids.D = await folder('D', '0');
      ids.a = await upload('a.txt', ids.A);
      ids.b = await upload('b.txt', ids.B);
      ids.c = await upload('c.txt', ids.C);
      ids.d = await upload('d.txt', ids.D);
      ids.loose = await upload('loose.txt', '0');
      await plantLoops();
    }, 180_000);

    afterAll(async () => {
      // each step even when one before failed: no server, database or folder outlives the test
      await server?.kill().catch(() => undefined);
      await db?.destroy().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
      if (driver.pgUrl) await pgAdmin(`drop database if exists ${dbName} with (force)`);
    }, 60_000);

    it('zip downloads of folders in a loop finish with a bounded archive and bounded temporary files', async () => {
      const temp0 = await tempBytes();
      for (const [folderIds, expected] of [
        [[ids.A], ['A/', 'A/a.txt', 'A/B/', 'A/B/b.txt', 'A/B/C/', 'A/B/C/c.txt']],
        [[ids.D], ['D/', 'D/d.txt']],
      ] as const) {
        const task = await quick('/cloud/v5/file/downloadBatchZip', { folderIds });
        expect(task.rtnCode, task.msg).toBe('0000000');
        const started = Date.now();
        let status = task.bizData.status;
        while (status < 2 && Date.now() - started < QUICK_MS) {
          await new Promise((r) => setTimeout(r, 100));
          status = (await quick('/cloud/v5/zip/task/taskStatus', { taskId: task.bizData.taskId })).bizData.status;
        }
        expect(status, `zip task finished: ${JSON.stringify(await quick("/cloud/v5/zip/task/taskStatus", { taskId: task.bizData.taskId }))}`).toBe(2);
        const url = (await quick('/cloud/v5/file/downloadBatchTempUrl', { taskId: task.bizData.taskId })).bizData.signedUrl as string;
        const zip = Buffer.from(await (await fetch(new URL(url, server.url))).arrayBuffer());
        expect([...unzip(zip).keys()].sort()).toEqual([...expected].sort());
      }
      const written = (await tempBytes()) - temp0;
      console.info(`[${driver.name}] zip of a looped folder: database temp files ${written} bytes, data dir ${dirBytes(dataDir)} bytes`);
      expect(written).toBeLessThan(1024 * 1024);
      expect(dirBytes(dataDir)).toBeLessThan(20 * 1024 * 1024);
    });

    it('path, capacity and listing answer at once; nothing is moved into a folder cut off by a loop', async () => {
      // a folder a loop cut off from the top level has no breadcrumb: "not found", or at most a bounded chain
      const crumbs = await quick('/cloud/v5/folder/getParentFolderPath', { folderId: ids.C });
      if (crumbs.rtnCode === '0000000') expect(crumbs.bizData.list.length).toBeLessThanOrEqual(200);
      else expect(crumbs.bizData.code).toBe('item.notFound');
      expect((await quick('/cloud/v5/folder/capacity', {})).rtnCode).toBe('0000000');
      const listA = await quick('/cloud/v5/union/list', { parentId: ids.A });
      expect(listA.bizData.list.map((i: { name: string }) => i.name)).toEqual(['B', 'a.txt']);
      expect((await quick('/cloud/v5/folder/list', { parentId: ids.D })).rtnCode).toBe('0000000');
      const into = await quick('/cloud/v5/union/move', { fileIds: [ids.loose], moveToId: ids.C });
      expect(into.rtnCode).not.toBe('0000000');
      const deeper = await quick('/cloud/v5/folder/edit', { parentId: ids.C, name: 'E' });
      expect(deeper.rtnCode).not.toBe('0000000');
    });

    it('saving a shared folder that sits in a loop copies each item once', async () => {
      const share = await quick('/cloud/v5/share/create', { folderIds: [ids.A], validDays: 1, canDownload: true, canSave: true });
      expect(share.rtnCode, share.msg).toBe('0000000');
      const x = await quick('/cloud/v5/share/extract', { rand: share.bizData.rand, code: share.bizData.code, password: share.bizData.password ?? '' }, other.token);
      expect(x.rtnCode, x.msg).toBe('0000000');
      const saved = await quick('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: x.bizData.shareToken, folderIds: [ids.A], targetFolderId: '0' }, other.token);
      console.info(`[${driver.name}] save from a share of a looped folder: ${saved.rtnCode} ${saved.msg}`);
      // saved (A, B, C with their three files, once each) or refused; never a loop in the saver's drive
      const rows = await db.selectFrom('items').select(['name', 'kind']).where('uid', '=', other.id).execute();
      if (saved.rtnCode === '0000000') expect(rows.map((r) => r.name).sort()).toEqual(['A', 'B', 'C', 'a.txt', 'b.txt', 'c.txt']);
      else expect(rows).toEqual([]);
    });

    it('bin, restore, permanent delete and the trash sweep finish; restored folders are back in the tree', async () => {
      expect((await quick('/cloud/v5/union/delete', { deleteLevel: 0, folderIds: [ids.A] })).rtnCode).toBe('0000000');
      expect((await quick('/cloud/v5/trash/restore', { folderIds: [ids.A] })).rtnCode).toBe('0000000');
      // the loop's former parent is binned with it: A comes back at the top level, the loop cut
      const top = await quick('/cloud/v5/union/list', { parentId: '0' });
      expect(top.bizData.list.map((i: { name: string }) => i.name)).toContain('A');
      expect((await quick('/cloud/v5/folder/getParentFolderPath', { folderId: ids.C })).bizData.list.map((f: { name: string }) => f.name)).toEqual(['A', 'B', 'C']);

      await plantLoops();
      const before = await quick('/cloud/v5/folder/capacity', {});
      expect((await quick('/cloud/v5/union/delete', { deleteLevel: 1, folderIds: [ids.A] })).rtnCode).toBe('0000000');
      const left = await db.selectFrom('items').select('name').where('uid', '=', owner.id).where('id', 'in', [ids.A, ids.B, ids.C, ids.a, ids.b, ids.c]).execute();
      expect(left).toEqual([]);
      expect((await quick('/cloud/v5/folder/capacity', {})).bizData.used).toBe(before.bizData.used - 3 * 2000);

      // the self-loop D goes to the bin and is swept for good after the retention
      expect((await quick('/cloud/v5/union/delete', { deleteLevel: 0, folderIds: [ids.D] })).rtnCode).toBe('0000000');
      const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PORT: '8080' });
      const deps = { config, db, storage: createStorage(config), queue: createDbQueue(db, { pollMs: 1000 }), mailer: createMailer(config, db) };
      const started = Date.now();
      await sweepTrash(deps, Date.now() + 11 * 24 * 3600_000);
      expect(Date.now() - started).toBeLessThan(QUICK_MS);
      expect(await db.selectFrom('items').select('id').where('id', 'in', [ids.D, ids.d]).execute()).toEqual([]);
    });
  });
}
