import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type Envelope, type TestApp } from '../../test/fixtures.ts';
import { makeZip } from '../unzip/test-archives.ts';
import { createUsersService } from '../users/users.service.ts';

/**
 * Spec section 4 on every mutating endpoint, as one table: a frozen account's upload, sync (new versions, copies in,
 * decompression, conversion results, fonts), move and rename are refused with account.frozen; download and delete
 * (to the bin, for good, emptying the bin) work; a frozen file cannot be viewed (file.frozen). The endpoints are those
 * of the route files (grep "path:" modules/*\/*.routes.ts); read-only lists and the caller's own settings are not here.
 */
type Rule = 'account.frozen' | 'file.frozen' | 'allowed' | { refused: string };

for (const driver of testDatabaseDrivers()) {
  describe(`frozen account rules on ${driver.name}`, () => {
    let t: TestApp;
    let u: { id: string; token: string };
    let ids: { folder: string; drawing: string; other: string; archive: string; model: string; version1: string; version2: string; trashed: string; binMe: string; killMe: string; otherMd5: string; otherSize: number };
    const dwg = (n = 2000) => Buffer.concat([Buffer.from('AC1015'), randomBytes(n)]);

    beforeAll(async () => {
      t = await createTestApp(driver);
      u = await t.createUser({ quota: 1024 * 1024 });
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'F' }, u.token)).bizData.id;
      const drawing = (await t.upload(u.token, 'd.dwg', dwg())).bizData.id;
      const otherBody = dwg();
      const other = (await t.upload(u.token, 'e.dwg', otherBody)).bizData.id;
      // version 2 of d.dwg (instant: e.dwg's bytes are stored already)
      expect((await t.call('/cloud/v5/version/upload', { fileId: drawing, md5: md5(otherBody), size: otherBody.length, name: 'd.dwg' }, u.token)).rtnCode).toBe('0000000');
      const history = (await t.call('/cloud/v5/version/history', { fileId: drawing }, u.token)).bizData;
      const version1 = history.list.find((v: { version: number }) => v.version === 1).versionId;
      const version2 = history.list.find((v: { version: number }) => v.version === 2).versionId;
      const archive = (await t.upload(u.token, 'a.zip', Buffer.from(await makeZip([{ name: 'x.dwg', data: new Uint8Array(randomBytes(10)) }])))).bizData.id;
      const model = (await t.upload(u.token, 'a.stl', Buffer.from('solid a\nendsolid a\n'))).bizData.id;
      const trashed = (await t.upload(u.token, 'gone.dwg', dwg())).bizData.id;
      await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [trashed] }, u.token);
      const binMe = (await t.upload(u.token, 'bin-me.dwg', dwg())).bizData.id;
      const killMe = (await t.upload(u.token, 'kill-me.dwg', dwg())).bizData.id;
      ids = { folder, drawing, other, archive, model, version1, version2, trashed, binMe, killMe, otherMd5: md5(otherBody), otherSize: otherBody.length };
      // over the space: frozen, and so are its private files
      await createUsersService(t.deps).setQuota(u.id, 100);
      expect(Number((await t.db.db.selectFrom('users').select('freeze').where('id', '=', u.id).executeTakeFirstOrThrow()).freeze)).toBe(1);
    });
    afterAll(async () => t?.close());

    const call = (path: string, data: unknown) => t.call(path, data, u.token);
    const multipart = async (url: string, name: string, body: Buffer, fields: Record<string, string> = {}): Promise<Envelope> => {
      const boundary = `----fz${Date.now()}`;
      const parts: Buffer[] = [];
      for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), body, Buffer.from(`\r\n--${boundary}--\r\n`));
      return (await t.app.inject({ method: 'POST', url: `${url}?utoken=${encodeURIComponent(u.token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) })).json();
    };
    const view = async (url: string): Promise<Envelope> => (await t.app.inject({ method: 'GET', url: `${url}&utoken=${encodeURIComponent(u.token)}` })).json();

    // the blocked ones first, then viewing, then the allowed ones (a delete changes the drive)
    const table: [string, () => Promise<Envelope>, Rule][] = [
      ['upload (multipart)', () => t.upload(u.token, 'new.dwg', dwg(10)), 'account.frozen'],
      ['upload/init (chunked)', () => call('/cloud/v5/upload/init', { name: 'big.dwg', size: 100, md5: 'a'.repeat(32) }), 'account.frozen'],
      ['upload/direct/init', () => call('/cloud/v5/upload/direct/init', { name: 'big.dwg', size: 100, md5: 'a'.repeat(32) }), 'account.frozen'],
      ['file/detectUpload (instant upload)', () => call('/cloud/v5/file/detectUpload', { name: 'copy.dwg', size: 10, md5: 'b'.repeat(32) }), 'account.frozen'],
      ['version/upload (new version, multipart)', () => multipart('/cloud/v5/version/upload', 'd.dwg', dwg(10), { fileId: ids.drawing }), 'account.frozen'],
      ['version/upload (new version, instant)', () => call('/cloud/v5/version/upload', { fileId: ids.drawing, md5: ids.otherMd5, size: ids.otherSize, name: 'd.dwg' }), 'account.frozen'],
      ['version/back (rollback: a new version)', () => call('/cloud/v5/version/back', { versionId: ids.version1, relationId: ids.drawing, relationType: 1 }), 'account.frozen'],
      ['version/copy (another file\'s bytes as a new version)', () => call('/cloud/v5/version/copy', { fileId: ids.drawing, sourceFileId: ids.other }), 'account.frozen'],
      ['union/move', () => call('/cloud/v5/union/move', { fileIds: [ids.drawing], folderIds: [], moveToId: ids.folder }), 'account.frozen'],
      ['file/edit (rename)', () => call('/cloud/v5/file/edit', { fileId: ids.drawing, name: 'renamed.dwg' }), 'account.frozen'],
      ['folder/edit (rename)', () => call('/cloud/v5/folder/edit', { folderId: ids.folder, name: 'G' }), 'account.frozen'],
      ['folder/edit (new folder)', () => call('/cloud/v5/folder/edit', { parentId: '0', name: 'H' }), 'account.frozen'],
      ['file/share/copyFoldersAndFiles (copy in)', () => call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: 'x', fileIds: ['x'], folderIds: [], targetFolderId: '0' }), 'account.frozen'],
      ['file/unzip', () => call('/cloud/v5/file/unzip', { fileId: ids.archive }), 'account.frozen'],
      ['file/task/transformBatch (conversion result)', () => call('/cloud/v5/file/task/transformBatch', { fileIds: [ids.other], target: 'pdf' }), 'account.frozen'],
      ['file/task/transformBatch3D (3D conversion result)', () => call('/cloud/v5/file/task/transformBatch3D', { fileIds: [ids.model], isTransForm: true }), 'account.frozen'],
      ['font/upload', () => multipart('/cloud/v5/font/upload', 'x.ttf', randomBytes(100)), 'account.frozen'],
      ['font/rename', () => call('/cloud/v5/font/rename', { id: 'f', name: 'y.ttf' }), 'account.frozen'],
      ['font/edit', () => call('/cloud/v5/font/edit', { id: 'f', name: 'y.ttf' }), 'account.frozen'],
      ['trash/restore (over the space)', () => call('/cloud/v5/trash/restore', { fileIds: [ids.trashed] }), { refused: 'trash.restoreNoSpace' }],
      ['share/create', () => call('/cloud/v5/share/create', { fileIds: [ids.drawing], folderIds: [] }), 'account.frozen'],
      ['drawing/scene (view)', () => view(`/cloud/v5/drawing/scene?fileId=${ids.drawing}`), 'file.frozen'],
      ['version/compare/changes (view two versions)', () => call('/cloud/v5/version/compare/changes', { fileId: ids.drawing, a: ids.version1, b: ids.version2 }), 'file.frozen'],
      ['file/download', () => call('/cloud/v5/file/download', { fileId: ids.drawing }), 'allowed'],
      ['file/downloadBatchZip', () => call('/cloud/v5/file/downloadBatchZip', { fileIds: [ids.drawing] }), 'allowed'],
      ['version/download', () => call('/cloud/v5/version/download', { versionId: ids.version1, relationId: ids.drawing }), 'allowed'],
      ['file/getFileInfo', () => call('/cloud/v5/file/getFileInfo', { fileId: ids.drawing }), 'allowed'],
      ['union/delete (to the bin)', () => call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [ids.binMe] }), 'allowed'],
      ['union/delete (for good)', () => call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [ids.killMe] }), 'allowed'],
      ['union/delete (empty the bin)', () => call('/cloud/v5/union/delete', { deleteLevel: 2 }), 'allowed'],
      ['group/share', () => call('/cloud/v5/group/share', { groupIds: ['g'], fileIds: [ids.drawing], folderIds: [] }), 'account.frozen'],
      // last: publishing is a way out of the freeze (spec section 4), so it is allowed
      ['file/setFilePrivateType (publish)', () => call('/cloud/v5/file/setFilePrivateType', { fileIds: [ids.other], privateType: '0', userName: 'x' }), 'allowed'],
    ];

    for (const [label, run, rule] of table) {
      it(`${label}: ${typeof rule === 'string' ? rule : rule.refused}`, async () => {
        const r = await run();
        if (rule === 'allowed') expect([r.rtnCode, r.bizData?.code], label).toEqual(['0000000', undefined]);
        else expect(r.bizData?.code, label).toBe(typeof rule === 'string' ? rule : rule.refused);
      });
    }
  });
}
