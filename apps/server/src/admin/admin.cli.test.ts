import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from './admin.cli.ts';

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

  // in process (runAdmin, what the CLI's main calls): a dozen commands, each a process would take seconds on a busy machine
  it('plan list and plan set (a new version); user vip --plan grants through the entitlements, stacked, once per --ref', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-plans-'));
    const admin = (...args: string[]): Promise<any> => runAdmin(args, { DATA_DIR: dir, DATABASE_URL: '' });
    const plans = await admin('plan', 'list');
    expect(plans.find((p: { code: string }) => p.code === 'ML1')).toMatchObject({ version: 1, prices: { USD: 4.99, CNY: 15 } });
    expect(await admin('plan', 'set', 'ML1', '--price-usd', '5.99', '--days', '31')).toMatchObject({ code: 'ML1', version: 2, durationDays: 31, prices: { USD: 5.99, CNY: 15 } });
    expect((await admin('plan', 'list')).find((p: { code: string }) => p.code === 'ML1').version).toBe(2);
    await expect(admin('plan', 'set', 'NOPE', '--price-usd', '1')).rejects.toThrow('no plan NOPE');
    await expect(admin('plan', 'set', 'ML1', '--price-usd', 'cheap')).rejects.toThrow('--price-usd must be an amount');

    await admin('user', 'create', '--email', 'member@example.com', '--password', 'longenough1');
    const first = await admin('user', 'vip', '--email', 'member@example.com', '--plan', 'ML1', '--ref', 'deal-1');
    expect(first).toMatchObject({ vipType: 1, goodsCodes: ['ML1'], granted: true, period: { plan: 'ML1', version: 2 } });
    expect(Date.parse(first.period.endsAt) - Date.parse(first.period.startsAt)).toBe(31 * 86_400_000);
    // the same reference again grants nothing; another one stacks behind the first
    expect((await admin('user', 'vip', '--email', 'member@example.com', '--plan', 'ML1', '--ref', 'deal-1')).granted).toBe(false);
    const second = await admin('user', 'vip', '--email', 'member@example.com', '--plan', 'ML1');
    expect(second.period.startsAt).toBe(first.period.endsAt);
    expect(second.membershipEnds).toBe(second.period.endsAt);
    expect((await admin('user', 'vip', '--email', 'member@example.com', '--type', '2')).vipType).toBe(2);
    // --type 0 ends what the operator granted
    expect(await admin('user', 'vip', '--email', 'member@example.com', '--type', '0')).toMatchObject({ vipType: 0, goodsCodes: [], membershipEnds: null });
  }, 60_000);

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
