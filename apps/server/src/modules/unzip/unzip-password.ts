import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';

/**
 * An archive's password while its task waits or runs: AES-256-GCM under a key derived from the installation's
 * 'unzip-password' secret (infra/secrets.ts: every process of the installation has the same one), never in clear in
 * the database, and erased from the task row when the task ends.
 */
const keys = new Map<string, Buffer>();
function keyOf(dataDir: string): Buffer {
  let k = keys.get(dataDir);
  if (!k) keys.set(dataDir, (k = createHash('sha256').update(`unzip-password:${persistentSecret(dataDir, 'unzip-password')}`).digest()));
  return k;
}

export function sealPassword(dataDir: string, password: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(dataDir), iv);
  const body = Buffer.concat([c.update(password, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

/** The password, or undefined when none was given (or the sealed text does not open: the task asks again). */
export function openPassword(dataDir: string, sealed: string | null): string | undefined {
  if (!sealed) return undefined;
  try {
    const b = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', keyOf(dataDir), b.subarray(0, 12));
    d.setAuthTag(b.subarray(12, 28));
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
