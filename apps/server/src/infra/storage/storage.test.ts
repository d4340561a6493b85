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
    it.skip('needs TEST_S3_ENDPOINT (npm test starts a Swift+s3api server; see scripts/s3-swift.sh)', () => {});
  });
  if (process.env.CI) throw new Error('TEST_S3_ENDPOINT must be set in CI');
}
