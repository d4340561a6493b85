import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '../config/index.ts';
import type { StorageDriver } from './storage.types.ts';
import { createFsStorage } from './fs.driver.ts';
import { createS3Storage } from './s3.driver.ts';

/**
 * A secret generated once per installation and kept in DATA_DIR/secrets, so restarts keep signed URLs and
 * sessions valid. Written whole under a temp name and linked into place: two processes starting together
 * (web and worker) agree on one secret, and a crash never leaves an empty one.
 */
export function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

export function storageSigningSecret(config: AppConfig): string {
  return config.storageSigningSecret ?? persistentSecret(config.dataDir, 'storage-signing');
}

export function createStorage(config: AppConfig): StorageDriver {
  if (config.storageDriver === 's3') {
    return createS3Storage({
      endpoint: config.s3Endpoint,
      region: config.s3Region,
      bucket: config.s3Bucket!,
      accessKeyId: config.s3AccessKeyId!,
      secretAccessKey: config.s3SecretAccessKey!,
      forcePathStyle: config.s3ForcePathStyle,
    });
  }
  return createFsStorage({ root: path.join(config.dataDir, 'storage'), signingSecret: storageSigningSecret(config) });
}
