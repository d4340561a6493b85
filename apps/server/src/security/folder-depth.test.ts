/**
 * Issue 14, item 3: every walk of the tree is bounded by MAX_FOLDER_DEPTH, so no legitimate tree may be deeper:
 * creating, folder-uploading, moving and saving a folder below the deepest level is refused ('folder.tooDeep'),
 * and a restore that would land too deep comes back at the top level instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MAX_FOLDER_DEPTH } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';

for (const driver of testDatabaseDrivers()) {
  describe(`folder depth on ${driver.name}`, () => {
    let t: TestApp;
    let u: Awaited<ReturnType<TestApp['createUser']>>;
    const chain: string[] = [];
    beforeAll(async () => {
      t = await createTestApp(driver);
      u = await t.createUser();
      // the deepest chain allowed: L1 … L64
      let parentId = '0';
      for (let level = 1; level <= MAX_FOLDER_DEPTH; level++) {
        const r = await t.call('/cloud/v5/folder/edit', { parentId, name: `L${level}` }, u.token);
        expect(r.rtnCode, `level ${level}: ${r.msg}`).toBe('0000000');
        parentId = r.bizData.id;
        chain.push(parentId);
      }
    }, 120_000);
    afterAll(async () => t?.close());

    const deepest = () => chain[chain.length - 1];
    const expectTooDeep = (r: { bizData: { code?: string }; msg: string }) => {
      expect(r.bizData.code).toBe('folder.tooDeep');
      expect(r.msg).toContain(String(MAX_FOLDER_DEPTH));
    };

    it('refuses a folder below the deepest level, by create and by folder upload; files may go there', async () => {
      expectTooDeep(await t.call('/cloud/v5/folder/edit', { parentId: deepest(), name: 'one more' }, u.token));
      expectTooDeep(await t.upload(u.token, 'a.dwg', randomBytes(16), { parentId: chain[MAX_FOLDER_DEPTH - 3], relativePath: 'x/y/z/a.dwg' }));
      expect((await t.upload(u.token, 'deep.dwg', randomBytes(16), { parentId: deepest() })).rtnCode).toBe('0000000');
      expect((await t.upload(u.token, 'b.dwg', randomBytes(16), { parentId: chain[MAX_FOLDER_DEPTH - 3], relativePath: 'x/y/b.dwg' })).rtnCode).toBe('0000000');
      const path = await t.call('/cloud/v5/folder/getParentFolderPath', { folderId: deepest() }, u.token);
      expect(path.bizData.list).toHaveLength(MAX_FOLDER_DEPTH);
    });

    it('refuses a move that would make the tree too deep, and a save from a share', async () => {
      const two = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Two' }, u.token)).bizData.id;
      await t.call('/cloud/v5/folder/edit', { parentId: two, name: 'Inner' }, u.token);
      expectTooDeep(await t.call('/cloud/v5/union/move', { folderIds: [two], moveToId: chain[MAX_FOLDER_DEPTH - 2] }, u.token));
      expect((await t.call('/cloud/v5/union/move', { folderIds: [two], moveToId: chain[MAX_FOLDER_DEPTH - 3] }, u.token)).rtnCode).toBe('0000000');

      const other = await t.createUser();
      const shared = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Shared' }, other.token)).bizData.id;
      await t.call('/cloud/v5/folder/edit', { parentId: shared, name: 'Sub' }, other.token);
      const share = (await t.call('/cloud/v5/share/create', { folderIds: [shared], validDays: 1, canSave: true }, other.token)).bizData;
      const token = (await t.call('/cloud/v5/share/extract', { rand: share.rand, code: share.code, password: share.password ?? '' })).bizData.shareToken;
      expectTooDeep(await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: token, folderIds: [shared], targetFolderId: chain[MAX_FOLDER_DEPTH - 2] }, u.token));
      expect((await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: token, folderIds: [shared], targetFolderId: chain[MAX_FOLDER_DEPTH - 3] }, u.token)).rtnCode).toBe('0000000');
    });

    it('restores a binned folder at the top level when its old place is now too deep for it', async () => {
      const parent = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Parent' }, u.token)).bizData.id;
      const box = (await t.call('/cloud/v5/folder/edit', { parentId: parent, name: 'Box' }, u.token)).bizData.id;
      await t.call('/cloud/v5/folder/edit', { parentId: box, name: 'In box' }, u.token);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 0, folderIds: [box] }, u.token);
      // without the box, Parent fits at the deepest level; the box's two levels would not fit below it any more
      expect((await t.call('/cloud/v5/union/move', { folderIds: [parent], moveToId: chain[MAX_FOLDER_DEPTH - 2] }, u.token)).rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/trash/restore', { folderIds: [box] }, u.token)).rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: box }, u.token)).bizData.parentId).toBe('0');
      expect((await t.call('/cloud/v5/folder/getParentFolderPath', { folderId: box }, u.token)).bizData.list.map((f: { name: string }) => f.name)).toEqual(['Box']);
    });
  });
}
