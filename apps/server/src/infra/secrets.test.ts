import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseDrivers } from './db/test-databases.ts';
import { INSTALLATION_SECRETS, syncInstallationSecrets } from './secrets.ts';
import { persistentSecret } from './storage/storage.factory.ts';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

for (const driver of testDatabaseDrivers()) {
  describe(`installation secrets on ${driver.name}`, () => {
    it('processes with their own DATA_DIR end with the same secrets; an installation that ran before keeps its own', async () => {
      const t = await driver.create();
      try {
        const [old, fresh] = [dataDir(), dataDir()];
        mkdirSync(path.join(old, 'secrets'));
        writeFileSync(path.join(old, 'secrets', 'share-token'), 'kept-from-before');
        await syncInstallationSecrets(t.db, old);
        await syncInstallationSecrets(t.db, fresh);
        for (const name of INSTALLATION_SECRETS) expect(readFileSync(path.join(fresh, 'secrets', name), 'utf8')).toBe(readFileSync(path.join(old, 'secrets', name), 'utf8'));
        expect(persistentSecret(fresh, 'share-token')).toBe('kept-from-before');
      } finally {
        await t.destroy();
      }
    });
  });
}
