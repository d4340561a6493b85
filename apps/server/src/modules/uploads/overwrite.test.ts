import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { VERSION_REMARK_TYPES } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { directStagingKey } from './uploads.service.ts';

/**
 * Issue 4: an upload over an existing file (conflict 'version') makes a version of it, on every upload path:
 * multipart, instant (MD5), chunked and direct. The default ('rename') keeps both, as before.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`upload over an existing file on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, { WEB_UPLOAD_FILE_SIZE: '1MB' });
    });
    afterAll(async () => t?.close());

    const history = async (token: string, fileId: string) => (await t.call('/cloud/v5/version/history', { fileId }, token)).bizData;
    const listNames = async (token: string, parentId = '0') => (await t.call('/cloud/v5/union/list', { parentId }, token)).bizData.list.map((i: any) => i.name).sort();
    const refCount = async (hash: string) => Number((await t.db.db.selectFrom('blobs').select('ref_count').where('md5', '=', hash).executeTakeFirst())?.ref_count ?? 0);
    const item = (id: string) => t.db.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /** V1 'create drawing' = first bytes, V2 'overwrite upload' = second bytes, the file shows V2. */
    async function expectTwoVersions(token: string, fileId: string, first: Buffer, second: Buffer, sourceName: string) {
      const h = await history(token, fileId);
      expect(h.total).toBe(2);
      expect(h.list.map((v: any) => [v.version, v.remarkType, v.description, v.fileMD5, v.isLatest])).toEqual([
        [2, VERSION_REMARK_TYPES.overwrite, 'overwrite upload', md5(second), 1],
        [1, VERSION_REMARK_TYPES.create, 'create drawing', md5(first), 0],
      ]);
      expect(h.list[0].sourceName).toBe(sourceName);
      const row = await item(fileId);
      expect(row.blob_md5).toBe(md5(second));
      expect(Number(row.size)).toBe(second.length);
      expect(Number(row.version)).toBe(2);
      // the file shows the new bytes
      const dl = await t.call('/cloud/v5/file/download', { fileId }, token);
      expect((await t.fetchSigned(dl.bizData.signedUrl)).body.equals(second)).toBe(true);
    }

    it('multipart: conflict "version" makes V2 of the same item; history keeps V1; storage counts both contents once', async () => {
      const u = await t.createUser();
      const A = randomBytes(3000);
      const B = randomBytes(5000);
      const first = (await t.upload(u.token, 'plan.dwg', A)).bizData;
      const second = await t.upload(u.token, 'plan.dwg', B, { conflict: 'version' });
      expect(second.rtnCode).toBe('0000000');
      expect(second.bizData).toMatchObject({ id: first.id, name: 'plan.dwg', version: 2, size: B.length, fileMD5: md5(B) });
      expect(await listNames(u.token)).toEqual(['plan.dwg']);
      await expectTwoVersions(u.token, first.id, A, B, 'plan.dwg');
      // versions rule: current content plus each other distinct content once
      expect((await t.usage(u.id)).used).toBe(A.length + B.length);
      // A is held by V1 only; B by V2 and the file
      expect(await refCount(md5(A))).toBe(1);
      expect(await refCount(md5(B))).toBe(2);
      // a third upload continues the numbering
      const C = randomBytes(100);
      expect((await t.upload(u.token, 'plan.dwg', C, { conflict: 'version' })).bizData).toMatchObject({ id: first.id, version: 3 });
      expect((await t.usage(u.id)).used).toBe(A.length + B.length + C.length);
    });

    it('the same bytes as the current version are refused ("same file"), nothing changes', async () => {
      const u = await t.createUser();
      const A = randomBytes(2000);
      const first = (await t.upload(u.token, 'same.dwg', A)).bizData;
      const again = await t.upload(u.token, 'same.dwg', A, { conflict: 'version' });
      expect(again.bizData.code).toBe('upload.repeated');
      expect(again.msg).toBe((await t.upload(u.token, 'same.dwg', A)).msg);
      expect(Number((await item(first.id)).version)).toBe(1);
      expect((await history(u.token, first.id)).total).toBe(1);
      expect((await t.usage(u.id)).used).toBe(A.length);
      const instant = await t.call('/cloud/v5/file/detectUpload', { name: 'same.dwg', md5: md5(A), size: A.length, conflict: 'version' }, u.token);
      expect(instant.bizData.code).toBe('upload.repeated');
      const chunked = await t.call('/cloud/v5/upload/init', { name: 'same.dwg', md5: md5(A), size: A.length, conflict: 'version' }, u.token);
      expect(chunked.bizData.code).toBe('upload.repeated');
    });

    it('two identical uploads as versions at the same moment: one V2, the other "same file"', async () => {
      const u = await t.createUser();
      const A = randomBytes(1200);
      const B = randomBytes(1300);
      const first = (await t.upload(u.token, 'race.dwg', A)).bizData;
      const both = await Promise.all([t.upload(u.token, 'race.dwg', B, { conflict: 'version' }), t.upload(u.token, 'race.dwg', B, { conflict: 'version' })]);
      expect(both.map((r) => r.bizData.code ?? `V${r.bizData.version}`).sort()).toEqual(['V2', 'upload.repeated']);
      expect((await history(u.token, first.id)).total).toBe(2);
      expect((await t.usage(u.id)).used).toBe(A.length + B.length);
      expect(await refCount(md5(B))).toBe(2);
    });

    it('default and "rename" still keep both ("name (1).ext"); a wrong conflict value is refused', async () => {
      const u = await t.createUser();
      const first = (await t.upload(u.token, 'keep.dwg', randomBytes(10))).bizData;
      expect((await t.upload(u.token, 'keep.dwg', randomBytes(10))).bizData.name).toBe('keep (1).dwg');
      expect((await t.upload(u.token, 'keep.dwg', randomBytes(10), { conflict: 'rename' })).bizData.name).toBe('keep (2).dwg');
      expect(Number((await item(first.id)).version)).toBe(1);
      expect((await t.upload(u.token, 'keep.dwg', randomBytes(10), { conflict: 'replace' })).bizData.code).toBe('request.invalid');
      expect((await t.call('/cloud/v5/file/detectUpload', { name: 'keep.dwg', md5: md5(randomBytes(3)), size: 3, conflict: 'replace' }, u.token)).rtnCode).not.toBe('0000000');
      // "version" without a file of that name is a plain new file
      const fresh = await t.upload(u.token, 'new.dwg', randomBytes(10), { conflict: 'version' });
      expect(fresh.bizData).toMatchObject({ name: 'new.dwg', version: 1 });
      expect(await listNames(u.token)).toEqual(['keep (1).dwg', 'keep (2).dwg', 'keep.dwg', 'new.dwg']);
    });

    it('instant upload (MD5): known bytes become the next version of the file of that name', async () => {
      const u = await t.createUser();
      const A = randomBytes(1500);
      const B = randomBytes(2500);
      const plan = (await t.upload(u.token, 'plan.dwg', A)).bizData;
      await t.upload(u.token, 'other.dwg', B);
      const r = await t.call('/cloud/v5/file/detectUpload', { name: 'plan.dwg', md5: md5(B), size: B.length, conflict: 'version' }, u.token);
      expect(r.bizData).toMatchObject({ exists: true, needUpload: false });
      expect(r.bizData.item).toMatchObject({ id: plan.id, version: 2, fileMD5: md5(B) });
      expect(await listNames(u.token)).toEqual(['other.dwg', 'plan.dwg']);
      await expectTwoVersions(u.token, plan.id, A, B, 'plan.dwg');
      // plan: A + B, other: B
      expect((await t.usage(u.id)).used).toBe(A.length + 2 * B.length);
      // the batch form takes the field too
      const C = randomBytes(700);
      await t.upload(u.token, 'c.dwg', C);
      const batch = await t.call('/cloud/v5/file/detectUploadBatch', { files: [{ name: 'plan.dwg', md5: md5(C), size: C.length, conflict: 'version' }] }, u.token);
      expect(batch.bizData.list[0].item).toMatchObject({ id: plan.id, version: 3 });
    });

    it('chunked upload: init with conflict "version", chunks, complete → V2 of the same item (also when resumed)', async () => {
      const u = await t.createUser();
      const A = randomBytes(1000);
      const B = randomBytes(600_000);
      const first = (await t.upload(u.token, 'big.dwg', A)).bizData;
      const init = await t.call('/cloud/v5/upload/init', { name: 'big.dwg', size: B.length, md5: md5(B), conflict: 'version' }, u.token);
      expect(init.bizData.uploadId).toBeTruthy();
      const put = (offset: number, bytes: Buffer) =>
        t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${u.token}&uploadId=${init.bizData.uploadId}&offset=${offset}`, headers: { 'content-type': 'application/octet-stream' }, payload: bytes });
      await put(0, B.subarray(0, 300_000));
      const resume = await t.call('/cloud/v5/upload/init', { name: 'big.dwg', size: B.length, md5: md5(B), conflict: 'version' }, u.token);
      expect(resume.bizData).toMatchObject({ uploadId: init.bizData.uploadId, received: 300_000 });
      await put(300_000, B.subarray(300_000));
      const done = await t.call('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId }, u.token);
      expect(done.bizData).toMatchObject({ complete: true });
      expect(done.bizData.item).toMatchObject({ id: first.id, name: 'big.dwg', version: 2, size: B.length });
      expect(await listNames(u.token)).toEqual(['big.dwg']);
      await expectTwoVersions(u.token, first.id, A, B, 'big.dwg');
      expect((await t.usage(u.id)).used).toBe(A.length + B.length);

      // the same flow without the field still renames
      const D = randomBytes(2000);
      const init2 = await t.call('/cloud/v5/upload/init', { name: 'big.dwg', size: D.length, md5: md5(D) }, u.token);
      await t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${u.token}&uploadId=${init2.bizData.uploadId}&offset=0`, headers: { 'content-type': 'application/octet-stream' }, payload: D });
      const done2 = await t.call('/cloud/v5/upload/complete', { uploadId: init2.bizData.uploadId }, u.token);
      expect(done2.bizData.item).toMatchObject({ name: 'big (1).dwg', version: 1 });
    });

    it('direct upload: a session started with conflict "version" completes as V2 of the same item', async () => {
      const u = await t.createUser();
      const A = randomBytes(800);
      const B = randomBytes(900);
      const first = (await t.upload(u.token, 'direct.dwg', A)).bizData;
      // what direct/init records (the local disk cannot sign a PUT) and what the browser's PUT leaves under the key
      const uploadId = `direct-${randomBytes(6).toString('hex')}`;
      await t.db.db.insertInto('upload_sessions').values({ id: uploadId, uid: u.id, parent_id: '0', name: 'direct.dwg', size: B.length, md5: md5(B), received: 0, conflict: 'version', created_at: Date.now(), updated_at: Date.now() }).execute();
      await t.deps.storage.put(directStagingKey(uploadId), B);
      const done = await t.call('/cloud/v5/upload/direct/complete', { uploadId }, u.token);
      expect(done.rtnCode).toBe('0000000');
      expect(done.bizData.item).toMatchObject({ id: first.id, version: 2 });
      await expectTwoVersions(u.token, first.id, A, B, 'direct.dwg');
      expect((await t.usage(u.id)).used).toBe(A.length + B.length);
    });

    it("never touches another user's file of the same name", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const A = randomBytes(400);
      const B = randomBytes(500);
      const theirs = (await t.upload(b.token, 'shared name.dwg', A)).bizData;
      const bFolder = (await t.call('/cloud/v5/folder/edit', { name: 'B only' }, b.token)).bizData;
      await t.upload(b.token, 'inner.dwg', A, { parentId: bFolder.id });
      // in a's own root there is no such file: a new file of a's
      const mine = await t.upload(a.token, 'shared name.dwg', B, { conflict: 'version' });
      expect(mine.bizData).toMatchObject({ name: 'shared name.dwg', version: 1, uid: a.id });
      expect(mine.bizData.id).not.toBe(theirs.id);
      // into b's folder: refused whatever the mode, by every path
      expect((await t.upload(a.token, 'inner.dwg', B, { parentId: bFolder.id, conflict: 'version' })).rtnCode).not.toBe('0000000');
      expect((await t.call('/cloud/v5/file/detectUpload', { parentId: bFolder.id, name: 'inner.dwg', md5: md5(B), size: B.length, conflict: 'version' }, a.token)).rtnCode).not.toBe('0000000');
      expect((await t.call('/cloud/v5/upload/init', { parentId: bFolder.id, name: 'inner.dwg', md5: md5(randomBytes(9)), size: 9, conflict: 'version' }, a.token)).rtnCode).not.toBe('0000000');
      const row = await item(theirs.id);
      expect(row.blob_md5).toBe(md5(A));
      expect(Number(row.version)).toBe(1);
      expect((await history(b.token, theirs.id)).total).toBe(1);
      expect(await listNames(b.token, bFolder.id)).toEqual(['inner.dwg']);
      expect((await t.usage(b.id)).used).toBe(2 * A.length);
    });

    it('a full quota refuses the new version with the not-enough-space error and leaves the file as it was', async () => {
      const u = await t.createUser({ quota: 10_000 });
      const A = randomBytes(6000);
      const first = (await t.upload(u.token, 'q.dwg', A)).bizData;
      const r = await t.upload(u.token, 'q.dwg', randomBytes(5000), { conflict: 'version' });
      expect(r.bizData.code).toBe('upload.noSpace');
      const row = await item(first.id);
      expect(row.blob_md5).toBe(md5(A));
      expect((await t.usage(u.id)).used).toBe(A.length);
    });
  });
}
