import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../../..');
const cli = (dataDir: string, ...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/admin/admin.cli.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });

describe('admin CLI (a real process on a temp data folder)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-'));

  it('creates, lists, sets quota and membership, and shows the outbox', () => {
    const created = cli(dataDir, 'user', 'create', '--email', 'Op@Example.com', '--password', 'longenough1', '--name', 'Op');
    expect(created.status, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: 'op@example.com', name: 'Op', storage: '0B / 500.00MB' });
    const dup = cli(dataDir, 'user', 'create', '--email', 'op@example.com', '--password', 'longenough1');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('email.taken');
    const list = JSON.parse(cli(dataDir, 'user', 'list').stdout);
    expect(list.map((u: { email: string }) => u.email)).toEqual(['op@example.com']);
    expect(JSON.parse(cli(dataDir, 'user', 'quota', '--email', 'op@example.com', '--bytes', '5GB').stdout).storage).toBe('0B / 5.00GB');
    expect(JSON.parse(cli(dataDir, 'user', 'vip', '--email', 'op@example.com', '--type', '2').stdout).vipType).toBe(2);
    expect(JSON.parse(cli(dataDir, 'mail', 'outbox').stdout)).toEqual([]);
  });

  it('fails with a clear message on bad input', () => {
    const bad = cli(dataDir, 'user', 'quota', '--email', 'nobody@example.com', '--bytes', '1GB');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('no user with e-mail nobody@example.com');
    const usage = cli(dataDir, 'frobnicate');
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain('usage: npm run admin');
    const conf = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/admin/admin.cli.ts', 'user', 'list'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, PORT: 'abc' }, encoding: 'utf8' });
    expect(conf.status).toBe(1);
    expect(conf.stderr).toContain('PORT');
  });
});
