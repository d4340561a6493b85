import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFrom } from '../../../infra/config/config.ts';
import { createAlipayProvider, fenToYuan, yuanToFen } from './alipay.provider.ts';
import { NotificationRejected, type PaymentProvider } from './payment-provider.ts';
import { alipayOptionsFrom, providersConfig } from './providers.config.ts';

/**
 * Alipay's sandbox is not reachable from here, so the test plays Alipay: it holds "Alipay's" key pair, signs
 * notifications the way Alipay does (RSA2 over the sorted k=v content without sign and sign_type), and runs a local
 * gateway that checks each request is signed with our app key and answers signed like Alipay's gateway.
 */
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = rsa();
const alipay = rsa();
const stranger = rsa();
const APP_ID = '2021000000000001';
const pem = (k: KeyObject, type: 'pkcs8' | 'spki' | 'pkcs1') => k.export({ format: 'pem', type: type as 'pkcs8' }).toString();

function alipaySign(fields: Record<string, string>, key: KeyObject): string {
  const content = Object.keys(fields)
    .filter((k) => k !== 'sign' && k !== 'sign_type')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
  return sign('sha256', Buffer.from(content, 'utf8'), key).toString('base64');
}

const paidFields = (over: Record<string, string> = {}) => ({
  app_id: APP_ID,
  notify_id: '2026112700222120000012345678',
  notify_type: 'trade_status_sync',
  notify_time: '2026-11-27 20:00:05',
  charset: 'utf-8',
  version: '1.0',
  out_trade_no: 'ORD20261127000001',
  trade_no: '2026112722001400000000000001',
  trade_status: 'TRADE_SUCCESS',
  total_amount: '15.00',
  receipt_amount: '15.00',
  subject: '高级会员 月付 & more',
  fund_bill_list: '[{"amount":"15.00","fundChannel":"ALIPAYACCOUNT"}]',
  gmt_create: '2026-11-27 19:59:50',
  gmt_payment: '2026-11-27 20:00:00',
  ...over,
});

const body = (fields: Record<string, string>, key: KeyObject = alipay.privateKey) =>
  new URLSearchParams({ ...fields, sign: alipaySign(fields, key), sign_type: 'RSA2' }).toString();

/** The local stand-in for Alipay's gateway: what it received, and what it answers per method. */
interface GatewayCall {
  method: string;
  params: Record<string, string>;
  biz: Record<string, string>;
  signedByApp: boolean;
}
let server: Server;
let gateway: string;
const calls: GatewayCall[] = [];
let answers: Record<string, Record<string, unknown>> = {};
let answerKey: KeyObject = alipay.privateKey;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const params: Record<string, string> = {};
      for (const [k, v] of new URL(req.url!, 'http://x').searchParams) params[k] = v;
      for (const [k, v] of new URLSearchParams(raw)) params[k] = v;
      // Alipay's request rule: every parameter but sign, sorted, k=v joined, RSA2 with the app's key
      const content = Object.keys(params).filter((k) => k !== 'sign').sort().map((k) => `${k}=${params[k]}`).join('&');
      const signedByApp = verify('sha256', Buffer.from(content), app.publicKey, Buffer.from(params.sign ?? '', 'base64'));
      const method = params.method!;
      calls.push({ method, params, biz: JSON.parse(params.biz_content ?? '{}'), signedByApp });
      const inner = JSON.stringify(signedByApp ? (answers[method] ?? { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.SYSTEM_ERROR' }) : { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature' });
      const sig = sign('sha256', Buffer.from(inner), answerKey).toString('base64');
      res.setHeader('content-type', 'application/json;charset=utf-8');
      res.end(`{"${method.replaceAll('.', '_')}_response":${inner},"sign":"${sig}"}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function provider(env: Record<string, string> = {}): PaymentProvider {
  const cfg = loadConfigFrom(providersConfig, {
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: pem(app.privateKey, 'pkcs8'),
    ALIPAY_PUBLIC_KEY: pem(alipay.publicKey, 'spki'),
    ALIPAY_GATEWAY: gateway,
    ...env,
  });
  return createAlipayProvider(alipayOptionsFrom(cfg)!);
}
const parse = (p: PaymentProvider, rawBody: string) => p.parseNotification({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody });
const order = { orderId: 'ORD20261127000001', amountMinor: 1500, currency: 'CNY' as const, subject: '高级会员', publicBaseUrl: 'https://cad.example.com/', returnUrl: 'https://cad.example.com/yun/order', expiresAt: Date.parse('2026-11-27T12:30:00Z') };

describe('alipay notifications', () => {
  it('reads a notification signed by Alipay into a paid event in fen', async () => {
    const ev = await parse(provider(), body(paidFields()));
    expect(ev).toEqual({
      eventId: 'alipay:2026112700222120000012345678',
      orderId: 'ORD20261127000001',
      providerTradeId: '2026112722001400000000000001',
      kind: 'paid',
      amountMinor: 1500,
      currency: 'CNY',
      at: Date.parse('2026-11-27T12:00:00Z'),
    });
  });

  it('maps TRADE_FINISHED to paid, TRADE_CLOSED to closed, a refund notice to refunded', async () => {
    const p = provider();
    expect((await parse(p, body(paidFields({ trade_status: 'TRADE_FINISHED' })))).kind).toBe('paid');
    expect((await parse(p, body(paidFields({ trade_status: 'TRADE_CLOSED' })))).kind).toBe('closed');
    const refund = await parse(p, body(paidFields({ trade_status: 'TRADE_CLOSED', refund_fee: '15.00', gmt_refund: '2026-11-28 09:00:00' })));
    expect([refund.kind, refund.amountMinor]).toEqual(['refunded', 1500]);
  });

  it('accepts keys given as bare base64 PKCS#1 (what Alipay\'s key tool writes) and as file-less PEM', async () => {
    const bare = (s: string) => s.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
    const p = provider({ ALIPAY_PRIVATE_KEY: bare(pem(app.privateKey, 'pkcs1')), ALIPAY_PUBLIC_KEY: bare(pem(alipay.publicKey, 'spki')) });
    expect((await parse(p, body(paidFields()))).amountMinor).toBe(1500);
  });

  it('rejects a tampered amount', async () => {
    const raw = body(paidFields()).replace('total_amount=15.00', 'total_amount=0.01');
    expect(raw).toContain('total_amount=0.01');
    await expect(parse(provider(), raw)).rejects.toBeInstanceOf(NotificationRejected);
  });

  it('rejects a notification signed with another key', async () => {
    await expect(parse(provider(), body(paidFields(), stranger.privateKey))).rejects.toBeInstanceOf(NotificationRejected);
  });

  it("rejects Alipay's genuine notification for another app", async () => {
    await expect(parse(provider(), body(paidFields({ app_id: '2021000000000999' })))).rejects.toThrow(/another app/);
  });

  it('rejects malformed bodies', async () => {
    const p = provider();
    for (const raw of ['', 'not a form', '{"trade_status":"TRADE_SUCCESS"}', body(paidFields({ total_amount: '15,00' })), body(paidFields({ trade_status: 'WHATEVER' })), `${body(paidFields())}&app_id=${APP_ID}`]) {
      await expect(parse(p, raw), raw).rejects.toBeInstanceOf(NotificationRejected);
    }
    const noOrder: Record<string, string> = paidFields();
    delete noOrder.out_trade_no;
    await expect(parse(p, body(noOrder))).rejects.toBeInstanceOf(NotificationRejected);
  });

  it('acknowledges with the bodies Alipay expects', () => {
    expect(provider().acknowledge(true)).toMatchObject({ status: 200, body: 'success' });
    expect(provider().acknowledge(false)).toMatchObject({ status: 200, body: 'fail' });
  });
});

describe('alipay gateway calls', () => {
  it('creates a QR payment by precreate, signed with our key, amount in yuan', async () => {
    calls.length = 0;
    answers = { 'alipay.trade.precreate': { code: '10000', msg: 'Success', out_trade_no: order.orderId, qr_code: 'https://qr.alipay.com/bax01234' } };
    const res = await provider().createPayment({ ...order, mode: 'qr' });
    expect(res).toEqual({ qrPayload: 'https://qr.alipay.com/bax01234' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'alipay.trade.precreate', signedByApp: true, biz: { out_trade_no: order.orderId, total_amount: '15.00', subject: '高级会员', time_expire: '2026-11-27 20:30:00' } });
    expect(calls[0]!.params.notify_url).toBe('https://cad.example.com/order/v5/notify/alipay');
    expect(calls[0]!.params.app_id).toBe(APP_ID);
  });

  it('refuses an answer not signed by Alipay', async () => {
    answers = { 'alipay.trade.precreate': { code: '10000', msg: 'Success', qr_code: 'https://evil.example/qr' } };
    answerKey = stranger.privateKey;
    try {
      // the SDK's own check of the answer's signature ("验签失败": verification failed)
      await expect(provider().createPayment({ ...order, mode: 'qr' })).rejects.toThrow(/验签失败/);
    } finally {
      answerKey = alipay.privateKey;
    }
  });

  it('creates a redirect payment as a signed page.pay URL on the gateway', async () => {
    const res = await provider({ ALIPAY_NOTIFY_URL_BASE: 'https://pay-notify.example.com' }).createPayment({ ...order, amountMinor: 12345, mode: 'redirect' });
    const url = new URL(res.redirectUrl!);
    expect(`${url.origin}${url.pathname}`).toBe(gateway);
    const params = Object.fromEntries(url.searchParams);
    const content = Object.keys(params).filter((k) => k !== 'sign').sort().map((k) => `${k}=${params[k]}`).join('&');
    expect(verify('sha256', Buffer.from(content), app.publicKey, Buffer.from(params.sign!, 'base64'))).toBe(true);
    expect(params).toMatchObject({ method: 'alipay.trade.page.pay', app_id: APP_ID, return_url: order.returnUrl, notify_url: 'https://pay-notify.example.com/order/v5/notify/alipay' });
    expect(JSON.parse(params.biz_content!)).toMatchObject({ out_trade_no: order.orderId, total_amount: '123.45', product_code: 'FAST_INSTANT_TRADE_PAY' });
  });

  it('refuses currencies other than yuan', async () => {
    await expect(provider().createPayment({ ...order, currency: 'USD', mode: 'qr' })).rejects.toThrow(/CNY/);
  });

  it('queries a trade, and answers null for a trade Alipay does not know', async () => {
    answers = { 'alipay.trade.query': { code: '10000', msg: 'Success', out_trade_no: order.orderId, trade_no: '2026112722001400000000000001', trade_status: 'TRADE_SUCCESS', total_amount: '15.00', send_pay_date: '2026-11-27 20:00:00' } };
    expect(await provider().query(order.orderId)).toMatchObject({ kind: 'paid', amountMinor: 1500, currency: 'CNY', providerTradeId: '2026112722001400000000000001', at: Date.parse('2026-11-27T12:00:00Z') });
    answers = { 'alipay.trade.query': { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' } };
    expect(await provider().query(order.orderId)).toBeNull();
    answers = { 'alipay.trade.query': { code: '20000', msg: 'Service Currently Unavailable', sub_code: 'isp.unknow-error' } };
    await expect(provider().query(order.orderId)).rejects.toThrow(/20000/);
  });

  it('closes by trade.close and refunds by trade.refund in yuan', async () => {
    calls.length = 0;
    answers = {
      'alipay.trade.close': { code: '10000', msg: 'Success' },
      'alipay.trade.refund': { code: '10000', msg: 'Success', fund_change: 'Y', refund_fee: '15.00' },
    };
    await provider().cancel(order.orderId);
    await provider().refund({ orderId: order.orderId, amountMinor: 1500, currency: 'CNY', reason: 'user request' });
    expect(calls.map((c) => [c.method, c.signedByApp, c.biz])).toEqual([
      ['alipay.trade.close', true, { out_trade_no: order.orderId }],
      ['alipay.trade.refund', true, { out_trade_no: order.orderId, refund_amount: '15.00', refund_reason: 'user request', out_request_no: `${order.orderId}-refund` }],
    ]);
    answers = { 'alipay.trade.close': { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR' } };
    await expect(provider().cancel(order.orderId)).rejects.toThrow(/TRADE_STATUS_ERROR/);
  });
});

describe('alipay settings and amounts', () => {
  it('is off when unset, and a half-set configuration names what is missing', () => {
    expect(alipayOptionsFrom(loadConfigFrom(providersConfig, {}))).toBeNull();
    expect(() => alipayOptionsFrom(loadConfigFrom(providersConfig, { ALIPAY_APP_ID: APP_ID }))).toThrow(ConfigError);
    expect(() => alipayOptionsFrom(loadConfigFrom(providersConfig, { ALIPAY_APP_ID: APP_ID }))).toThrow(/ALIPAY_PRIVATE_KEY/);
    expect(() => alipayOptionsFrom(loadConfigFrom(providersConfig, { ALIPAY_APP_ID: APP_ID, ALIPAY_PRIVATE_KEY: '/nonexistent/key.pem', ALIPAY_PUBLIC_KEY: pem(alipay.publicKey, 'spki') }))).toThrow(/cannot read/);
  });

  it('converts between fen and yuan strings exactly', () => {
    expect([fenToYuan(1500), fenToYuan(1), fenToYuan(0), fenToYuan(123456789)]).toEqual(['15.00', '0.01', '0.00', '1234567.89']);
    expect([yuanToFen('15.00'), yuanToFen('15.5'), yuanToFen('15'), yuanToFen('0.01')]).toEqual([1500, 1550, 1500, 1]);
    expect([yuanToFen('15.001'), yuanToFen('-1'), yuanToFen('1e3'), yuanToFen('')]).toEqual([null, null, null, null]);
    expect(() => fenToYuan(1.5)).toThrow();
  });
});
