import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { repoRoot, startServer } from '../test/server-process.ts';
import { runAdmin } from './admin.cli.ts';

/**
 * Issue 16 item 6: `admin restore` into a data dir or database a running server uses must refuse, --force or not:
 * it would replace rows and files under the server's feet. Against the real server process (main.ts).
 */
const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/admin/admin.cli.ts', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' });

async function backupOfOneUser(tmp: string) {
  const src = path.join(tmp, 'src');
  const dir = path.join(tmp, 'backup');
  await runAdmin(['user', 'create', '--email', 'op@example.com', '--password', 'correct horse 1'], { DATA_DIR: src });
  await runAdmin(['backup', dir], { DATA_DIR: src });
  return dir;
}

describe('restore refuses an instance in use', () => {
  it('a server running on the data dir (SQLite): refused with who holds it, even with --force; after it stops, the restore runs', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-inuse-'));
    const dataDir = path.join(tmp, 'live');
    try {
      const dir = await backupOfOneUser(tmp);
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', HOST: '127.0.0.1' });
      let stopped = false;
      try {
        for (const args of [['restore', dir], ['restore', dir, '--force']]) {
          const r = cli({ DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);
          expect(r.status, r.stdout).toBe(1);
          expect(r.stderr).toMatch(new RegExp(`in use: a server process \\(pid ${server.child.pid} on .*\\) uses the data dir .*Stop every server`));
        }
        // the running server still answers, its data untouched
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        await server.kill('SIGTERM');
        stopped = true;
        const after = cli({ DATA_DIR: dataDir, DATABASE_URL: '' }, 'restore', dir, '--force');
        expect(after.status, after.stderr).toBe(0);
        expect(JSON.parse(after.stdout).tables.users).toBe(1);
      } finally {
        if (!stopped) await server.kill();
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 240_000);

  const pgUrl = process.env.TEST_POSTGRES_URL;
  it.runIf(pgUrl)('a server on the same PostgreSQL database with a data dir of its own: refused, naming its connections', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-inuse-pg-'));
    const dbName = `cadcloud_inuse_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(pgUrl!);
    url.pathname = `/${dbName}`;
    try {
      const dir = await backupOfOneUser(tmp);
      const server = await startServer({ DATA_DIR: path.join(tmp, 'server'), DATABASE_URL: url.toString(), HOST: '127.0.0.1' });
      try {
        const r = cli({ DATA_DIR: path.join(tmp, 'operator'), DATABASE_URL: url.toString() }, 'restore', dir, '--force');
        expect(r.status, r.stdout).toBe(1);
        expect(r.stderr).toMatch(/in use: \d+ connection\(s\) of a running server hold the database/);
      } finally {
        await server.kill('SIGTERM');
      }
      const after = cli({ DATA_DIR: path.join(tmp, 'operator'), DATABASE_URL: url.toString() }, 'restore', dir, '--force');
      expect(after.status, after.stderr).toBe(0);
    } finally {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await admin.end();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 240_000);
});
