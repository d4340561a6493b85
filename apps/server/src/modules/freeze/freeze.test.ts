import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { FREE_UNFREEZE_REGISTERED_BEFORE, ORDER_PATHS as P } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { listOutbox } from '../../infra/mail/outbox.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createUsersService } from '../users/users.service.ts';
import { addMonths, createFreezeService, purgeAtOf } from './freeze.service.ts';

const DAY = 86_400_000;
type User = { id: string; email: string; token: string };

describe('calendar months', () => {
  it('3 months after a date; the end of a short month', () => {
    expect(new Date(addMonths(Date.UTC(2026, 0, 15, 10), 3)).toISOString()).toBe('2026-04-15T10:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2026, 10, 30, 8), 3)).toISOString()).toBe('2027-02-28T08:00:00.000Z');
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`freeze and unfreeze on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());

    const freezeOf = async (uid: string) => Number((await t.db.db.selectFrom('users').select('freeze').where('id', '=', uid).executeTakeFirstOrThrow()).freeze);
    const itemFlags = async (uid: string) => (await t.db.db.selectFrom('items').select(['name', 'freeze']).where('uid', '=', uid).where('kind', '=', 1).orderBy('name').execute()).map((r) => `${r.name}:${r.freeze}`);
    /** A user with two 4000-byte drawings whose space is then cut to 5000 bytes: frozen. */
    async function frozenUser(): Promise<User & { files: string[] }> {
      const u = await t.createUser({ quota: 10_000 });
      const files: string[] = [];
      for (const name of ['a.dwg', 'b.dwg']) files.push((await t.upload(u.token, name, Buffer.concat([Buffer.from('AC1015'), randomBytes(3994)]))).bizData.id);
      expect(await freezeOf(u.id)).toBe(0);
      await createUsersService(t.deps).setQuota(u.id, 5000);
      expect(await freezeOf(u.id)).toBe(1);
      expect(await itemFlags(u.id)).toEqual(['a.dwg:1', 'b.dwg:1']);
      return { ...u, files };
    }

    it('over the space → frozen: upload blocked, download allowed, frozen files not viewable; renewing unfreezes at once', async () => {
      const u = await frozenUser();
      const info = (await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData;
      expect(info.freeze).toBe(1);
      expect((await t.upload(u.token, 'c.dwg', randomBytes(10))).bizData.code).toBe('account.frozen');
      expect((await t.call('/cloud/v5/file/download', { fileId: u.files[0] }, u.token)).rtnCode).toBe('0000000');
      const scene = await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${u.files[0]}&utoken=${u.token}` });
      expect(scene.json().bizData.code).toBe('file.frozen');
      const state = (await t.call(P.freezeState, {}, u.token)).bizData;
      expect(state).toMatchObject({ freeze: 1, used: 8000, total: 5000, freeUnfreezeAvailable: false });
      expect(state.purgeAt).toBe(purgeAtOf(state.frozenAt));
      // renew: a premium period (5 GB more) thaws the account in the grant's transaction
      await createMembershipService(t.deps).grant(u.id, 'ML1', { source: 'admin', sourceId: `renew-${u.id}` });
      expect(await freezeOf(u.id)).toBe(0);
      expect(await itemFlags(u.id)).toEqual(['a.dwg:0', 'b.dwg:0']);
      expect((await t.upload(u.token, 'c.dwg', randomBytes(10))).rtnCode).toBe('0000000');
    });

    it('an entitlement that ends freezes at the next check, exactly at its end (state read, scheduled sweep)', async () => {
      const u = await frozenUser();
      const now = Date.now();
      const g = await createMembershipService(t.deps).grant(u.id, 'SE10', { source: 'admin', sourceId: `space-${u.id}`, now });
      expect(await freezeOf(u.id)).toBe(0);
      const end = g.entitlement.ends_at;
      await createFreezeService(t.deps, () => end - 1).sweep();
      expect(await freezeOf(u.id)).toBe(0);
      expect((await createFreezeService(t.deps, () => end).sweep()).refreshed).toBeGreaterThanOrEqual(1);
      expect(await freezeOf(u.id)).toBe(1);
      expect(await itemFlags(u.id)).toEqual(['a.dwg:1', 'b.dwg:1']);
      // the state read at the real time (the period still runs) brings it back
      expect((await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData.freeze).toBe(0);
      // and the read at the end freezes it again
      expect((await createFreezeService(t.deps, () => end).state(u.id)).freeze).toBe(1);
    });

    it('buying space, cleaning up files and publishing drawings each unfreeze', async () => {
      const bought = await frozenUser();
      await createMembershipService(t.deps).grant(bought.id, 'SE10', { source: 'admin', sourceId: `buy-${bought.id}` });
      expect(await freezeOf(bought.id)).toBe(0);

      const cleaned = await frozenUser();
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [cleaned.files[0]] }, cleaned.token)).rtnCode).toBe('0000000');
      expect(await freezeOf(cleaned.id)).toBe(0);
      expect(await itemFlags(cleaned.id)).toEqual(['a.dwg:0', 'b.dwg:0']);

      const published = await frozenUser();
      const r = await t.call('/cloud/v5/file/setFilePrivateType', { fileIds: [published.files[1]], privateType: '0', userName: 'x' }, published.token);
      expect(r.rtnCode).toBe('0000000');
      expect(await freezeOf(published.id)).toBe(0);
      // private again: over the space, frozen again (the public drawing counts once more)
      await t.call('/cloud/v5/file/setFilePrivateType', { fileIds: [published.files[1]], privateType: '1', userName: 'x' }, published.token);
      expect(await freezeOf(published.id)).toBe(1);
    });

    it('free unfreeze: only for accounts registered before October 2017, e-mail required and valid and the own one, once, for one month', async () => {
      const u = await frozenUser();
      await t.db.db.updateTable('users').set({ created_at: FREE_UNFREEZE_REGISTERED_BEFORE - 1 }).where('id', '=', u.id).execute();
      expect((await t.call(P.freezeState, {}, u.token)).bizData.freeUnfreezeAvailable).toBe(true);
      const ask = (email: unknown, token = u.token, lang = 'en') => t.call(P.freeUnfreeze, { email }, token, lang);
      expect((await ask('')).bizData.code).toBe('unfreeze.emailRequired');
      expect((await ask(undefined)).bizData.code).toBe('unfreeze.emailRequired');
      expect((await ask('not-an-email')).bizData.code).toBe('unfreeze.emailInvalid');
      const other = await ask('someone@else.example');
      expect([other.bizData.code, other.bizData.reason, other.msg]).toEqual(['unfreeze.failed', 'emailMismatch', 'Failed to unfreeze']);
      expect((await ask('x', u.token, 'zh')).msg).toBe('邮箱格式不正确');

      const before = (await listOutbox(t.db.db, { limit: 500 })).length;
      expect((await ask(` ${u.email.toUpperCase()} `)).bizData).toEqual({ sent: true });
      const mails = await listOutbox(t.db.db, { limit: 1 });
      expect((await listOutbox(t.db.db, { limit: 500 })).length).toBe(before + 1);
      expect(mails[0].to_addr).toContain(u.email);
      const link = /https?:\/\/\S+freeUnfreeze\/confirm\?token=\S+/.exec(mails[0].text)![0];
      const url = new URL(link);
      // a forged link does nothing
      const forged = await t.app.inject({ method: 'GET', url: `${url.pathname}?token=${url.searchParams.get('token')!.slice(0, -2)}xx`, headers: { 'accept-language': 'en' } });
      expect(forged.statusCode).toBe(400);
      expect(forged.body).toContain('Failed to unfreeze');
      expect(await freezeOf(u.id)).toBe(1);

      const confirmed = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(confirmed.statusCode).toBe(200);
      expect(await freezeOf(u.id)).toBe(0);
      const row = await t.db.db.selectFrom('users').select(['free_unfreeze_until', 'free_unfreeze_used_at']).where('id', '=', u.id).executeTakeFirstOrThrow();
      const until = Number(row.free_unfreeze_until);
      expect(until - Number(row.free_unfreeze_used_at)).toBe(30 * DAY);
      // not frozen while it runs, even when the state is read; frozen again exactly at its end (still over the space)
      expect((await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData.freeze).toBe(0);
      expect((await createFreezeService(t.deps, () => until - 1).state(u.id)).freeze).toBe(0);
      expect((await createFreezeService(t.deps, () => until).state(u.id)).freeze).toBe(1);
      // once per account: the link again, and a new request, are refused
      expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(400);
      expect((await ask(u.email)).bizData).toMatchObject({ code: 'unfreeze.failed', reason: 'used' });

      // registered on 2017-10-01 itself: too late
      const late = await frozenUser();
      await t.db.db.updateTable('users').set({ created_at: FREE_UNFREEZE_REGISTERED_BEFORE }).where('id', '=', late.id).execute();
      expect((await ask(late.email, late.token)).bizData).toMatchObject({ code: 'unfreeze.failed', reason: 'registeredTooLate' });
      expect((await t.call(P.freezeState, {}, late.token)).bizData.freeUnfreezeAvailable).toBe(false);
      // an old account that is not frozen has nothing to unfreeze
      const fine = await t.createUser();
      await t.db.db.updateTable('users').set({ created_at: Date.UTC(2015, 0, 1) }).where('id', '=', fine.id).execute();
      expect((await ask(fine.email, fine.token)).bizData).toMatchObject({ code: 'unfreeze.failed', reason: 'notFrozen' });
    });

    it('an account frozen before frozen_at existed gets its 3 months from the first sweep, not from the epoch', async () => {
      const u = await frozenUser();
      await t.db.db.updateTable('users').set({ frozen_at: null }).where('id', '=', u.id).execute();
      const now = Date.now();
      expect((await createFreezeService(t.deps, () => now).sweep()).purged).toBe(0);
      expect(Number((await t.db.db.selectFrom('users').select('frozen_at').where('id', '=', u.id).executeTakeFirstOrThrow()).frozen_at)).toBe(now);
      expect(await itemFlags(u.id)).toEqual(['a.dwg:1', 'b.dwg:1']);
    });

    it('3 months after the freeze the frozen files are deleted through the drive (quota and blobs consistent), with a warning mail a week before', async () => {
      const u = await frozenUser();
      const frozenAt = Number((await t.db.db.selectFrom('users').select('frozen_at').where('id', '=', u.id).executeTakeFirstOrThrow()).frozen_at);
      const purgeAt = purgeAtOf(frozenAt);
      const mailsTo = async () => (await listOutbox(t.db.db, { limit: 1000 })).filter((m) => m.to_addr.includes(u.email)).length;
      const sweepAt = (at: number) => createFreezeService(t.deps, () => at).sweep();

      await sweepAt(purgeAt - 7 * DAY - 1);
      expect(await mailsTo()).toBe(0);
      await sweepAt(purgeAt - 7 * DAY);
      expect(await mailsTo()).toBe(1);
      await sweepAt(purgeAt - 1);
      expect(await mailsTo()).toBe(1);
      expect(await itemFlags(u.id)).toEqual(['a.dwg:1', 'b.dwg:1']);

      const blobs = (await t.db.db.selectFrom('items').select('blob_md5').where('uid', '=', u.id).where('name', 'in', ['a.dwg', 'b.dwg']).execute()).map((r) => r.blob_md5!);
      const first = await sweepAt(purgeAt);
      expect(first.purged).toBeGreaterThanOrEqual(2);
      expect((await sweepAt(purgeAt)).purged).toBe(0);
      expect(await itemFlags(u.id)).toEqual([]);
      expect((await t.usage(u.id)).used).toBe(0);
      expect(await freezeOf(u.id)).toBe(0);
      // no blob is referenced any more by the purged files (the drive's own delete released them)
      const refs = await t.db.db.selectFrom('blobs').select(['md5', 'ref_count']).where('md5', 'in', blobs).execute();
      expect(refs.every((b) => Number(b.ref_count) === 0)).toBe(true);
    });
  });
}
