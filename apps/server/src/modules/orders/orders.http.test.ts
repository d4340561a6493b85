import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus as S } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { deliverQueued } from './test-delivery.ts';
import { createExchangeCodesService } from '../exchange-codes/exchange-codes.service.ts';

/** The whole purchase over HTTP: create → the sandbox's pay page → approve → the signed notification → paid, rights raised. */
for (const driver of testDatabaseDrivers()) {
  describe(`orders over HTTP on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());

    /** The sandbox's queued notifications, delivered now by the job's handler. */
    const deliver = async () => (await deliverQueued(t)).length;

    it('buy premium by QR: create, approve in the sandbox (JSON), the notification arrives, status 1, vipInfo and rights raised', async () => {
      const u = await t.createUser();
      const before = (await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData;
      expect(before.rights.conversion).toBe(false);
      const created = await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr' }, u.token, 'en');
      expect(created.rtnCode).toBe('0000000');
      const { order, qrPayload } = created.bizData;
      expect(order).toMatchObject({ status: 0, currency: 'USD', amount: 4.99, planCode: 'ML1' });
      const page = await t.app.inject({ method: 'GET', url: new URL(qrPayload).pathname + '?lang=en' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('4.99 USD');
      expect(page.body).toContain('data-testid="sandbox-approve"');
      expect(page.body).not.toMatch(/<script|https?:\/\/(?!127|localhost)/);

      const approved = await t.app.inject({ method: 'POST', url: '/pay/sandbox/approve', payload: { orderId: order.orderId } });
      expect(approved.json()).toEqual({ orderId: order.orderId, state: 'paid', notified: true });
      // approving alone changes nothing here (detail does not ask the provider; status would)
      expect((await t.call('/order/v5/detail', { orderId: order.orderId }, u.token)).bizData.status).toBe(S.UNPAID);
      expect(await deliver()).toBe(1);
      expect((await t.call('/order/v5/detail', { orderId: order.orderId }, u.token)).bizData.status).toBe(S.PAID);
      expect((await t.call('/order/v5/status', { orderId: order.orderId }, u.token)).bizData).toEqual({ orderId: order.orderId, status: S.PAID, payStatus: 1 });
      const after = (await t.call('/user/v5/sysuser/userInfo', {}, u.token)).bizData;
      expect(after.vipInfo.goodsCodes).toEqual(['ML1']);
      expect(after.vipInfo.serverEndTimeStamp).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      expect(after.rights.conversion).toBe(true);
      expect(after.storage.total).toBe(before.storage.total + 5 * 1024 ** 3);
      const detail = (await t.call('/order/v5/detail', { orderId: order.orderId }, u.token)).bizData;
      expect(detail).toMatchObject({ status: 1, payAmount: 4.99, exchangeCodes: [] });
      // codes the operator attaches to the order (admin `code create --order`) show in its detail, masked; one redeemed
      const codes = createExchangeCodesService(t.deps);
      const made = await codes.createBatch({ planCode: 'ML1', count: 2, orderId: order.orderId });
      await t.call('/order/v5/exchange', { code: made.codes[1] }, (await t.createUser()).token);
      const withCodes = (await t.call('/order/v5/detail', { orderId: order.orderId }, u.token)).bizData.exchangeCodes;
      expect(withCodes.map((c: { index: number }) => c.index)).toEqual([1, 2]);
      const last4 = (code: string) => code.replace(/[^A-Z0-9]/g, '').slice(-4);
      const byEnd = Object.fromEntries(withCodes.map((c: { code: string; status: number }) => [last4(c.code), c.status]));
      expect(byEnd).toEqual({ [last4(made.codes[0])]: 0, [last4(made.codes[1])]: 1 });
      expect(JSON.stringify(withCodes)).not.toContain(made.codes[0]);
      // cancelling now: refused with the status's name
      const refused = await t.call('/order/v5/cancel', { orderId: order.orderId }, u.token, 'en');
      expect(refused).toMatchObject({ bizData: { code: 'order.cannotCancel' }, msg: 'Cannot cancel the order of paid successfully' });
      expect((await t.call('/order/v5/cancel', { orderId: order.orderId }, u.token, 'zh')).msg).toBe('无法取消支付成功的订单');
    });

    it('buy by redirect: the page\'s Approve form goes back to the pay-success page; decline and time-out forms show the result', async () => {
      const u = await t.createUser();
      const { order, redirectUrl } = (await t.call('/order/v5/create', { planCode: 'ML2', payWay: 3, clientType: 11, mode: 'redirect' }, u.token, 'zh')).bizData;
      expect(order).toMatchObject({ currency: 'CNY', amount: 158 });
      const form = (path: string, orderId: string) => t.app.inject({ method: 'POST', url: path, payload: `orderId=${encodeURIComponent(orderId)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect((await t.app.inject({ method: 'GET', url: new URL(redirectUrl).pathname, headers: { 'accept-language': 'zh-CN' } })).body).toContain('同意付款');
      const r = await form('/pay/sandbox/approve', order.orderId);
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toBe(`${t.deps.config.publicUrl}/yun/order?paid=${order.orderId}`);
      await deliver();
      expect((await t.call('/order/v5/status', { orderId: order.orderId }, u.token)).bizData.status).toBe(S.PAID);

      const other = (await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 12, mode: 'qr' }, u.token)).bizData.order;
      const declined = await form('/pay/sandbox/decline', other.orderId);
      expect(declined.headers.location).toMatch(`/pay/sandbox/order/${other.orderId}`);
      await deliver();
      expect((await t.call('/order/v5/detail', { orderId: other.orderId }, u.token)).bizData.status).toBe(S.FAILED);
      const third = (await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 12, mode: 'qr' }, u.token)).bizData.order;
      await form('/pay/sandbox/timeout', third.orderId);
      await deliver();
      expect((await t.call('/order/v5/detail', { orderId: third.orderId }, u.token)).bizData.status).toBe(S.TIMED_OUT);
      // the list: newest first, paged, filtered, own orders only
      const all = (await t.call('/order/v5/list', { pageNo: 1, pageSize: 2 }, u.token)).bizData;
      expect(all.total).toBe(3);
      expect(all.orders.map((o: { orderId: string }) => o.orderId)).toEqual([third.orderId, other.orderId]);
      expect((await t.call('/order/v5/list', { pageNo: 2, pageSize: 2 }, u.token)).bizData.orders.map((o: { orderId: string }) => o.orderId)).toEqual([order.orderId]);
      expect((await t.call('/order/v5/list', { status: S.FAILED }, u.token)).bizData.orders.map((o: { orderId: string }) => o.orderId)).toEqual([other.orderId]);
      expect((await t.call('/order/v5/list', {}, (await t.createUser()).token)).bizData).toEqual({ total: 0, orders: [] });
    });

    it('cancel an unpaid order: status 2, its sandbox payment closed (a later approve does nothing)', async () => {
      const u = await t.createUser();
      const { order } = (await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 11 }, u.token)).bizData;
      expect((await t.call('/order/v5/cancel', { orderId: order.orderId }, u.token)).bizData.status).toBe(S.CANCELLED);
      expect((await t.app.inject({ method: 'POST', url: '/pay/sandbox/approve', payload: { orderId: order.orderId } })).json()).toMatchObject({ state: 'closed', notified: false });
      expect(await deliver()).toBe(0);
    });

    it('validation: no pay way → the payment-choice message; unsigned → 101; the endpoints are in the API document', async () => {
      const u = await t.createUser();
      expect((await t.call('/order/v5/create', { planCode: 'ML1', payWay: 0, clientType: 11 }, u.token, 'en')).msg).toBe('Please choose a payment method');
      for (const p of ['/order/v5/create', '/order/v5/list', '/order/v5/detail', '/order/v5/cancel', '/order/v5/status']) expect((await t.call(p, {})).rtnCode, p).toBe('101');
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['/order/v5/create', '/order/v5/list', '/order/v5/detail', '/order/v5/cancel', '/order/v5/status', '/order/v5/notify/{provider}', '/pay/sandbox/approve', '/pay/sandbox/order/{orderId}']) expect(doc.paths[p], p).toBeTruthy();
    });
  });
}

describe('sandbox switched off', () => {
  it('with no pay way on the sandbox its pages and payer actions are 404, and an order the provider cannot start fails to be created', async () => {
    const [driver] = testDatabaseDrivers();
    // Alipay behind both pay ways, its gateway unreachable (nothing listens on port 9)
    const key = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ format: 'pem', type }).toString();
    const alipay = { ALIPAY_APP_ID: '2021000000000001', ALIPAY_PRIVATE_KEY: pem(key().privateKey, 'pkcs8'), ALIPAY_PUBLIC_KEY: pem(key().publicKey, 'spki'), ALIPAY_GATEWAY: 'http://127.0.0.1:9/gateway.do' };
    const t = await createTestApp(driver, { PAY_ALIPAY_PROVIDER: 'alipay', PAY_WECHAT_PROVIDER: 'alipay', ...alipay });
    try {
      const u = await t.createUser();
      const r = await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 11, currency: 'CNY' }, u.token, 'en');
      expect(r).toMatchObject({ bizData: { code: 'order.createFailed' }, msg: 'Failed to create order' });
      expect((await t.app.inject({ method: 'POST', url: '/pay/sandbox/approve', payload: { orderId: 'x' } })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/pay/sandbox/order/x' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
