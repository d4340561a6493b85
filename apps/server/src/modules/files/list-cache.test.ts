import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createListCache } from './list-cache.ts';
import { sweepTrash } from '../trash/trash.jobs.ts';

describe('list cache', () => {
  it('keys by user revision and evicts by size', async () => {
    const cache = createListCache(4000);
    let loads = 0;
    const load = async () => ({ n: ++loads, pad: 'x'.repeat(500) });
    await cache.answer({ id: 'u', drive_rev: 1 }, 'l', {}, load);
    expect(JSON.parse((await cache.answer({ id: 'u', drive_rev: 1 }, 'l', {}, load)).json).bizData.n).toBe(1);
    expect(JSON.parse((await cache.answer({ id: 'u', drive_rev: 2 }, 'l', {}, load)).json).bizData.n).toBe(2);
    expect(JSON.parse((await cache.answer({ id: 'v', drive_rev: 2 }, 'l', {}, load)).json).bizData.n).toBe(3);
    for (let i = 0; i < 20; i++) await cache.answer({ id: 'u', drive_rev: 10 + i }, 'l', {}, load);
    expect(cache.size).toBeLessThanOrEqual(7);
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`lists are never stale (${driver.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());

    it('sees every kind of change at once', async () => {
      const u = await t.createUser();
      const names = async (data: object = {}) => (await t.call('/cloud/v5/union/list', data, u.token)).bizData.list.map((i: { name: string }) => i.name);
      const recent = async () => (await t.call('/cloud/v5/file/listTypeFiles', {}, u.token)).bizData.list.map((i: { name: string }) => i.name);
      expect(await names()).toEqual([]);
      const f = (await t.upload(u.token, 'a.dwg', randomBytes(10))).bizData;
      expect(await names()).toEqual(['a.dwg']);
      expect(await recent()).toEqual(['a.dwg']);
      const dir = (await t.call('/cloud/v5/folder/edit', { name: 'D' }, u.token)).bizData;
      expect(await names()).toEqual(['D', 'a.dwg']);
      await t.call('/cloud/v5/file/edit', { fileId: f.id, name: 'b.dwg' }, u.token);
      expect(await names()).toEqual(['D', 'b.dwg']);
      await t.call('/cloud/v5/union/move', { fileIds: [f.id], moveToId: dir.id }, u.token);
      expect(await names()).toEqual(['D']);
      expect(await names({ parentId: dir.id })).toEqual(['b.dwg']);
      await t.call('/cloud/v5/union/delete', { folderIds: [dir.id] }, u.token);
      expect(await names()).toEqual([]);
      expect(await recent()).toEqual([]);
      await t.call('/cloud/v5/trash/restore', { folderIds: [dir.id] }, u.token);
      expect(await names({ parentId: dir.id })).toEqual(['b.dwg']);
      await t.call('/cloud/v5/union/delete', { fileIds: [f.id], deleteLevel: 1 }, u.token);
      expect(await names({ parentId: dir.id })).toEqual([]);
      await t.call('/cloud/v5/union/delete', { folderIds: [dir.id] }, u.token);
      await t.db.db.updateTable('items').set({ deleted_at: 1 }).where('id', '=', dir.id).execute();
      await sweepTrash(t.deps);
      expect((await t.call('/cloud/v5/trash/folder/list', {}, u.token)).bizData.list).toEqual([]);
    });
  });
}
