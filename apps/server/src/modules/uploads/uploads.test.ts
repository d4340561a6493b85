import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { possessionFor } from '../../test/possession-proof.ts';


for (const driver of testDatabaseDrivers()) {
  describe(`uploads and downloads on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, { WEB_UPLOAD_FILE_SIZE: '1MB' });
    });
    afterAll(async () => t?.close());

    it('uploads by multipart and downloads the same bytes by signed URL', async () => {
      const u = await t.createUser();
      const body = randomBytes(300_000);
      const up = await t.upload(u.token, '图纸 A.dwg', body);
      expect(up.bizData).toMatchObject({ name: '图纸 A.dwg', size: body.length, fileMD5: md5(body) });
      const dl = await t.call('/cloud/v5/file/download', { fileId: up.bizData.id }, u.token);
      const got = await t.fetchSigned(dl.bizData.signedUrl);
      expect(got.status).toBe(200);
      expect(got.body.equals(body)).toBe(true);
      expect(decodeURIComponent(String(got.headers['content-disposition']))).toContain('图纸 A.dwg');
    });

    it('instant upload: known bytes appear without being sent (after a proof of possession), stored once, counted for each owner', async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const body = randomBytes(4096);
      await t.upload(a.token, 'shared.dxf', body);
      const ask = { md5: md5(body), size: body.length, name: 'mine.dxf', parentId: '0' };
      // stored for someone else: a challenge first (the same answer as for bytes nobody has), then the proof
      const challenge = await t.call('/cloud/v5/file/detectUpload', ask, b.token);
      expect(challenge.bizData).toMatchObject({ exists: false, needUpload: true, item: null });
      const r = await t.call('/cloud/v5/file/detectUpload', { ...ask, possession: possessionFor(body, challenge.bizData.possession) }, b.token);
      expect(r.bizData).toMatchObject({ exists: true, needUpload: false });
      expect(r.bizData.item.name).toBe('mine.dxf');
      expect((await t.usage(b.id)).used).toBe(4096);
      const blobs = await t.db.db.selectFrom('blobs').selectAll().where('md5', '=', md5(body)).execute();
      expect(blobs).toHaveLength(1);
      expect(blobs[0].ref_count).toBe(2);
      const unknown = await t.call('/cloud/v5/file/detectUpload', { md5: md5(randomBytes(8)), size: 8, name: 'x.dxf' }, b.token);
      expect(unknown.bizData).toMatchObject({ exists: false, needUpload: true });
    });

    it('refuses the same file twice and renames a different file of the same name', async () => {
      const u = await t.createUser();
      const body = randomBytes(100);
      await t.upload(u.token, 'same.dwg', body);
      expect((await t.upload(u.token, 'same.dwg', body)).bizData.code).toBe('upload.repeated');
      expect((await t.upload(u.token, 'same.dwg', randomBytes(100))).bizData.name).toBe('same (1).dwg');
    });

    it('creates the folders of a folder upload from relativePath', async () => {
      const u = await t.createUser();
      await t.upload(u.token, 'a.dwg', randomBytes(10), { parentId: '0', relativePath: 'Project/Sub/a.dwg' });
      await t.upload(u.token, 'b.dwg', randomBytes(10), { parentId: '0', relativePath: 'Project/b.dwg' });
      const root = await t.call('/cloud/v5/union/list', {}, u.token);
      expect(root.bizData.list.map((i: any) => i.name)).toEqual(['Project']);
      const proj = await t.call('/cloud/v5/union/list', { parentId: root.bizData.list[0].id }, u.token);
      expect(proj.bizData.list.map((i: any) => i.name)).toEqual(['Sub', 'b.dwg']);
    });

    it('rejects bad uploads with the spec message and leaves storage and quota unchanged', async () => {
      const u = await t.createUser();
      const before = await t.db.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const cases: [string, Buffer, string, RegExp?][] = [
        ['empty.dwg', Buffer.alloc(0), 'upload.empty'],
        ['huge.dwg', randomBytes(1024 * 1024 + 10), 'upload.tooLarge', /larger than 1\.00MB/],
        ['a:b.dwg', randomBytes(10), 'name.invalid'],
        ['..', randomBytes(10), 'name.invalid'],
      ];
      for (const [name, body, code, msg] of cases) {
        const r = await t.upload(u.token, name, body);
        expect(r.bizData?.code, name).toBe(code);
        if (msg) expect(r.msg).toMatch(msg);
      }
      const traversal = await t.upload(u.token, 'x.dwg', randomBytes(10), { relativePath: '../../etc/x.dwg' });
      expect(traversal.bizData.code).toBe('name.invalid');
      const wrongMd5 = await t.upload(u.token, 'w.dwg', randomBytes(10), { md5: '0'.repeat(32) });
      expect(wrongMd5.bizData.code).toBe('upload.md5Mismatch');
      expect((await t.usage(u.id)).used).toBe(0);
      expect((await t.call('/cloud/v5/union/list', {}, u.token)).bizData.total).toBe(0);
      const after = await t.db.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('never goes over the quota with 10 parallel uploads', async () => {
      const u = await t.createUser({ quota: 250_000 });
      const sizes = Array.from({ length: 10 }, () => 60_000);
      const results = await Promise.all(sizes.map((s, i) => t.upload(u.token, `p${i}.dwg`, randomBytes(s))));
      const ok = results.filter((r) => r.rtnCode === '0000000');
      expect(ok.length).toBe(4);
      expect(results.filter((r) => r.bizData?.code === 'upload.noSpace').length).toBe(6);
      expect((await t.usage(u.id)).used).toBe(4 * 60_000);
    });

    it('uploads in chunks, resumes from the server offset, and checks the MD5', async () => {
      const u = await t.createUser();
      const body = randomBytes(900_000);
      const init = await t.call('/cloud/v5/upload/init', { name: 'chunked.dwg', size: body.length, md5: md5(body) }, u.token);
      expect(init.bizData.received).toBe(0);
      const put = (offset: number, bytes: Buffer) =>
        t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${u.token}&uploadId=${init.bizData.uploadId}&offset=${offset}`, headers: { 'content-type': 'application/octet-stream' }, payload: bytes });
      expect((await put(0, body.subarray(0, 400_000))).json().bizData.received).toBe(400_000);
      // the "network failed": ask again, the server says where to continue
      const resume = await t.call('/cloud/v5/upload/init', { name: 'chunked.dwg', size: body.length, md5: md5(body) }, u.token);
      expect(resume.bizData).toMatchObject({ uploadId: init.bizData.uploadId, received: 400_000 });
      await put(300_000, body.subarray(300_000, 700_000)); // a repeated overlap is harmless
      await put(700_000, body.subarray(700_000));
      const done = await t.call('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId }, u.token);
      expect(done.bizData).toMatchObject({ complete: true });
      const dl = await t.call('/cloud/v5/file/download', { fileId: done.bizData.item.id }, u.token);
      expect((await t.fetchSigned(dl.bizData.signedUrl)).body.equals(body)).toBe(true);

      const liar = await t.call('/cloud/v5/upload/init', { name: 'liar.dwg', size: 1000, md5: md5(randomBytes(5)) }, u.token);
      await t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${u.token}&uploadId=${liar.bizData.uploadId}&offset=0`, headers: { 'content-type': 'application/octet-stream' }, payload: randomBytes(1000) });
      const usedBefore = (await t.usage(u.id)).used;
      expect((await t.call('/cloud/v5/upload/complete', { uploadId: liar.bizData.uploadId }, u.token)).bizData.code).toBe('upload.md5Mismatch');
      expect((await t.usage(u.id)).used).toBe(usedBefore);
    });

    it('zips files and folders in the background, one request at a time', async () => {
      const u = await t.createUser();
      const folder = (await t.call('/cloud/v5/folder/edit', { name: 'Dir' }, u.token)).bizData;
      const empty = (await t.call('/cloud/v5/folder/edit', { name: 'Empty' }, u.token)).bizData;
      const f1 = (await t.upload(u.token, 'one.dwg', Buffer.from('one'))).bizData;
      await t.upload(u.token, 'two.dxf', Buffer.from('two'), { parentId: folder.id });
      expect((await t.call('/cloud/v5/file/downloadBatchZip', { folderIds: [empty.id] }, u.token)).msg).toBe('The folder is empty no files can be downloaded');
      const task = await t.call('/cloud/v5/file/downloadBatchZip', { fileIds: [f1.id], folderIds: [folder.id] }, u.token);
      expect(task.rtnCode).toBe('0000000');
      const again = await t.call('/cloud/v5/file/downloadBatchZip', { fileIds: [f1.id], folderIds: [folder.id] }, u.token);
      // either still queued (refused) or already done (a new task is fine)
      if (again.rtnCode !== '0000000') expect(again.msg).toBe('Already in the download list');
      await until(async () => (await t.call('/cloud/v5/zip/task/taskStatus', { taskId: task.bizData.taskId }, u.token)).bizData.status === 2);
      const url = await t.call('/cloud/v5/file/downloadBatchTempUrl', { taskId: task.bizData.taskId }, u.token);
      const zip = (await t.fetchSigned(url.bizData.signedUrl)).body;
      expect(zip.subarray(0, 2).toString()).toBe('PK');
      const names = centralDirectoryNames(zip);
      expect(names.sort()).toEqual(['Dir/', 'Dir/two.dxf', 'one.dwg']);
      const list = await t.call('/cloud/v5/zip/task/list', { taskType: 1 }, u.token);
      expect(list.bizData.list.length).toBeGreaterThanOrEqual(1);
      expect((await t.call('/cloud/v5/zip/task/cancel', { taskId: task.bizData.taskId }, u.token)).bizData.cancelled).toBe(true);
    });
  });
}

/** File names from a zip's central directory (independent of the writer). */
function centralDirectoryNames(zip: Buffer): string[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = zip.readUInt16LE(p + 28);
    const m = zip.readUInt16LE(p + 30);
    const k = zip.readUInt16LE(p + 32);
    names.push(zip.subarray(p + 46, p + 46 + n).toString('utf8'));
    p += 46 + n + m + k;
  }
  return names;
}
