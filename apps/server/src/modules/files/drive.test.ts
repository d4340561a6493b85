import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { sweepTrash } from '../trash/trash.jobs.ts';

for (const driver of testDatabaseDrivers()) {
  describe(`the drive on ${driver.name}`, () => {
    let t: TestApp;
    let a: Awaited<ReturnType<TestApp['createUser']>>;
    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
    });
    afterAll(async () => t?.close());

    it('creates folders, uploads, lists folders first, and searches', async () => {
      const folder = await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Plans' }, a.token);
      expect(folder.rtnCode).toBe('0000000');
      const up = await t.upload(a.token, 'house.dwg', Buffer.from('AC1018 fake drawing'), { parentId: folder.bizData.id });
      expect(up.rtnCode).toBe('0000000');
      expect(up.bizData).toMatchObject({ name: 'house.dwg', type: 'dwg', fileType: 1, parentId: folder.bizData.id, privateType: '1' });
      await t.upload(a.token, 'photo.png', Buffer.from('png bytes'));
      const root = await t.call('/cloud/v5/union/list', { parentId: '0', page: 1, pageSize: 100 }, a.token);
      expect(root.bizData.list.map((i: any) => i.name)).toEqual(['Plans', 'photo.png']);
      expect(root.bizData.list[0]).toMatchObject({ type: 'folder', count: 1 });
      const found = await t.call('/cloud/v5/union/list', { q: 'house', isGlobal: true }, a.token);
      expect(found.bizData.list.map((i: any) => i.name)).toEqual(['house.dwg']);
      const drawings = await t.call('/cloud/v5/file/listTypeFiles', { includeTypes: ['drawing'] }, a.token);
      expect(drawings.bizData.list.map((i: any) => i.name)).toEqual(['house.dwg']);
      const others = await t.call('/cloud/v5/file/listTypeFiles', { excludeTypes: ['drawing', 'image'] }, a.token);
      expect(others.bizData.total).toBe(0);
      const path = await t.call('/cloud/v5/folder/getParentFolderPath', { folderId: folder.bizData.id }, a.token);
      expect(path.bizData.list.map((f: any) => f.name)).toEqual(['Plans']);
    });

    it('refuses a same-name folder and each forbidden character, with the spec message', async () => {
      await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Dup' }, a.token);
      const dup = await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Dup' }, a.token);
      expect(dup.bizData.code).toBe('name.duplicateFolder');
      for (const ch of ['\\', '/', ':', '*', '?', '"', '<', '>', '|', '&']) {
        const r = await t.call('/cloud/v5/folder/edit', { parentId: '0', name: `bad${ch}name` }, a.token);
        expect(r.bizData.code, ch).toBe('name.invalid');
        expect(r.msg).toMatch(/special characters/);
      }
      expect((await t.call('/cloud/v5/folder/edit', { parentId: '0', name: '../up' }, a.token)).bizData.code).toBe('name.invalid');
    });

    it('renames with duplicate handling', async () => {
      const f1 = (await t.upload(a.token, 'r1.dxf', randomBytes(10))).bizData;
      await t.upload(a.token, 'r2.dxf', randomBytes(10));
      expect((await t.call('/cloud/v5/file/edit', { fileId: f1.id, name: 'r2.dxf' }, a.token)).bizData.code).toBe('name.duplicateFile');
      expect((await t.call('/cloud/v5/file/edit', { fileId: f1.id, name: 'r2.dxf', autorename: true }, a.token)).bizData.name).toBe('r2 (1).dxf');
      expect((await t.call('/cloud/v5/file/edit', { fileId: f1.id, name: 'a|b.dxf' }, a.token)).bizData.code).toBe('name.invalid');
    });

    it('moves, refusing the current folder and a folder into itself', async () => {
      const box = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Box' }, a.token)).bizData;
      const inner = (await t.call('/cloud/v5/folder/edit', { parentId: box.id, name: 'Inner' }, a.token)).bizData;
      const f = (await t.upload(a.token, 'm.dwg', randomBytes(20))).bizData;
      expect((await t.call('/cloud/v5/union/move', { fileIds: [f.id], moveToId: '0' }, a.token)).bizData.code).toBe('move.sameFolder');
      expect((await t.call('/cloud/v5/union/move', { folderIds: [box.id], moveToId: inner.id }, a.token)).bizData.code).toBe('move.intoItself');
      const ok = await t.call('/cloud/v5/union/move', { fileIds: [f.id], moveToId: inner.id }, a.token);
      expect(ok.rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, a.token)).bizData.parentId).toBe(inner.id);
    });

    it('bins, restores and empties, keeping used storage exact', async () => {
      const u = await t.createUser();
      const body = randomBytes(1000);
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'T' }, u.token)).bizData;
      const f = (await t.upload(u.token, 'a.dwg', body, { parentId: folder.id })).bizData;
      await t.upload(u.token, 'b.dwg', randomBytes(500));
      expect((await t.usage(u.id)).used).toBe(1500);
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 0, folderIds: [folder.id] }, u.token)).rtnCode).toBe('0000000');
      expect((await t.usage(u.id)).used).toBe(500);
      const binned = await t.call('/cloud/v5/trash/folder/list', {}, u.token);
      expect(binned.bizData.list.map((i: any) => i.name)).toEqual(['T']);
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, u.token)).bizData.code).toBe('item.notFound');
      expect((await t.call('/cloud/v5/trash/restore', { folderIds: [folder.id] }, u.token)).rtnCode).toBe('0000000');
      expect((await t.usage(u.id)).used).toBe(1500);
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, u.token)).bizData.parentId).toBe(folder.id);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [f.id] }, u.token);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 2 }, u.token);
      expect((await t.call('/cloud/v5/trash/file/list', {}, u.token)).bizData.list).toEqual([]);
      expect((await t.usage(u.id)).used).toBe(500);
      // the blob is gone with its last reference
      expect(await t.deps.storage.exists(`blobs/${md5(body).slice(0, 2)}/${md5(body)}`)).toBe(false);
    });

    it('refuses a restore that would exceed the storage', async () => {
      const u = await t.createUser({ quota: 1000 });
      const f = (await t.upload(u.token, 'big.dwg', randomBytes(800))).bizData;
      await t.call('/cloud/v5/union/delete', { fileIds: [f.id] }, u.token);
      await t.upload(u.token, 'other.dwg', randomBytes(800));
      const r = await t.call('/cloud/v5/trash/restore', { fileIds: [f.id] }, u.token);
      expect(r.bizData.code).toBe('trash.restoreNoSpace');
      expect((await t.usage(u.id)).used).toBe(800);
    });

    it('sweeps only what has been in the bin for more than 10 days', async () => {
      const u = await t.createUser();
      const old = (await t.upload(u.token, 'old.dwg', randomBytes(10))).bizData;
      const recent = (await t.upload(u.token, 'recent.dwg', randomBytes(10))).bizData;
      await t.call('/cloud/v5/union/delete', { fileIds: [old.id, recent.id] }, u.token);
      await t.db.db.updateTable('items').set({ deleted_at: Date.now() - 11 * 24 * 3600_000 }).where('id', '=', old.id).execute();
      await sweepTrash(t.deps);
      const left = await t.call('/cloud/v5/trash/file/list', {}, u.token);
      expect(left.bizData.list.map((i: any) => i.name)).toEqual(['recent.dwg']);
    });

    it('blocks upload, move and rename of a frozen account but allows download and delete', async () => {
      const u = await t.createUser();
      const f = (await t.upload(u.token, 'keep.dwg', Buffer.from('frozen bytes'))).bizData;
      await t.db.db.updateTable('users').set({ freeze: 1 }).where('id', '=', u.id).execute();
      expect((await t.upload(u.token, 'new.dwg', Buffer.from('x'))).bizData.code).toBe('account.frozen');
      expect((await t.call('/cloud/v5/file/edit', { fileId: f.id, name: 'z.dwg' }, u.token)).bizData.code).toBe('account.frozen');
      const folder = await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'F' }, u.token);
      expect(folder.bizData.code).toBe('account.frozen');
      const dl = await t.call('/cloud/v5/file/download', { fileId: f.id }, u.token);
      expect((await t.fetchSigned(dl.bizData.signedUrl)).body.toString()).toBe('frozen bytes');
      expect((await t.call('/cloud/v5/union/delete', { fileIds: [f.id] }, u.token)).rtnCode).toBe('0000000');
    });

    it('answers malformed JSON and missing fields with the spec codes', async () => {
      const bad = await t.app.inject({ method: 'POST', url: `/cloud/v5/union/move?utoken=${a.token}`, headers: { 'content-type': 'application/json' }, payload: '{"data": {' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().bizData.code).toBe('request.malformed');
      const missing = await t.call('/cloud/v5/union/move', { fileIds: ['x'] }, a.token);
      expect(missing.bizData.code).toBe('request.invalid');
      expect(missing.msg).toBe('Invalid Parameter');
      const anon = await t.call('/cloud/v5/union/list', {});
      expect(anon.rtnCode).toBe('101');
    });

    it('serves the config values and an OpenAPI document', async () => {
      const conf = await t.call('/global/v5/common/getConfParamsByType', { type: 2 });
      expect(conf.bizData).toMatchObject({ webUploadFileSize: 200 * 1024 * 1024, webOpenFileSize: 100 * 1024 * 1024 });
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/cloud/v5/union/list', '/cloud/v5/file/upload', '/user/v5/sysuser/clientToken', '/cloud/v5/zip/task/cancel']));
      expect(doc.paths['/cloud/v5/union/move'].post.requestBody.content['application/json'].schema.properties.data.required).toContain('moveToId');
    });
  });
}
