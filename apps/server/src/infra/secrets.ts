import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';

/** Every secret `persistentSecret` (storage.factory.ts) and the built-in login site read from DATA_DIR/secrets. */
export const INSTALLATION_SECRETS = ['cookie-signing', 'download-link', 'share-token', 'share-challenge', 'upload-possession', 'storage-signing', 'sso-client', 'sso-cookie', 'sso-jwks.json', 'unzip-password', 'sandbox-pay', 'call-secret', 'free-unfreeze'] as const;

/**
 * Makes the database the one source of the installation's secrets and DATA_DIR/secrets a copy of it, before anything
 * reads them. Several server processes (two web, one worker, on machines that share no disk) then sign and check
 * sessions, share tokens and download links alike. A secret the database does not hold yet is taken from this
 * process's DATA_DIR (an installation that ran before keeps its sessions and links) or made new; the first process
 * to write it wins, and every other one takes its value.
 */
export async function syncInstallationSecrets(db: Kysely<Database>, dataDir: string, make: Partial<Record<string, () => string>> = {}) {
  const dir = path.join(dataDir, 'secrets');
  mkdirSync(dir, { recursive: true });
  for (const name of INSTALLATION_SECRETS) {
    const file = path.join(dir, name);
    const local = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
    const value = local || (make[name] ?? (() => randomBytes(32).toString('base64url')))();
    await db.insertInto('installation_secrets').values({ name, value, created_at: Date.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const shared = (await db.selectFrom('installation_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
    if (shared === local) continue;
    // whole or not at all: a reader never sees half a key
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, shared, { mode: 0o600 });
    renameSync(tmp, file);
  }
}
