import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_CODE_ALPHABET, ExchangeCodeStatus, ORDER_PATHS as P } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createExchangeCodesService, generateCode, hashCode, normalizeCode, type ExchangeCodesService } from './exchange-codes.service.ts';

const DAY = 86_400_000;

describe('exchange code format', () => {
  it('16 characters without look-alikes, grouped by 4; normalising ignores case, spaces and dashes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const c = generateCode();
      expect(c).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(c).not.toMatch(/[01OIL]/);
      seen.add(c);
    }
    expect(seen.size).toBe(500);
    expect(EXCHANGE_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(normalizeCode(' abcd-efgh jkmn-pqrs ')).toBe('ABCDEFGHJKMNPQRS');
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`exchange codes on ${driver.name}`, () => {
    let t: TestApp;
    let codes: ExchangeCodesService;
    beforeAll(async () => {
      t = await createTestApp(driver);
      codes = createExchangeCodesService(t.deps);
    });
    afterAll(async () => t?.close());
    /** each code's status, in the order the codes were generated */
    const statuses = async (s: ExchangeCodesService, batchId: string, list: string[]) => {
      const byMask = new Map((await s.listBatch(batchId)).map((c) => [c.code, c.status]));
      return list.map((c) => byMask.get(`****-****-****-${c.slice(-4)}`));
    };
    const redeem = (token: string, code: string, lang = 'en') => t.call(P.exchange, { code }, token, lang);

    it('stores only a hash; a redeemed code grants its plan and raises the rights; a second redemption is refused', async () => {
      const batch = await codes.createBatch({ planCode: 'ML1', count: 3, periods: 2 });
      expect(batch.codes).toHaveLength(3);
      const stored = JSON.stringify(await t.db.db.selectFrom('exchange_codes').selectAll().where('batch_id', '=', batch.batchId).execute());
      for (const code of batch.codes) {
        expect(stored).not.toContain(normalizeCode(code));
        expect(stored).not.toContain(code);
        expect(stored).toContain(hashCode(normalizeCode(code)));
      }
      const u = await t.createUser();
      expect((await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData.vipInfo.goodsCodes).toEqual([]);
      // typed in lower case with spaces instead of dashes
      const r = await redeem(u.token, batch.codes[0].toLowerCase().replace(/-/g, ' '));
      expect(r.rtnCode).toBe('0000000');
      expect(r.bizData.planCode).toBe('ML1');
      expect(r.bizData.endsAt - r.bizData.startsAt).toBe(2 * 30 * DAY);
      const info = (await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData;
      expect(info.vipInfo.goodsCodes).toContain('ML1');
      expect(info.rights.viewerTools).toBe(true);
      const again = await redeem(u.token, batch.codes[0]);
      expect(again.bizData.code).toBe('exchange.used');
      expect(again.msg).toBe('This exchange code has already been exchanged');
      const other = await t.createUser();
      expect((await redeem(other.token, batch.codes[0])).bizData.code).toBe('exchange.used');
      // one entitlement for the code
      const rows = await t.db.db.selectFrom('entitlements').selectAll().where('source', '=', 'code').where('uid', 'in', [u.id, other.id]).execute();
      expect(rows).toHaveLength(1);
    });

    it('empty, unknown, void and expired codes are refused with their messages, nothing granted', async () => {
      const u = await t.createUser();
      for (const code of ['', '  ', '--']) {
        const r = await redeem(u.token, code);
        expect(r.bizData.code).toBe('exchange.empty');
        expect(r.msg).toBe('Exchange code cannot be empty');
      }
      expect((await t.call(P.exchange, {}, u.token, 'zh')).msg).toBe('兑换码不能为空');
      expect((await redeem(u.token, 'AAAA-BBBB-CCCC-DDDD')).bizData.code).toBe('exchange.unknown');
      expect((await redeem(u.token, 'not a code at all')).bizData.code).toBe('exchange.unknown');

      const voided = await codes.createBatch({ planCode: 'ML1', count: 2 });
      expect(await codes.voidCode(voided.codes[0])).toBe(true);
      expect((await redeem(u.token, voided.codes[0])).bizData.code).toBe('exchange.void');
      expect((await redeem(u.token, voided.codes[0], 'de')).msg).toBe('Dieser Einlösecode ist ungültig');

      // expiry at exactly expires_at, with an injected clock
      let now = Date.now();
      const clocked = createExchangeCodesService(t.deps, () => now);
      const expiring = await clocked.createBatch({ planCode: 'ML1', count: 2, expiresInDays: 10 });
      now += 10 * DAY;
      await expect(clocked.redeem(u.id, expiring.codes[0])).rejects.toMatchObject({ code: 'exchange.expired' });
      expect(await statuses(clocked, expiring.batchId, expiring.codes)).toEqual([ExchangeCodeStatus.EXPIRED, ExchangeCodeStatus.EXPIRED]);
      now -= 1;
      await expect(clocked.redeem(u.id, expiring.codes[1])).resolves.toMatchObject({ planCode: 'ML1' });
      expect(await statuses(clocked, expiring.batchId, expiring.codes)).toEqual([ExchangeCodeStatus.NOT_USED, ExchangeCodeStatus.EXCHANGED]);
      now += 1;
      expect(await statuses(clocked, expiring.batchId, expiring.codes)).toEqual([ExchangeCodeStatus.EXPIRED, ExchangeCodeStatus.EXCHANGED]);
      // a voided or used code cannot be voided again
      expect(await codes.voidCode(voided.codes[0])).toBe(false);
      expect(await codes.voidCode(expiring.codes[1])).toBe(false);
      const granted = await t.db.db.selectFrom('entitlements').selectAll().where('uid', '=', u.id).execute();
      expect(granted).toHaveLength(1);
    });

    it('one code redeemed by 20 clients at once succeeds exactly once', async () => {
      const { codes: [code] } = await codes.createBatch({ planCode: 'ML2', count: 1 });
      const users = await Promise.all(Array.from({ length: 20 }, () => t.createUser()));
      const answers = await Promise.all(users.map((u) => redeem(u.token, code)));
      const wins = answers.filter((a) => a.rtnCode === '0000000');
      expect(wins).toHaveLength(1);
      expect(answers.filter((a) => a.rtnCode !== '0000000').map((a) => a.bizData.code)).toEqual(Array(19).fill('exchange.used'));
      const rows = await t.db.db.selectFrom('entitlements').select('uid').where('source', '=', 'code').where('uid', 'in', users.map((u) => u.id)).execute();
      expect(rows).toHaveLength(1);
      const winner = users[answers.findIndex((a) => a.rtnCode === '0000000')];
      expect(rows[0].uid).toBe(winner.id);
      const row = await t.db.db.selectFrom('exchange_codes').selectAll().where('code_hash', '=', hashCode(normalizeCode(code))).executeTakeFirstOrThrow();
      expect([Number(row.status), row.redeemed_by]).toEqual([ExchangeCodeStatus.EXCHANGED, winner.id]);
    });

    it("the list shows the caller's own redeemed codes only, masked; an order's codes come back masked with their index", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const batch = await codes.createBatch({ planCode: 'SE10', count: 3, orderId: 'order-x' });
      await redeem(a.token, batch.codes[0]);
      await redeem(a.token, batch.codes[1]);
      const listA = (await t.call(P.exchangeList, {}, a.token)).bizData;
      expect(listA.total).toBe(2);
      expect(listA.list.map((r: { code: string }) => r.code).sort()).toEqual([batch.codes[0], batch.codes[1]].map((c) => `****-****-****-${c.slice(-4)}`).sort());
      expect(listA.list.every((r: { status: number; planCode: string }) => r.status === 1 && r.planCode === 'SE10')).toBe(true);
      expect((await t.call(P.exchangeList, {}, b.token)).bizData).toEqual({ total: 0, list: [] });
      expect((await t.call(P.exchangeList, {})).rtnCode).toBe('101');
      const records = await codes.exchangeCodeRecordsOf('order-x');
      expect(records.map((r) => r.index)).toEqual([1, 2, 3]);
      expect(records.map((r) => r.status).sort()).toEqual([0, 1, 1]);
      expect(records.every((r) => /^\*{4}-\*{4}-\*{4}-[A-Z2-9]{4}$/.test(r.code))).toBe(true);
      expect(await codes.exchangeCodeRecordsOf('no-such-order')).toEqual([]);
    });
  });
}
