import { createServer, type Server } from 'node:http';
import { createCipheriv, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFrom } from '../../../infra/config/config.ts';
import { createWechatProvider, type WechatCreatePaymentInput } from './wechat.provider.ts';
import { NotificationRejected, type PaymentProvider } from './payment-provider.ts';
import { providersConfig, wechatOptionsFrom } from './providers.config.ts';

/**
 * WeChat Pay v3 has no sandbox at all, so the test plays WeChat Pay: it holds the platform key pair of public-key
 * mode, signs notifications over "timestamp\nnonce\nbody\n" and encrypts their resource with AES-256-GCM under the
 * APIv3 key (with node:crypto, not the library under test), and runs a local API that checks each request's
 * WECHATPAY2-SHA256-RSA2048 signature against our merchant key and answers signed.
 */
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = rsa();
const platform = rsa();
const stranger = rsa();
const MCHID = '1900000109';
const APPID = 'wxd678efh567hg6787';
const PUB_KEY_ID = 'PUB_KEY_ID_0119000001092025112700000000000001';
const APIV3_KEY = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';
const NOW = Date.parse('2026-11-27T12:00:10Z');
const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ format: 'pem', type: type as 'pkcs8' }).toString();

const transaction = (over: Record<string, unknown> = {}) => ({
  appid: APPID,
  mchid: MCHID,
  out_trade_no: 'ORD20261127000001',
  transaction_id: '4200000000202611270000000001',
  trade_type: 'NATIVE',
  trade_state: 'SUCCESS',
  trade_state_desc: '支付成功',
  bank_type: 'OTHERS',
  success_time: '2026-11-27T20:00:00+08:00',
  payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
  amount: { total: 1500, payer_total: 1500, currency: 'CNY', payer_currency: 'CNY' },
  ...over,
});

function encrypt(plain: string, key: string, nonce: string, aad: string): string {
  const c = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce)).setAAD(Buffer.from(aad));
  return Buffer.concat([c.update(plain, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

interface NoticeOptions {
  id?: string;
  eventType?: string;
  ts?: number;
  key?: KeyObject;
  apiV3Key?: string;
  serial?: string;
  body?: string;
}
function notice(resource: object, o: NoticeOptions = {}) {
  const rnonce = randomBytes(6).toString('hex');
  const body =
    o.body ??
    JSON.stringify({
      id: o.id ?? 'EV-2018022511223320873',
      create_time: '2026-11-27T20:00:05+08:00',
      resource_type: 'encrypt-resource',
      event_type: o.eventType ?? 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: encrypt(JSON.stringify(resource), o.apiV3Key ?? APIV3_KEY, rnonce, 'transaction'), associated_data: 'transaction', nonce: rnonce },
    });
  const ts = String(o.ts ?? Math.floor(NOW / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = sign('sha256', Buffer.from(`${ts}\n${nonce}\n${body}\n`), o.key ?? platform.privateKey).toString('base64');
  return {
    rawBody: body,
    headers: { 'wechatpay-timestamp': ts, 'wechatpay-nonce': nonce, 'wechatpay-signature': signature, 'wechatpay-serial': o.serial ?? PUB_KEY_ID, 'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048' },
  };
}

/** The local stand-in for api.mch.weixin.qq.com. */
interface ApiCall {
  method: string;
  path: string;
  body: Record<string, any> | null;
  signedByMerchant: boolean;
}
let server: Server;
let gateway: string;
const calls: ApiCall[] = [];
let answer: (c: ApiCall) => { status: number; body?: object } = () => ({ status: 500, body: { code: 'SYSTEM_ERROR', message: 'no answer set' } });
let answerKey: KeyObject = platform.privateKey;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      // Authorization: WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",signature="…",timestamp="…",serial_no="…"
      const auth = Object.fromEntries([...(req.headers.authorization ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      const message = `${req.method}\n${req.url}\n${auth.timestamp}\n${auth.nonce_str}\n${raw}\n`;
      const signedByMerchant =
        req.headers.authorization?.startsWith('WECHATPAY2-SHA256-RSA2048 ') === true &&
        auth.mchid === MCHID &&
        auth.serial_no === 'MERCHANT-SERIAL-01' &&
        verify('sha256', Buffer.from(message), merchant.publicKey, Buffer.from(auth.signature ?? '', 'base64'));
      const call: ApiCall = { method: req.method!, path: req.url!, body: raw ? JSON.parse(raw) : null, signedByMerchant };
      calls.push(call);
      const a = signedByMerchant ? answer(call) : { status: 401, body: { code: 'SIGN_ERROR', message: '签名错误' } };
      const text = a.body ? JSON.stringify(a.body) : '';
      const ts = String(Math.floor(Date.now() / 1000));
      const nonce = randomBytes(16).toString('hex');
      res.writeHead(a.status, {
        'content-type': 'application/json',
        'wechatpay-timestamp': ts,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': PUB_KEY_ID,
        'wechatpay-signature': sign('sha256', Buffer.from(`${ts}\n${nonce}\n${text}\n`), answerKey).toString('base64'),
      });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const baseEnv = () => ({
  WECHAT_PAY_MCHID: MCHID,
  WECHAT_PAY_APPID: APPID,
  WECHAT_PAY_MERCHANT_SERIAL: 'MERCHANT-SERIAL-01',
  WECHAT_PAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8'),
  WECHAT_PAY_PUBLIC_KEY_ID: PUB_KEY_ID,
  WECHAT_PAY_PUBLIC_KEY: pem(platform.publicKey, 'spki'),
  WECHAT_PAY_APIV3_KEY: APIV3_KEY,
  WECHAT_PAY_GATEWAY: gateway,
});
function provider(now = NOW, env: Record<string, string> = {}): PaymentProvider {
  return createWechatProvider(wechatOptionsFrom(loadConfigFrom(providersConfig, { ...baseEnv(), ...env }))!, { now: () => now });
}
const order: WechatCreatePaymentInput = { orderId: 'ORD20261127000001', amountMinor: 1500, currency: 'CNY', subject: '高级会员 月付', mode: 'qr', publicBaseUrl: 'https://cad.example.com', returnUrl: 'https://cad.example.com/webH5/order', expiresAt: Date.parse('2026-11-27T12:30:00Z') };

describe('wechat pay notifications', () => {
  it('verifies, decrypts and reads a payment notification into a paid event in fen', async () => {
    expect(await provider().parseNotification(notice(transaction()))).toEqual({
      eventId: 'wechat:EV-2018022511223320873',
      orderId: 'ORD20261127000001',
      providerTradeId: '4200000000202611270000000001',
      kind: 'paid',
      amountMinor: 1500,
      currency: 'CNY',
      at: Date.parse('2026-11-27T12:00:00Z'),
    });
  });

  it('maps CLOSED, REFUND, PAYERROR, and a refund notice', async () => {
    const p = provider();
    expect((await p.parseNotification(notice(transaction({ trade_state: 'CLOSED' })))).kind).toBe('closed');
    expect((await p.parseNotification(notice(transaction({ trade_state: 'REFUND' })))).kind).toBe('refunded');
    expect((await p.parseNotification(notice(transaction({ trade_state: 'PAYERROR' })))).kind).toBe('failed');
    const refund = { mchid: MCHID, out_trade_no: 'ORD20261127000001', transaction_id: '4200000000202611270000000001', out_refund_no: 'ORD20261127000001-refund', refund_id: '50000000382019052709732678859', refund_status: 'SUCCESS', success_time: '2026-11-28T09:00:00+08:00', amount: { total: 1500, refund: 1500, payer_total: 1500, payer_refund: 1500 } };
    expect(await p.parseNotification(notice(refund, { eventType: 'REFUND.SUCCESS', id: 'EV-R1' }))).toMatchObject({ eventId: 'wechat:EV-R1', kind: 'refunded', amountMinor: 1500 });
    expect((await p.parseNotification(notice({ ...refund, refund_status: 'ABNORMAL' }, { eventType: 'REFUND.ABNORMAL' }))).kind).toBe('pending');
    await expect(p.parseNotification(notice({ ...refund, mchid: '1900000999' }, { eventType: 'REFUND.SUCCESS' }))).rejects.toBeInstanceOf(NotificationRejected);
  });

  it('rejects a tampered amount (re-encrypted under the old signature)', async () => {
    const good = notice(transaction());
    const forged = notice(transaction({ amount: { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' } }));
    await expect(provider().parseNotification({ headers: good.headers, rawBody: forged.rawBody })).rejects.toThrow(/signature/);
  });

  it('rejects a notification signed with another key, or naming a key we do not have', async () => {
    await expect(provider().parseNotification(notice(transaction(), { key: stranger.privateKey }))).rejects.toThrow(/signature/);
    await expect(provider().parseNotification(notice(transaction(), { serial: 'PUB_KEY_ID_OTHER' }))).rejects.toBeInstanceOf(NotificationRejected);
  });

  it('rejects a resource that was not encrypted with our APIv3 key', async () => {
    await expect(provider().parseNotification(notice(transaction(), { apiV3Key: 'Z'.repeat(32) }))).rejects.toThrow(/decrypt/);
  });

  it('rejects a genuine notification for another merchant or another app', async () => {
    await expect(provider().parseNotification(notice(transaction({ mchid: '1900000999' })))).rejects.toThrow(/another merchant/);
    await expect(provider().parseNotification(notice(transaction({ appid: 'wx0000000000000000' })))).rejects.toThrow(/another merchant/);
  });

  it('rejects a stale (or future) timestamp beyond 5 minutes, accepts one within', async () => {
    const ts = Math.floor(NOW / 1000);
    await expect(provider().parseNotification(notice(transaction(), { ts: ts - 301 }))).rejects.toThrow(/stale/);
    await expect(provider().parseNotification(notice(transaction(), { ts: ts + 301 }))).rejects.toThrow(/stale/);
    expect((await provider().parseNotification(notice(transaction(), { ts: ts - 299 }))).kind).toBe('paid');
  });

  it('rejects malformed notifications', async () => {
    const p = provider();
    for (const body of ['', 'not json', '{}', '{"id":"EV-1","resource":{"algorithm":"AEAD_AES_256_GCM"}}']) {
      await expect(p.parseNotification(notice(transaction(), { body })), body).rejects.toBeInstanceOf(NotificationRejected);
    }
    await expect(p.parseNotification({ headers: {}, rawBody: notice(transaction()).rawBody })).rejects.toBeInstanceOf(NotificationRejected);
    await expect(p.parseNotification(notice(transaction({ amount: { total: '15.00', currency: 'CNY' } })))).rejects.toThrow(/amount/);
    await expect(p.parseNotification(notice(transaction({ amount: { total: 1500, currency: 'USD' } })))).rejects.toThrow(/currency/);
    await expect(p.parseNotification(notice(transaction({ trade_state: 'SOMETHING' })))).rejects.toBeInstanceOf(NotificationRejected);
  });

  it('acknowledges with 204, and fails with 500 {code:FAIL}', () => {
    expect(provider().acknowledge(true)).toMatchObject({ status: 204, body: '' });
    const fail = provider().acknowledge(false);
    expect([fail.status, JSON.parse(fail.body).code]).toEqual([500, 'FAIL']);
  });
});

describe('wechat pay API calls', () => {
  it('creates a Native (QR) payment signed with our merchant key, amount in fen', async () => {
    calls.length = 0;
    answer = () => ({ status: 200, body: { code_url: 'weixin://wxpay/bizpayurl/up?pr=NwY5Mz9&groupid=00' } });
    expect(await provider().createPayment(order)).toEqual({ qrPayload: 'weixin://wxpay/bizpayurl/up?pr=NwY5Mz9&groupid=00' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/v3/pay/transactions/native',
      signedByMerchant: true,
      body: { appid: APPID, mchid: MCHID, out_trade_no: order.orderId, description: '高级会员 月付', notify_url: 'https://cad.example.com/order/v5/notify/wechat', time_expire: '2026-11-27T20:30:00+08:00', amount: { total: 1500, currency: 'CNY' } },
    });
  });

  it('refuses an answer not signed by WeChat Pay', async () => {
    answer = () => ({ status: 200, body: { code_url: 'weixin://evil' } });
    answerKey = stranger.privateKey;
    try {
      await expect(provider().createPayment(order)).rejects.toMatchObject({ code: 'EV3_RES_HEADER_SIGNATURE_DIGEST' });
    } finally {
      answerKey = platform.privateKey;
    }
  });

  it("creates an H5 (redirect) payment with the payer's IP and the way back", async () => {
    calls.length = 0;
    answer = () => ({ status: 200, body: { h5_url: 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016&package=2150917749' } });
    const h5: WechatCreatePaymentInput = { ...order, mode: 'redirect', payerIp: '203.0.113.7' };
    const res = await provider().createPayment(h5);
    expect(res.redirectUrl).toBe(`https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016&package=2150917749&redirect_url=${encodeURIComponent(order.returnUrl)}`);
    expect(calls[0]).toMatchObject({ path: '/v3/pay/transactions/h5', signedByMerchant: true, body: { amount: { total: 1500 }, scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } } } });
    await expect(provider().createPayment({ ...order, mode: 'redirect' })).rejects.toThrow(/IP/);
    await expect(provider().createPayment({ ...order, currency: 'EUR' })).rejects.toThrow(/CNY/);
  });

  it('queries by out_trade_no, and answers null for an order WeChat does not know', async () => {
    calls.length = 0;
    answer = () => ({ status: 200, body: transaction() });
    expect(await provider().query(order.orderId)).toMatchObject({ kind: 'paid', amountMinor: 1500, providerTradeId: '4200000000202611270000000001', eventId: 'wechat:query:4200000000202611270000000001:SUCCESS' });
    expect(calls[0]).toMatchObject({ method: 'GET', path: `/v3/pay/transactions/out-trade-no/${order.orderId}?mchid=${MCHID}`, signedByMerchant: true });
    answer = () => ({ status: 200, body: transaction({ trade_state: 'NOTPAY', transaction_id: undefined }) });
    expect((await provider().query(order.orderId))?.kind).toBe('pending');
    answer = () => ({ status: 404, body: { code: 'ORDER_NOT_EXIST', message: '订单不存在' } });
    expect(await provider().query(order.orderId)).toBeNull();
    answer = () => ({ status: 500, body: { code: 'SYSTEM_ERROR', message: '系统错误' } });
    await expect(provider().query(order.orderId)).rejects.toThrow();
  });

  it('closes and refunds through the v3 endpoints, in fen', async () => {
    calls.length = 0;
    answer = (c) => (c.path.endsWith('/close') ? { status: 204 } : { status: 200, body: { refund_id: '50000000382019052709732678859', status: 'PROCESSING' } });
    await provider().cancel(order.orderId);
    await provider().refund({ orderId: order.orderId, amountMinor: 1500, currency: 'CNY', reason: 'user request' });
    expect(calls.map((c) => [c.method, c.path, c.signedByMerchant, c.body])).toEqual([
      ['POST', `/v3/pay/transactions/out-trade-no/${order.orderId}/close`, true, { mchid: MCHID }],
      ['POST', '/v3/refund/domestic/refunds', true, { out_trade_no: order.orderId, out_refund_no: `${order.orderId}-refund`, reason: 'user request', amount: { refund: 1500, total: 1500, currency: 'CNY' } }],
    ]);
  });
});

describe('wechat pay settings', () => {
  it('is off when unset; a half-set configuration or a wrong APIv3 key stops start-up', () => {
    expect(wechatOptionsFrom(loadConfigFrom(providersConfig, {}))).toBeNull();
    expect(() => wechatOptionsFrom(loadConfigFrom(providersConfig, { WECHAT_PAY_MCHID: MCHID }))).toThrow(ConfigError);
    expect(() => wechatOptionsFrom(loadConfigFrom(providersConfig, { ...baseEnv(), WECHAT_PAY_APIV3_KEY: 'short' }))).toThrow(/32 bytes/);
  });
});
