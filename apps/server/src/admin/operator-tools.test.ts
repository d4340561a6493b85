import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, utimesSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { blobKey } from '../infra/storage/storage-keys.ts';
import { createTestApp, md5, type TestApp } from '../test/fixtures.ts';
import { createUsersService } from '../modules/users/users.service.ts';
import { createSessionsService } from '../modules/users/sessions.service.ts';
import { collectGarbage } from './storage-gc.ts';
import { instanceStats } from './stats.ts';

/**
 * Issue 16 item 7: what an operator needs beyond creating users — disable/enable an account, reset a password,
 * find unreferenced blobs, look after jobs, see the instance's numbers. The pieces on both databases here; the
 * commands themselves through the real CLI process below.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`operator tools (${driver.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());

    it('a disabled account loses its sessions and cannot get a new one; enabled, it signs in again and its files are there', async () => {
      const u = await t.createUser();
      const up = await t.upload(u.token, 'kept.dwg', randomBytes(2000));
      expect(up.rtnCode).toBe('0000000');
      const users = createUsersService(t.deps);
      await users.setDisabled(u.id, true);
      const refused = await t.call('/cloud/v5/union/list', {}, u.token);
      expect(refused.rtnCode).toBe('101');
      await expect(createSessionsService(t.deps).createSession(u.id, 'API')).rejects.toMatchObject({ code: 'auth.accountDisabled' });
      await users.setDisabled(u.id, false);
      const { ticket } = await createSessionsService(t.deps).createSession(u.id, 'API');
      const list = await t.call('/cloud/v5/union/list', {}, ticket);
      expect(list.bizData.list.map((i: { name: string }) => i.name)).toEqual(['kept.dwg']);
    });

    it('storage gc finds objects no blob row names and rows no file refers to, and removes only those (not young ones)', async () => {
      const u = await t.createUser();
      const kept = randomBytes(3000);
      await t.upload(u.token, 'kept.bin', kept);
      const strayBytes = randomBytes(1234);
      const stray = blobKey(md5(strayBytes));
      await t.deps.storage.put(stray, strayBytes);
      const young = randomBytes(10);
      await t.deps.storage.put(blobKey(md5(young)), young);
      const orphanRow = randomBytes(77);
      const orphanMd5 = md5(orphanRow);
      await t.deps.storage.put(blobKey(orphanMd5), orphanRow);
      await t.db.db.insertInto('blobs').values({ md5: orphanMd5, size: 77, storage_key: blobKey(orphanMd5), ref_count: 0, created_at: Date.now() - 2 * 3600_000 }).execute();
      // old enough to be garbage: written two hours ago
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      utimesSync(path.join(t.dataDir, 'storage', stray), twoHoursAgo, twoHoursAgo);

      const dry = await collectGarbage(t.db.db, t.deps.storage, { dryRun: true });
      expect(dry.items.map((i) => i.key).sort()).toEqual([stray, blobKey(orphanMd5)].sort());
      expect(dry.bytes).toBe(1234 + 77);
      expect(await t.deps.storage.exists(stray)).toBe(true);

      const done = await collectGarbage(t.db.db, t.deps.storage, { dryRun: false });
      expect(done.objects).toBe(2);
      expect(await t.deps.storage.exists(stray)).toBe(false);
      expect(await t.deps.storage.exists(blobKey(orphanMd5))).toBe(false);
      expect(await t.deps.storage.exists(blobKey(md5(young)))).toBe(true);
      expect(await t.deps.storage.exists(blobKey(md5(kept)))).toBe(true);
      expect((await collectGarbage(t.db.db, t.deps.storage, { dryRun: true })).objects).toBe(0);
    });

    it('stats count accounts, files, folders, bytes and jobs', async () => {
      const before = await instanceStats(t.db.db, t.deps.queue);
      const u = await t.createUser();
      await t.upload(u.token, 'one.dwg', randomBytes(500));
      expect((await t.call('/cloud/v5/folder/edit', { name: 'A', parentId: '0' }, u.token)).rtnCode).toBe('0000000');
      const after = await instanceStats(t.db.db, t.deps.queue);
      expect(after.users.total).toBe(before.users.total + 1);
      expect(after.files).toBe(before.files + 1);
      expect(after.folders).toBe(before.folders + 1);
      expect(after.bytes.charged).toBe(before.bytes.charged + 500);
      expect(Object.keys(after.jobs).sort()).toEqual(['active', 'completed', 'failed', 'waiting']);
    });
  });
}

const root = path.resolve(import.meta.dirname, '../../../..');
const cli = (dataDir: string, ...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/admin/admin.cli.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' }, encoding: 'utf8' });
const json = (r: ReturnType<typeof cli>) => {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('operator commands (the CLI as a process)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-ops-'));

  it('user disable/enable, reset-password, storage gc --dry-run, jobs list/retry/cancel and stats', async () => {
    json(cli(dataDir, 'user', 'create', '--email', 'op@example.com', '--password', 'longenough1'));
    expect(json(cli(dataDir, 'user', 'disable', '--email', 'op@example.com')).disabled).toBe(true);
    expect(json(cli(dataDir, 'user', 'enable', '--email', 'op@example.com')).disabled).toBe(false);
    const reset = json(cli(dataDir, 'user', 'reset-password', '--email', 'op@example.com'));
    expect(reset.password).toMatch(/^[\w-]{16}$/);
    expect(reset.sessions).toBe('ended');
    expect(json(cli(dataDir, 'storage', 'gc', '--dry-run'))).toMatchObject({ dryRun: true, objects: 0 });

    // jobs as the server leaves them: one failed, one waiting
    const { createDatabase } = await import('../infra/db/db.ts');
    const { createDbQueue } = await import('../infra/queue/db.queue.ts');
    const db = createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`);
    try {
      const q = createDbQueue(db, { pollMs: 10 });
      q.register('t.broken', async () => {
        throw new Error('broken');
      });
      await q.start();
      const failed = await q.enqueue('t.broken', {}, { attempts: 1 });
      for (let i = 0; i < 200 && (await q.status(failed)).state !== 'failed'; i++) await new Promise((r) => setTimeout(r, 20));
      await q.stop();
      const waiting = await q.enqueue('t.later', {}, { delayMs: 3600_000 });
      const listed = json(cli(dataDir, 'jobs', 'list', '--state', 'failed'));
      expect(listed.map((j: { id: string }) => j.id)).toEqual([failed]);
      expect(json(cli(dataDir, 'jobs', 'retry', failed))).toEqual({ id: failed, state: 'waiting' });
      expect(json(cli(dataDir, 'jobs', 'cancel', waiting))).toEqual({ id: waiting, state: 'cancelled' });
      const again = cli(dataDir, 'jobs', 'cancel', waiting);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('not cancelled');
      const stats = json(cli(dataDir, 'stats'));
      expect(stats).toMatchObject({ users: { total: 1, disabled: 0 }, files: 0, jobs: { waiting: 1, failed: 0 } });
      expect(cli(dataDir, 'jobs', 'list', '--state', 'sleeping').stderr).toContain('--state must be one of');
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
