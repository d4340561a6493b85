import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus as S, OrderType, PayWay } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createDatabase } from '../../infra/db/db.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createMembershipService, type MembershipService } from '../membership/membership.service.ts';
import { deliverSandboxNotification, type NotificationSender } from './orders.jobs.ts';
import { createOrdersService, type OrdersService } from './orders.service.ts';
import { SANDBOX_NOTIFY_JOB, SANDBOX_SIGNATURE_HEADER, signSandbox, type SandboxNotifyJob } from './providers/sandbox.provider.ts';
import { deliverQueued as deliverFromQueue, injectSender } from './test-delivery.ts';

const DAY = 86_400_000;
const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 1, 12);

/**
 * Orders on a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): each case of the table —
 * duplicate notifications, out of order (paid after cancel, refund before paid), forged signature, wrong amount, wrong
 * currency, unknown order, provider time-out → 7 — leaves exactly the right order and entitlement state.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`orders on ${driver.name}`, () => {
    let t: TestApp;
    let orders: OrdersService;
    let m: MembershipService;
    const logged: string[] = [];
    beforeAll(async () => {
      t = await createTestApp(driver);
      m = createMembershipService(t.deps);
      await m.ensureCatalog();
      orders = createOrdersService(t.deps, { membership: m, log: (msg) => logged.push(msg) });
    });
    afterAll(async () => t?.close());

    const inject: NotificationSender = (...a) => injectSender(t)(...a);
    /** A notification signed as the sandbox signs, posted to /order/v5/notify/sandbox. */
    const post = (body: object, signature?: string) => {
      const raw = JSON.stringify(body);
      return inject('http://x/order/v5/notify/sandbox', raw, { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature ?? signSandbox(t.deps.config.dataDir, raw) });
    };
    const deliverQueued = (send?: NotificationSender) => deliverFromQueue(t, send);
    const row = (id: string) => t.db.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const grants = (orderId: string) => t.db.db.selectFrom('entitlements').selectAll().where('source', '=', 'order').where('source_id', '=', orderId).execute();
    const paidEvent = (orderId: string, over: Record<string, unknown> = {}) => ({ eventId: `e-${Math.random()}`, orderId, tradeId: 'tr-1', kind: 'paid', amountMinor: 499, currency: 'USD', at: T0, ...over });
    async function newOrder(planCode = 'ML1', now = T0) {
      const u = await t.createUser();
      const r = await orders.create(u.id, { planCode, payWay: PayWay.ALIPAY, clientType: 11, mode: 'qr', currency: 'USD' }, { now });
      return { u, order: r.order, qr: r.qrPayload! };
    }

    it('create: the plan on sale in the currency, priced from the catalog; a QR payload that leads to the sandbox pay page; first vs renewal', async () => {
      const { u, order, qr } = await newOrder();
      expect(order).toMatchObject({ planCode: 'ML1', planKind: 'premium', status: S.UNPAID, payStatus: 0, orderType: OrderType.FIRST, payWay: 2, currency: 'USD', amount: 4.99, payAmount: 0, paidAt: null, exchangeCodes: [] });
      expect(qr).toBe(`${t.deps.config.publicUrl}/pay/sandbox/order/${order.orderId}`);
      expect(await row(order.orderId)).toMatchObject({ provider: 'sandbox', amount_minor: 499, expires_at: T0 + 30 * MIN });
      const redirect = await orders.create(u.id, { planCode: 'ML2', payWay: PayWay.WECHAT, clientType: 12, mode: 'redirect' }, { language: 'zh', now: T0 });
      expect(redirect).toMatchObject({ redirectUrl: expect.stringContaining('/pay/sandbox/order/'), order: { currency: 'CNY', amount: 158, payWay: 3 } });
      expect(redirect.qrPayload).toBeUndefined();
      await expect(orders.create(u.id, { planCode: 'TRIAL', payWay: 2, clientType: 11, mode: 'qr' })).rejects.toMatchObject({ code: 'order.notOnSale' });
      await expect(orders.create(u.id, { planCode: 'NOPE', payWay: 2, clientType: 11, mode: 'qr' })).rejects.toMatchObject({ code: 'membership.unknownPlan' });
      await expect(orders.create(u.id, { planCode: 'ML1', payWay: 7, clientType: 11, mode: 'qr' })).rejects.toMatchObject({ code: 'order.payWayRequired' });
      await m.grant(u.id, 'ML1', { source: 'admin', sourceId: `x-${u.id}` });
      expect((await orders.create(u.id, { planCode: 'ML2', payWay: 2, clientType: 11, mode: 'qr', currency: 'USD' })).order.orderType).toBe(OrderType.RENEWAL);
    });

    it('approve in the sandbox → a signed notification through the queue → paid, granted once; duplicates change nothing', async () => {
      const { u, order } = await newOrder();
      const sandbox = orders.providers.sandbox();
      expect(await sandbox.play(order.orderId, 'approve', T0 + MIN)).not.toBeNull();
      // approving alone does not touch the order: only the notification does
      expect((await row(order.orderId)).status).toBe(S.UNPAID);
      const [d] = await deliverQueued();
      expect(d).toMatchObject({ acknowledged: true, attempt: 0 });
      const paid = await row(order.orderId);
      expect(paid).toMatchObject({ status: S.PAID, pay_status: 1 });
      expect(Number(paid.pay_amount_minor)).toBe(499);
      const [g] = await grants(order.orderId);
      expect(g).toMatchObject({ uid: u.id, plan_code: 'ML1' });
      expect(Number(paid.service_ends_at)).toBe(Number(g.ends_at));
      expect(await m.may(u.id, 'conversion')).toBe(true);
      // the provider delivers the same event again (its retries), and a second approve does nothing
      const event = (await orders.eventsOf(order.orderId))[0];
      expect(event.outcome).toBe('applied');
      expect(await sandbox.play(order.orderId, 'approve')).toBeNull();
      const again = { eventId: event.event_id, orderId: order.orderId, tradeId: 'x', kind: 'paid', amountMinor: 499, currency: 'USD', at: T0 };
      for (let i = 0; i < 3; i++) expect(await post(again)).toEqual({ status: 200, body: 'success' });
      expect(await grants(order.orderId)).toHaveLength(1);
      expect(await orders.eventsOf(order.orderId)).toHaveLength(1);
      // a different event saying paid again: ignored
      await post(paidEvent(order.orderId));
      expect((await orders.eventsOf(order.orderId)).map((e) => e.outcome)).toEqual(['applied', 'ignored:already paid']);
      expect(await grants(order.orderId)).toHaveLength(1);
    });

    it('a forged signature is refused (400) and changes nothing; so is a notification signed with another secret', async () => {
      const { order } = await newOrder();
      const body = paidEvent(order.orderId);
      expect((await post(body, 'f'.repeat(64))).status).toBe(400);
      expect((await post(body, 'not-hex')).status).toBe(400);
      const raw = JSON.stringify(body);
      const tampered = JSON.stringify({ ...body, amountMinor: 1 });
      expect((await inject('http://x/order/v5/notify/sandbox', tampered, { [SANDBOX_SIGNATURE_HEADER]: signSandbox(t.deps.config.dataDir, raw) })).status).toBe(400);
      expect((await row(order.orderId)).status).toBe(S.UNPAID);
      expect(await grants(order.orderId)).toHaveLength(0);
      expect(await orders.eventsOf(order.orderId)).toHaveLength(0);
      expect((await inject('http://x/order/v5/notify/nosuch', raw, {})).status).toBe(404);
    });

    it('wrong amount and wrong currency: the order fails (4), nothing is granted, the event is recorded and acknowledged', async () => {
      const a = await newOrder();
      expect(await post(paidEvent(a.order.orderId, { amountMinor: 1 }))).toEqual({ status: 200, body: 'success' });
      expect(await row(a.order.orderId)).toMatchObject({ status: S.FAILED, pay_status: 0, note: 'wrong amount: 1 USD' });
      expect(await grants(a.order.orderId)).toHaveLength(0);
      const b = await newOrder();
      await post(paidEvent(b.order.orderId, { currency: 'EUR' }));
      expect(await row(b.order.orderId)).toMatchObject({ status: S.FAILED, note: 'wrong currency: 499 EUR' });
      expect(await grants(b.order.orderId)).toHaveLength(0);
      expect((await orders.eventsOf(b.order.orderId))[0].outcome).toBe('rejected:wrong currency');
      expect((await orders.eventsOf(a.order.orderId))[0].outcome).toBe('rejected:wrong amount');
    });

    it('unknown order: acknowledged, recorded as rejected, no order and no entitlement appear', async () => {
      expect(await post(paidEvent('no-such-order'))).toEqual({ status: 200, body: 'success' });
      expect(await t.db.db.selectFrom('orders').selectAll().where('id', '=', 'no-such-order').execute()).toHaveLength(0);
      expect(await grants('no-such-order')).toHaveLength(0);
      expect((await orders.eventsOf('no-such-order'))[0].outcome).toBe('rejected:unknown order');
    });

    it('out of order: paid after cancel → paid and granted; paid after the time-out → paid and granted', async () => {
      const a = await newOrder();
      expect((await orders.cancel(a.u.id, a.order.orderId, { language: 'en', now: T0 + MIN })).status).toBe(S.CANCELLED);
      expect((await orders.providers.sandbox().payment(a.order.orderId))!.state).toBe('closed');
      await post(paidEvent(a.order.orderId));
      expect(await row(a.order.orderId)).toMatchObject({ status: S.PAID, note: 'paid after the order was cancelled' });
      expect(await grants(a.order.orderId)).toHaveLength(1);

      const b = await newOrder();
      expect(await orders.sweepTimeouts(T0 + 31 * MIN)).toBeGreaterThanOrEqual(1);
      expect((await row(b.order.orderId)).status).toBe(S.TIMED_OUT);
      await post(paidEvent(b.order.orderId));
      expect(await row(b.order.orderId)).toMatchObject({ status: S.PAID, note: 'paid after the order timed out' });
      expect(await grants(b.order.orderId)).toHaveLength(1);
    });

    it('out of order: refund before paid → refunded, and the late paid grants nothing; a refund of a paid order ends its period', async () => {
      const a = await newOrder();
      await post(paidEvent(a.order.orderId, { kind: 'refunded' }));
      expect((await row(a.order.orderId)).status).toBe(S.REFUNDED);
      await post(paidEvent(a.order.orderId));
      expect((await row(a.order.orderId)).status).toBe(S.REFUNDED);
      expect(await grants(a.order.orderId)).toHaveLength(0);
      expect(await m.may(a.u.id, 'conversion')).toBe(false);

      const b = await newOrder('ML1', Date.now());
      await post(paidEvent(b.order.orderId, { at: Date.now() }));
      expect(await m.may(b.u.id, 'conversion')).toBe(true);
      await orders.providers.sandbox().play(b.order.orderId, 'approve');
      await deliverQueued();
      await orders.providers.byName('sandbox')!.refund({ orderId: b.order.orderId, amountMinor: 499, currency: 'USD', reason: 'test' });
      await deliverQueued();
      expect((await row(b.order.orderId)).status).toBe(S.REFUNDED);
      expect(await m.may(b.u.id, 'conversion')).toBe(false);
    });

    it('provider time-out (the payer let it close) → 7; a decline → 4; neither grants', async () => {
      const a = await newOrder();
      await orders.providers.sandbox().play(a.order.orderId, 'timeout');
      await deliverQueued();
      expect((await row(a.order.orderId)).status).toBe(S.TIMED_OUT);
      const b = await newOrder();
      await orders.providers.sandbox().play(b.order.orderId, 'decline');
      await deliverQueued();
      expect((await row(b.order.orderId)).status).toBe(S.FAILED);
      expect([...(await grants(a.order.orderId)), ...(await grants(b.order.orderId))]).toHaveLength(0);
    });

    it('the sandbox refuses to take money after the payment\'s expiry: an approve then closes it (→ 7)', async () => {
      const { order } = await newOrder('ML1', Date.now() - 31 * MIN);
      await orders.providers.sandbox().play(order.orderId, 'approve');
      await deliverQueued();
      expect((await row(order.orderId)).status).toBe(S.TIMED_OUT);
      expect(await grants(order.orderId)).toHaveLength(0);
    });

    it('our time-out: an unpaid order past ORDER_PAY_MINUTES → 7 and its payment closed; one paid meanwhile (notification lost) → paid', async () => {
      const a = await newOrder();
      const b = await newOrder();
      await orders.providers.sandbox().play(b.order.orderId, 'approve', T0 + MIN);
      await t.db.db.deleteFrom('jobs').where('name', '=', SANDBOX_NOTIFY_JOB).execute(); // the notification is lost
      expect(await orders.sweepTimeouts(T0 + 29 * MIN)).toBe(0);
      expect((await row(a.order.orderId)).status).toBe(S.UNPAID);
      await orders.sweepTimeouts(T0 + 30 * MIN);
      expect((await row(a.order.orderId)).status).toBe(S.TIMED_OUT);
      expect((await orders.providers.sandbox().payment(a.order.orderId))!.state).toBe('closed');
      expect(await orders.providers.sandbox().play(a.order.orderId, 'approve')).toBeNull();
      expect((await row(b.order.orderId)).status).toBe(S.PAID);
      expect(await grants(b.order.orderId)).toHaveLength(1);
    });

    it('cancel: only unpaid or confirming; otherwise "Cannot cancel the order of {0}" with the status name', async () => {
      const a = await newOrder();
      await post(paidEvent(a.order.orderId));
      await expect(orders.cancel(a.u.id, a.order.orderId, { language: 'en' })).rejects.toMatchObject({ code: 'order.cannotCancel', args: ['paid successfully'] });
      const r = await t.call('/order/v5/cancel', { orderId: a.order.orderId }, (await t.createUser()).token);
      expect(r.bizData.code).toBe('order.notFound');
    });

    it('status poll: a lost notification is found by asking the provider, at most every ORDER_QUERY_SECONDS', async () => {
      const a = await newOrder();
      await orders.providers.sandbox().play(a.order.orderId, 'approve', T0 + MIN);
      await t.db.db.deleteFrom('jobs').where('name', '=', SANDBOX_NOTIFY_JOB).execute();
      const now = Date.now();
      await t.db.db.updateTable('orders').set({ queried_at: now - 1000 }).where('id', '=', a.order.orderId).execute();
      expect((await orders.status(a.u.id, a.order.orderId, now)).status).toBe(S.UNPAID); // asked 1 s ago: not again
      expect(await orders.status(a.u.id, a.order.orderId, now + 5000)).toEqual({ orderId: a.order.orderId, status: S.PAID, payStatus: 1 });
      expect(await grants(a.order.orderId)).toHaveLength(1);
    });

    it('10 parallel deliveries of one paid notification grant exactly once', async () => {
      const { u, order } = await newOrder();
      await orders.providers.sandbox().play(order.orderId, 'approve', T0 + MIN);
      const [job] = await t.db.db.selectFrom('jobs').selectAll().where('name', '=', SANDBOX_NOTIFY_JOB).where('state', '=', 'waiting').execute();
      await t.db.db.deleteFrom('jobs').where('id', '=', job.id).execute();
      const payload = JSON.parse(job.payload) as SandboxNotifyJob;
      const results = await Promise.all(Array.from({ length: 10 }, () => deliverSandboxNotification(t.deps, payload, inject)));
      expect(results.every((r) => r.acknowledged)).toBe(true);
      expect(await grants(order.orderId)).toHaveLength(1);
      expect((await m.entitlementsOf(u.id)).filter((e) => e.plan_code === 'ML1')).toHaveLength(1);
      expect((await orders.eventsOf(order.orderId)).map((e) => e.outcome)).toEqual(['applied']);
      // and 10 distinct events (the notification and queries) racing: still one grant
      const b = await newOrder();
      await Promise.all(Array.from({ length: 10 }, (_, i) => post(paidEvent(b.order.orderId, { eventId: `race-${b.order.orderId}-${i}` }))));
      expect(await grants(b.order.orderId)).toHaveLength(1);
      expect((await orders.eventsOf(b.order.orderId)).filter((e) => e.outcome === 'applied')).toHaveLength(1);
    });

    // PostgreSQL only: two better-sqlite3 handles in one process block the one thread (a writer waiting on busy_timeout
    // holds up the other's commit); on SQLite separate processes serialize on BEGIN IMMEDIATE (serialized-transaction.ts)
    it.skipIf(driver.name === 'sqlite')('two servers on one database (their own connection pools) applying one payment\'s events at once grant exactly once', async () => {
      // a second server process: its own pool on the same database
      const db2 = createDatabase(t.db.url, { searchPath: t.db.searchPath, poolSize: 5 });
      try {
        const other = createOrdersService({ ...t.deps, db: db2 }, { log: () => {} });
        const { order } = await newOrder();
        const events = Array.from({ length: 10 }, (_, i) => ({ eventId: `two-${order.orderId}-${i % 3}`, orderId: order.orderId, providerTradeId: 't', kind: 'paid' as const, amountMinor: 499, currency: 'USD' as const, at: T0 }));
        const results = await Promise.all(events.map((e, i) => (i % 2 ? other : orders).applyEvent('sandbox', e)));
        expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1);
        expect(await grants(order.orderId)).toHaveLength(1);
        expect((await orders.eventsOf(order.orderId)).map((e) => e.event_id).sort()).toEqual([0, 1, 2].map((i) => `two-${order.orderId}-${i}`));
      } finally {
        await db2.destroy();
      }
    });

    it('a renewal bought during the running period stacks after it', async () => {
      const { u, order } = await newOrder('ML1', T0);
      await orders.applyEvent('sandbox', { ...paidEvent(order.orderId), kind: 'paid', providerTradeId: null, at: T0 } as never, T0);
      expect(Number((await row(order.orderId)).service_ends_at)).toBe(T0 + 30 * DAY);
      const renewal = await orders.create(u.id, { planCode: 'ML1', payWay: 3, clientType: 11, mode: 'qr', currency: 'USD' }, { now: T0 + 29 * DAY });
      expect(renewal.order.orderType).toBe(OrderType.RENEWAL);
      await orders.applyEvent('sandbox', { eventId: `r-${renewal.order.orderId}`, orderId: renewal.order.orderId, providerTradeId: null, kind: 'paid', amountMinor: 499, currency: 'USD', at: T0 + 29 * DAY }, T0 + 29 * DAY);
      expect(Number((await row(renewal.order.orderId)).service_ends_at)).toBe(T0 + 60 * DAY);
      expect((await m.rightsOf(u.id, T0 + 45 * DAY)).vipInfo).toEqual({ goodsCodes: ['ML1'], serverEndTimeStamp: T0 + 60 * DAY });
      // the first order shows as service expired (3) once its own period is over
      expect((await orders.detail(u.id, order.orderId, T0 + 31 * DAY)).status).toBe(S.EXPIRED);
      expect((await orders.list(u.id, { pageNo: 1, pageSize: 10, status: S.EXPIRED }, T0 + 31 * DAY)).orders.map((o) => o.orderId)).toEqual([order.orderId]);
    });

    it('the plan version bought is the one granted, whatever the operator changed before the payment arrived', async () => {
      const { u, order } = await newOrder('SE10');
      expect(order.amount).toBe(1.49);
      await m.editPlan('SE10', { durationDays: 60, prices: { USD: 2.99 } });
      await post(paidEvent(order.orderId, { amountMinor: 149 }));
      const [g] = await grants(order.orderId);
      expect(g).toMatchObject({ uid: u.id, plan_code: 'SE10', plan_version: 1 });
      expect(Number(g.ends_at) - Number(g.starts_at)).toBe(30 * DAY);
    });

    it('a notification not acknowledged is retried on the schedule (4 s first), by predictable job ids', async () => {
      const { order } = await newOrder();
      await orders.providers.sandbox().play(order.orderId, 'approve', T0 + MIN);
      const down: NotificationSender = async () => ({ status: 500, body: 'oops' });
      expect((await deliverQueued(down))[0]).toMatchObject({ acknowledged: false, nextInMs: 4000 });
      const [next] = await t.db.db.selectFrom('jobs').selectAll().where('name', '=', SANDBOX_NOTIFY_JOB).where('state', '=', 'waiting').execute();
      expect(next.id).toMatch(/-1$/);
      expect((await deliverQueued(async () => { throw new Error('refused'); }))[0]).toMatchObject({ acknowledged: false, nextInMs: 120_000 });
      expect((await deliverQueued())[0]).toMatchObject({ acknowledged: true, attempt: 2 });
      expect((await row(order.orderId)).status).toBe(S.PAID);
    });
  });
}
