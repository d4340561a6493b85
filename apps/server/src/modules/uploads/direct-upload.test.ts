import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, s3TestEnv, type TestApp } from '../../test/fixtures.ts';

const s3 = s3TestEnv('direct');

/** Call style 6 against a real, signature-checking S3 server (Swift + s3api on loopback). */
describe.runIf(s3)('direct-to-storage upload on S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], s3!);
  });
  afterAll(async () => t?.close());

  it('stores the bytes the browser PUTs with the declared MD5, then lists and downloads them', async () => {
    const u = await t.createUser();
    const body = randomBytes(50_000);
    const init = await t.call('/cloud/v5/upload/direct/init', { name: 'direct.dwg', size: body.length, md5: md5(body) }, u.token);
    expect(init.bizData.headers['x-oss-meta-md5']).toBe(md5(body));
    const put = await fetch(init.bizData.url, { method: 'PUT', body, headers: init.bizData.headers });
    expect(put.status).toBe(200);
    const done = await t.call('/cloud/v5/upload/direct/complete', { uploadId: init.bizData.uploadId }, u.token);
    expect(done.bizData.item).toMatchObject({ name: 'direct.dwg', size: body.length, fileMD5: md5(body) });
    expect((await t.usage(u.id)).used).toBe(body.length);
    const dl = await t.call('/cloud/v5/file/download', { fileId: done.bizData.item.id }, u.token);
    // the download link checks its grant, then redirects to a presigned URL of the object
    const link = await t.fetchSigned(dl.bizData.signedUrl);
    expect(link.status).toBe(302);
    const got = Buffer.from(await (await fetch(String(link.headers.location))).arrayBuffer());
    expect(got.equals(body)).toBe(true);
  });

  it('refuses bytes that do not match the declared MD5: nothing stored, quota unchanged', async () => {
    const u = await t.createUser();
    const declared = randomBytes(1000);
    const actual = randomBytes(1000);
    const init = await t.call('/cloud/v5/upload/direct/init', { name: 'liar.dwg', size: 1000, md5: md5(declared) }, u.token);
    const put = await fetch(init.bizData.url, { method: 'PUT', body: actual, headers: init.bizData.headers });
    expect(put.status).toBeGreaterThanOrEqual(400);
    const forged = await fetch(init.bizData.url, { method: 'PUT', body: actual, headers: { ...init.bizData.headers, 'x-oss-meta-md5': md5(actual), 'content-md5': Buffer.from(md5(actual), 'hex').toString('base64') } });
    expect(forged.status).toBe(403);
    const done = await t.call('/cloud/v5/upload/direct/complete', { uploadId: init.bizData.uploadId }, u.token);
    expect(done.bizData.code).toBe('upload.md5Mismatch');
    expect(done.msg).toBe('Failed to get file MD5');
    expect((await t.usage(u.id)).used).toBe(0);
    expect((await t.call('/cloud/v5/union/list', {}, u.token)).bizData.total).toBe(0);
  });

  it('answers the local-disk driver with a clear refusal (uploads go through the API there)', async () => {
    const local = await createTestApp(testDatabaseDrivers()[0]);
    try {
      const u = await local.createUser();
      const r = await local.call('/cloud/v5/upload/direct/init', { name: 'x.dwg', size: 10, md5: md5(randomBytes(10)) }, u.token);
      expect(r.bizData.code).toBe('upload.unsupported');
    } finally {
      await local.close();
    }
  });
});
