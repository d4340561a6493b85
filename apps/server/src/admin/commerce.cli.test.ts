import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from './admin.cli.ts';

describe('admin CLI: exchange codes and ad slots (in process, as the CLI runs it)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-commerce-'));
  const admin = (...args: string[]): Promise<any> => runAdmin(args, { DATA_DIR: dir, DATABASE_URL: '' });

  it('code create prints the codes once; code list shows the batch masked; code void refuses a second void', async () => {
    const batch = await admin('code', 'create', '--plan', 'ML1', '--count', '3', '--periods', '2', '--expires', '30');
    expect(batch.codes).toHaveLength(3);
    expect(batch.codes[0]).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(batch.expiresAt).toBeGreaterThan(Date.now());
    const batches = await admin('code', 'list');
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ batch_id: batch.batchId, plan_code: 'ML1' });
    expect(Number(batches[0].count)).toBe(3);
    const listed = await admin('code', 'list', '--batch', batch.batchId);
    expect(listed.map((c: { code: string }) => c.code).sort()).toEqual(batch.codes.map((c: string) => `****-****-****-${c.slice(-4)}`).sort());
    expect(JSON.stringify(listed)).not.toContain(batch.codes[0]);
    expect(await admin('code', 'void', batch.codes[0].toLowerCase())).toEqual({ voided: true });
    await expect(admin('code', 'void', batch.codes[0])).rejects.toThrow('no unused code');
    expect((await admin('code', 'list', '--batch', batch.batchId)).filter((c: { status: number }) => c.status === 3)).toHaveLength(1);
    await expect(admin('code', 'create', '--plan', 'NOPE', '--count', '1')).rejects.toThrow('no plan NOPE');
    await expect(admin('code', 'create', '--plan', 'ML1', '--count', '0')).rejects.toThrow('--count must be');
    await expect(admin('code', 'create', '--count', '1')).rejects.toThrow('missing --plan');
  });

  it('ad set, list, remove', async () => {
    expect(await admin('ad', 'list')).toEqual([]);
    const ad = await admin('ad', 'set', '--slot', 'home', '--image', 'https://ads.example/a.png', '--link', 'https://ads.example/', '--title', 'A');
    expect(ad).toEqual({ slot: 'home', imageUrl: 'https://ads.example/a.png', linkUrl: 'https://ads.example/', title: 'A' });
    expect(await admin('ad', 'list')).toEqual([ad]);
    await expect(admin('ad', 'set', '--slot', 'x', '--image', 'javascript:1', '--link', 'https://a.example/', '--title', 'X')).rejects.toThrow('not an http(s) URL');
    expect(await admin('ad', 'remove', '--slot', 'home')).toEqual({ removed: 'home' });
    await expect(admin('ad', 'remove', '--slot', 'home')).rejects.toThrow('no ad slot home');
  });
});
