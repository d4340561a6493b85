import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { EXPIRY_WARNING_MS } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createMembershipService, type MembershipService } from './membership.service.ts';

const DAY = 86_400_000;
const GB = 1024 ** 3;
const T0 = Date.UTC(2026, 10, 1, 12);

for (const driver of testDatabaseDrivers()) {
  describe(`membership on ${driver.name}`, () => {
    let t: TestApp;
    let m: MembershipService;
    beforeAll(async () => {
      t = await createTestApp(driver);
      m = createMembershipService(t.deps);
    });
    afterAll(async () => t?.close());
    const rows = (uid: string) => t.db.db.selectFrom('entitlements').selectAll().where('uid', '=', uid).orderBy('starts_at').execute();

    it('seeds the default catalog once; an edit is a new version and a granted period keeps the version it was granted with', async () => {
      const plans = await m.catalog();
      expect(plans.map((p) => p.code)).toEqual(['ML1', 'ML2', 'ML3', 'ML4', 'SE10', 'SE50', 'TRIAL']);
      expect(plans.find((p) => p.code === 'ML1')).toMatchObject({ version: 1, prices: { USD: 4.99, CNY: 15 }, durationDays: 30 });
      expect(plans.find((p) => p.code === 'ML2')).toMatchObject({ prices: { USD: 47.99, CNY: 158 }, durationDays: 365 });
      expect(plans.find((p) => p.code === 'SE10')).toMatchObject({ kind: 'storage', prices: { KRW: 1730 } });
      // a second service (another process) seeding again adds nothing
      await createMembershipService(t.deps).ensureCatalog();
      expect(Number((await t.db.db.selectFrom('membership_plans').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(7);

      const u = await t.createUser();
      await m.grant(u.id, 'SE50', { source: 'admin', sourceId: `v1-${u.id}`, now: T0 });
      const edited = await m.editPlan('SE50', { storageBytes: 100 * GB, prices: { USD: 9.99 } });
      expect(edited).toMatchObject({ code: 'SE50', version: 2, storageBytes: 100 * GB, prices: { USD: 9.99, CNY: 40, KRW: 6900 } });
      const v = await createUser2();
      await m.grant(v.id, 'SE50', { source: 'admin', sourceId: `v2-${v.id}`, now: T0 });
      expect((await rows(u.id)).map((r) => [r.plan_version, Number(r.storage_bytes)])).toEqual([[1, 50 * GB]]);
      expect((await rows(v.id)).map((r) => [r.plan_version, Number(r.storage_bytes)])).toEqual([[2, 100 * GB]]);
      expect((await m.rightsOf(u.id, T0)).storageBytes).toBe(100 * 1024 * 1024 + 50 * GB);
      expect((await m.rightsOf(v.id, T0)).storageBytes).toBe(100 * 1024 * 1024 + 100 * GB);
      // the answer on sale follows the latest version
      const listed = await t.call('/order/v5/plan/list', { currency: 'USD' });
      expect(listed.bizData.plans.find((p: { code: string }) => p.code === 'SE50')).toMatchObject({ version: 2, price: { currency: 'USD', amount: 9.99 } });
    });
    const createUser2 = () => t.createUser();

    it('a period starts and ends exactly at its boundary; a renewal stacks after the running one of the same kind', async () => {
      const u = await t.createUser();
      const first = await m.grant(u.id, 'ML1', { source: 'order', sourceId: `o1-${u.id}`, now: T0 });
      expect(first).toMatchObject({ granted: true, entitlement: { starts_at: T0, ends_at: T0 + 30 * DAY, plan_code: 'ML1', plan_version: 1 } });
      expect(await m.may(u.id, 'conversion', T0 - 1)).toBe(false);
      expect(await m.may(u.id, 'conversion', T0)).toBe(true);
      expect(await m.may(u.id, 'conversion', T0 + 30 * DAY - 1)).toBe(true);
      expect(await m.may(u.id, 'conversion', T0 + 30 * DAY)).toBe(false);
      // renewed 10 days in: the new period starts where the running one ends
      const renewal = await m.grant(u.id, 'ML2', { source: 'order', sourceId: `o2-${u.id}`, now: T0 + 10 * DAY });
      expect(renewal.entitlement).toMatchObject({ starts_at: T0 + 30 * DAY, ends_at: T0 + 395 * DAY });
      // and once more, behind that (the last end of the kind, not the first)
      const third = await m.grant(u.id, 'ML1', { source: 'code', sourceId: `c1-${u.id}`, now: T0 + 11 * DAY });
      expect(third.entitlement).toMatchObject({ starts_at: T0 + 395 * DAY, ends_at: T0 + 425 * DAY });
      expect(await m.may(u.id, 'conversion', T0 + 30 * DAY)).toBe(true);
      expect((await m.rightsOf(u.id, T0 + 20 * DAY)).vipInfo).toEqual({ goodsCodes: ['ML1'], serverEndTimeStamp: T0 + 425 * DAY });
      // another kind does not stack on premium: super starts now, storage expansion too
      const sup = await m.grant(u.id, 'ML3', { source: 'order', sourceId: `o3-${u.id}`, now: T0 + 12 * DAY });
      expect(sup.entitlement.starts_at).toBe(T0 + 12 * DAY);
      expect((await m.rightsOf(u.id, T0 + 12 * DAY)).vipType).toBe(2);
      // a lapsed membership renewed later starts at the renewal, not in the past
      const w = await t.createUser();
      await m.grant(w.id, 'ML1', { source: 'order', sourceId: `w1-${w.id}`, now: T0 });
      expect((await m.grant(w.id, 'ML1', { source: 'order', sourceId: `w2-${w.id}`, now: T0 + 40 * DAY })).entitlement.starts_at).toBe(T0 + 40 * DAY);
    });

    it('a grant is applied once per (source, source id): 10 concurrent grants of one order make one row; two users racing for one code, one wins', async () => {
      const u = await t.createUser();
      const results = await Promise.all(Array.from({ length: 10 }, () => m.grant(u.id, 'ML1', { source: 'order', sourceId: `same-${u.id}`, now: T0 })));
      expect(results.filter((r) => r.granted)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entitlement.id)).size).toBe(1);
      expect(await rows(u.id)).toHaveLength(1);
      // separate services (as separate requests or processes would have) on one exchange code, two users
      const a = await t.createUser();
      const b = await t.createUser();
      const code = `code-${randomBytes(4).toString('hex')}`;
      const race = await Promise.all([a, b, a, b, a, b].map((x) => createMembershipService(t.deps).grant(x.id, 'ML1', { source: 'code', sourceId: code, now: T0 })));
      expect(race.filter((r) => r.granted)).toHaveLength(1);
      expect((await rows(a.id)).length + (await rows(b.id)).length).toBe(1);
      // different orders of one user, concurrently, stack one after another without overlap
      const c = await t.createUser();
      await Promise.all(Array.from({ length: 5 }, (_, i) => m.grant(c.id, 'ML1', { source: 'order', sourceId: `stack-${c.id}-${i}`, now: T0 })));
      const stacked = await rows(c.id);
      expect(stacked.map((r) => [Number(r.starts_at), Number(r.ends_at)])).toEqual(Array.from({ length: 5 }, (_, i) => [T0 + i * 30 * DAY, T0 + (i + 1) * 30 * DAY]));
    });

    it("grants inside the caller's transaction: rolled back with it, committed with it", async () => {
      const u = await t.createUser();
      await expect(
        t.db.db.transaction().execute(async (trx) => {
          await m.grant(u.id, 'ML1', { source: 'order', sourceId: `rb-${u.id}`, now: T0, trx });
          expect(await trx.selectFrom('entitlements').select('id').where('uid', '=', u.id).execute()).toHaveLength(1);
          throw new Error('payment check failed');
        }),
      ).rejects.toThrow('payment check failed');
      expect(await rows(u.id)).toEqual([]);
      await t.db.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ name: 'paid' }).where('id', '=', u.id).execute();
        expect((await m.grant(u.id, 'ML1', { source: 'order', sourceId: `ok-${u.id}`, now: T0, trx })).granted).toBe(true);
      });
      expect(await rows(u.id)).toHaveLength(1);
      // several callers' transactions at once (orders paid together) still stack one after another
      const c = await t.createUser();
      await Promise.all(Array.from({ length: 4 }, (_, i) => t.db.db.transaction().execute((trx) => m.grant(c.id, 'ML1', { source: 'order', sourceId: `tx-${c.id}-${i}`, now: T0, trx }))));
      expect((await rows(c.id)).map((r) => Number(r.starts_at))).toEqual([0, 1, 2, 3].map((i) => T0 + i * 30 * DAY));
    });

    it('the trial: once per account, 7 days in Chinese and 30 otherwise, premium rights without ads removed or storage; needs sign-in; touches nobody else', async () => {
      const zh = await t.createUser();
      const en = await t.createUser();
      const before = Date.now();
      expect((await t.call('/order/v5/trial/start', {})).rtnCode).toBe('101');
      const r = await t.call('/order/v5/trial/start', {}, zh.token, 'zh');
      expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
      expect(r.bizData.endsAt - r.bizData.startsAt).toBe(7 * DAY);
      expect(r.bizData.startsAt).toBeGreaterThanOrEqual(before);
      const again = await t.call('/order/v5/trial/start', {}, zh.token, 'en');
      expect([again.rtnCode, again.bizData?.code, again.msg]).toEqual(['1018001', 'membership.trialUsed', 'The free trial can be used once per account']);
      expect(await rows(zh.id)).toHaveLength(1);
      expect(await rows(en.id)).toEqual([]);
      const e = await t.call('/order/v5/trial/start', {}, en.token, 'en');
      expect(e.bizData.endsAt - e.bizData.startsAt).toBe(30 * DAY);
      const info = (await t.call('/user/v5/sysuser/userInfo', {}, zh.token)).bizData;
      expect(info).toMatchObject({ vipType: 1, trialAvailable: false, vipInfo: { goodsCodes: ['TRIAL'], serverEndTimeStamp: r.bizData.endsAt }, rights: { conversion: true, groups: true, adFree: false, model3d: false }, storage: { total: 100 * 1024 * 1024 } });
      // the 7-day trial is within the warning from its first day
      expect(info.expiryWarning).toBe(true);
      const fresh = await t.createUser();
      expect((await t.call('/user/v5/sysuser/userInfo', {}, fresh.token)).bizData).toMatchObject({ vipType: 0, trialAvailable: true, expiryWarning: false, vipInfo: { goodsCodes: [], serverEndTimeStamp: 0 }, rights: { conversion: false, unzip: true } });
    });

    it('the user state warns 7 days before the end, never for ML4', async () => {
      const now = Date.now();
      const soon = await t.createUser();
      await m.grant(soon.id, 'ML1', { source: 'admin', sourceId: `soon-${soon.id}`, now: now - 30 * DAY + EXPIRY_WARNING_MS - 60_000 });
      const later = await t.createUser();
      await m.grant(later.id, 'ML1', { source: 'admin', sourceId: `later-${later.id}`, now: now - 30 * DAY + EXPIRY_WARNING_MS + 3_600_000 });
      const auto = await t.createUser();
      await m.grant(auto.id, 'ML4', { source: 'admin', sourceId: `auto-${auto.id}`, now: now - 29 * DAY });
      const warn = async (u: { token: string }) => (await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData.expiryWarning;
      expect(await warn(soon)).toBe(true);
      expect(await warn(later)).toBe(false);
      expect(await warn(auto)).toBe(false);
      expect((await t.call('/user/v5/sysuser/userInfo', {}, auto.token)).bizData.vipInfo.goodsCodes).toEqual(['ML4']);
    });

    it('storage: the quota reads base + active entitlements; uploads beyond the base pass while a plan is active and stop when it ends', async () => {
      const u = await t.createUser({ quota: 1000 });
      let now = T0;
      const quota = createQuotaService(t.deps, () => now);
      await expect(quota.reserve(u.id, 2000)).rejects.toMatchObject({ code: 'upload.noSpace' });
      await m.grant(u.id, 'SE10', { source: 'admin', sourceId: `se-${u.id}`, now: T0 });
      expect(await quota.usage(u.id)).toMatchObject({ total: 1000 + 10 * GB });
      await quota.reserve(u.id, 2000);
      now = T0 + 30 * DAY;
      expect(await quota.usage(u.id)).toMatchObject({ total: 1000, used: 2000 });
      await expect(quota.reserve(u.id, 1)).rejects.toMatchObject({ code: 'upload.noSpace' });
    });

    it('plan list: on-sale plans priced in the language\'s currency (zh CNY, en USD, ko KRW), the trial not sold', async () => {
      const zh = (await t.call('/order/v5/plan/list', {}, undefined, 'zh')).bizData.plans;
      expect(zh.find((p: { code: string }) => p.code === 'ML1').price).toEqual({ currency: 'CNY', amount: 15 });
      expect(zh.find((p: { code: string }) => p.code === 'ML2').price).toEqual({ currency: 'CNY', amount: 158 });
      expect(zh.some((p: { code: string }) => p.code === 'TRIAL')).toBe(false);
      const en = (await t.call('/order/v5/plan/list', {}, undefined, 'en')).bizData.plans;
      expect(en.find((p: { code: string }) => p.code === 'ML1').price).toEqual({ currency: 'USD', amount: 4.99 });
      const ko = (await t.call('/order/v5/plan/list', {}, undefined, 'ko')).bizData.plans;
      expect(ko.find((p: { code: string }) => p.code === 'SE10').price).toEqual({ currency: 'KRW', amount: 1730 });
    });
  });
}
