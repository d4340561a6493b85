import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { runImportContract, runStorageContract } from './storage.contract.ts';
import { createFsStorage } from './fs.driver.ts';
import { createS3Storage } from './s3.driver.ts';
import { fsStorageRoutes } from './fs.routes.ts';
import { createFsSignedUrl, verifyFsSignedUrl } from './fs-signed-url.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { createStorage, persistentSecret, storageSigningSecret } from './storage.factory.ts';
import { loadConfig } from '../config/index.ts';

runStorageContract('local disk', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-fs-'));
  const secret = 'test-secret';
  const driver = createFsStorage({ root, signingSecret: secret });
  const app = Fastify();
  await app.register(fsStorageRoutes, { driver, secret });
  return {
    driver,
    fetchUrl: async (url) => {
      const r = await app.inject({ method: 'GET', url });
      return new Response(new Uint8Array(r.rawPayload), { status: r.statusCode, headers: r.headers as Record<string, string> });
    },
  };
});

runImportContract('local disk', async () => ({ driver: createFsStorage({ root: mkdtempSync(path.join(os.tmpdir(), 'cadcloud-fs-')), signingSecret: 's' }) }));

describe('local disk specifics', () => {
  it('leaves nothing in the temp folder after a failed write', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-fs-'));
    const driver = createFsStorage({ root, signingSecret: 's' });
    const { Readable } = await import('node:stream');
    const bad = new Readable({ read() { this.destroy(new Error('x')); } });
    await expect(driver.put('a/b', bad)).rejects.toThrow();
    expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });
});

describe('local disk signed URLs over HTTP', () => {
  const secret = 'route-secret';
  async function setup() {
    const root = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-fs-'));
    const driver = createFsStorage({ root, signingSecret: secret });
    const app = Fastify();
    await app.register(fsStorageRoutes, { driver, secret });
    const body = Buffer.from('0123456789abcdefghij');
    await driver.put('d/file', body);
    return { app, driver, body };
  }

  it('serves byte ranges: explicit, open-ended, suffix, and 416 past the end', async () => {
    const { app, driver } = await setup();
    const url = await driver.signedGetUrl('d/file', { expiresInSeconds: 60 });
    const r1 = await app.inject({ url, headers: { range: 'bytes=2-5' } });
    expect([r1.statusCode, r1.body, r1.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/20']);
    const r2 = await app.inject({ url, headers: { range: 'bytes=15-' } });
    expect([r2.statusCode, r2.body]).toEqual([206, 'fghij']);
    const r3 = await app.inject({ url, headers: { range: 'bytes=-3' } });
    expect([r3.statusCode, r3.body]).toEqual([206, 'hij']);
    const r4 = await app.inject({ url, headers: { range: 'bytes=20-' } });
    expect([r4.statusCode, r4.headers['content-range']]).toEqual([416, 'bytes */20']);
    const full = await app.inject({ url });
    expect([full.statusCode, full.body, full.headers['accept-ranges']]).toEqual([200, '0123456789abcdefghij', 'bytes']);
  });

  it('refuses an expired URL, a URL signed with another secret, and a name swapped after signing', async () => {
    const { app } = await setup();
    const expired = createFsSignedUrl(secret, 'd/file', -1);
    expect((await app.inject({ url: expired })).statusCode).toBe(403);
    const otherSecret = createFsSignedUrl('not-the-secret', 'd/file', 60);
    expect((await app.inject({ url: otherSecret })).statusCode).toBe(403);
    const named = createFsSignedUrl(secret, 'd/file', 60, 'a.dwg');
    expect((await app.inject({ url: named })).statusCode).toBe(200);
    expect((await app.inject({ url: named.replace('name=a.dwg', 'name=evil.exe') })).statusCode).toBe(403);
    const otherKey = createFsSignedUrl(secret, 'd/file', 60).replace('key=d%2Ffile', 'key=d%2Fother');
    expect((await app.inject({ url: otherKey })).statusCode).toBe(403);
  });

  it('answers 404 for a validly signed key that does not exist', async () => {
    const { app } = await setup();
    expect((await app.inject({ url: createFsSignedUrl(secret, 'd/missing', 60) })).statusCode).toBe(404);
  });

  it('verifyFsSignedUrl gives back key and name only for a good signature', () => {
    const q = Object.fromEntries(new URL(createFsSignedUrl(secret, 'x/y', 60, '图.dwg'), 'http://h').searchParams);
    expect(verifyFsSignedUrl(q, secret)).toEqual({ key: 'x/y', name: '图.dwg' });
    expect(verifyFsSignedUrl({ ...q, sig: '' }, secret)).toBeNull();
    expect(verifyFsSignedUrl(q, 'other')).toBeNull();
  });

  it('names the download with an ASCII fallback and an RFC 5987 UTF-8 name', () => {
    expect(attachmentDisposition('图纸 "1".dwg')).toBe(`attachment; filename="__ _1_.dwg"; filename*=UTF-8''%E5%9B%BE%E7%BA%B8%20%221%22.dwg`);
    expect(attachmentDisposition("it's (v2).dwg")).toBe(`attachment; filename="it's (v2).dwg"; filename*=UTF-8''it%27s%20%28v2%29.dwg`);
  });
});

describe('createStorage', () => {
  it('picks local disk under DATA_DIR/storage with a signing secret that survives a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-data-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = createStorage(config);
    expect(first.name).toBe('fs');
    await first.put('k/1', Buffer.from('x'));
    expect(readdirSync(path.join(dataDir, 'storage', 'k'))).toEqual(['1']);
    const url = await first.signedGetUrl('k/1', { expiresInSeconds: 60 });
    const secret = storageSigningSecret(config);
    expect(secret).toBe(storageSigningSecret(loadConfig({ DATA_DIR: dataDir })));
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(verifyFsSignedUrl(Object.fromEntries(new URL(url, 'http://h').searchParams), storageSigningSecret(loadConfig({ DATA_DIR: dataDir })))).toEqual({ key: 'k/1', name: '' });
    expect(storageSigningSecret(loadConfig({ DATA_DIR: dataDir, STORAGE_SIGNING_SECRET: 'set-by-operator' }))).toBe('set-by-operator');
  });

  it('keeps a persistent secret private and the same for every later caller', async () => {
    const { statSync, readdirSync: ls } = await import('node:fs');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-data-'));
    const a = persistentSecret(dataDir, 'x');
    expect(persistentSecret(dataDir, 'x')).toBe(a);
    expect(persistentSecret(dataDir, 'y')).not.toBe(a);
    expect(statSync(path.join(dataDir, 'secrets', 'x')).mode & 0o777).toBe(0o600);
    expect(ls(path.join(dataDir, 'secrets')).sort()).toEqual(['x', 'y']);
  });

  it('gives processes starting together one secret', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-data-'));
    const script = `import { persistentSecret } from ${JSON.stringify(new URL('./storage.factory.ts', import.meta.url).href)}; process.stdout.write(persistentSecret(process.argv[1], 'race'));`;
    const outs = await Promise.all(
      [1, 2, 3, 4].map(() => promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir]).then((r) => r.stdout)),
    );
    expect(new Set(outs).size).toBe(1);
    expect(outs[0]).toBe(persistentSecret(dataDir, 'race'));
  }, 30_000);

  it('picks S3 when configured', () => {
    const s = createStorage(loadConfig({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:1', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }));
    expect(s.name).toBe('s3');
  });
});

const s3 = process.env.TEST_S3_ENDPOINT;
if (s3) {
  runStorageContract('S3 (signature-checking server)', async () => {
    const driver = createS3Storage({
      endpoint: s3,
      region: process.env.TEST_S3_REGION ?? 'us-east-1',
      bucket: `cadcloud-${randomBytes(4).toString('hex')}`,
      accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID!,
      secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY!,
      forcePathStyle: true,
    });
    await driver.ensureBucket();
    return { driver, fetchUrl: (url, init) => fetch(url, init) };
  });
  runImportContract('S3', async () => {
    const driver = createS3Storage({ endpoint: s3, region: 'us-east-1', bucket: `cadcloud-${randomBytes(4).toString('hex')}`, accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID!, secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY!, forcePathStyle: true });
    await driver.ensureBucket();
    return { driver };
  });
} else {
  describe('storage contract: S3', () => {
    // Skipped only on a developer machine without the service, so the local run says what it did not check.
    // Never in CI: `npm test` provides the service, and with CI set the missing variable fails the run (below).
    it.skip('needs TEST_S3_ENDPOINT (npm test starts a Swift+s3api server; see scripts/s3-swift.sh)', () => {});
  });
  if (process.env.CI) throw new Error('TEST_S3_ENDPOINT must be set in CI');
}
