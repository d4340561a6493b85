import type { Wechatpay } from 'wechatpay-axios-plugin';
import type { Currency } from '@cadcloud/contracts';
import {
  NotificationRejected,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type IncomingNotification,
  type PaymentEvent,
  type PaymentProvider,
} from './payment-provider.ts';
import type { WechatOptions } from './providers.config.ts';

/** WeChat Pay refuses a notification older than this, and so do we (a replayed notification is stale). */
export const WECHAT_MAX_CLOCK_SKEW_S = 300;

/**
 * H5 pay must name the payer's IP (WeChat compares it with the device that opens h5_url); the orders service passes it
 * when it has it. Without it a redirect payment is refused here rather than failing at WeChat.
 */
export type WechatCreatePaymentInput = CreatePaymentInput;

/**
 * WeChat Pay APIv3 through wechatpay-axios-plugin in public-key mode: requests are signed with the merchant key, and
 * answers and notifications are verified with WeChat Pay's public key (id PUB_KEY_ID_…). Domestic WeChat Pay settles
 * in fen only (CNY). The library (and axios) is imported on first use, never by a server without WeChat Pay.
 */
export function createWechatProvider(options: WechatOptions, deps: { now?: () => number } = {}): PaymentProvider {
  const now = deps.now ?? Date.now;
  let lib: Promise<typeof import('wechatpay-axios-plugin')> | undefined;
  // the client and its paths are Proxies that answer every property, `then` included: awaiting one would send a
  // request, so the client is kept inside a plain holder and only axios responses are awaited
  let api: Promise<{ wx: Wechatpay }> | undefined;
  const library = () => (lib ??= import('wechatpay-axios-plugin').then((m) => ((m as unknown as { default?: typeof m }).default ?? m)));
  const client = () =>
    (api ??= library().then(({ Wechatpay }) => ({
      wx: new Wechatpay({
        mchid: options.mchId,
        serial: options.merchantSerial,
        // its typings say string | Buffer for keys; the library takes KeyObjects too (Rsa.isKeyObject)
        privateKey: options.privateKey,
        certs: { [options.publicKeyId]: options.publicKey },
        baseURL: options.gateway,
        timeout: 10_000,
      } as unknown as ConstructorParameters<typeof Wechatpay>[0]),
    })));
  /** One signed APIv3 call; the library verifies the answer's signature with WeChat Pay's public key. */
  async function v3(method: 'get' | 'post', path: string, data: object | undefined, config: object = {}): Promise<{ data: any }> {
    const endpoint = (await client()).wx.chain(path);
    return method === 'get' ? endpoint.get(config) : endpoint.post(data, config);
  }

  const notifyUrl = (p: { publicBaseUrl: string }) => `${(options.notifyUrlBase ?? p.publicBaseUrl).replace(/\/+$/, '')}/order/v5/notify/wechat`;
  const cnyOnly = (c: Currency) => {
    if (c !== 'CNY') throw new Error(`WeChat Pay takes CNY only, not ${c}`);
  };

  /** A transaction (notification resource or query answer) as a payment event. */
  function eventOf(t: Transaction, eventId: string): PaymentEvent {
    if (t.mchid !== options.mchId || t.appid !== options.appId) throw new NotificationRejected(`wechat: transaction of another merchant or app (${t.mchid}/${t.appid})`);
    const kind = TRADE_STATE[t.trade_state];
    if (!kind) throw new NotificationRejected(`wechat: unknown trade_state ${t.trade_state}`);
    if (typeof t.out_trade_no !== 'string' || !t.out_trade_no) throw new NotificationRejected('wechat: out_trade_no missing');
    const total = t.amount?.total;
    if (!Number.isSafeInteger(total) || total! < 0) throw new NotificationRejected('wechat: malformed amount');
    if (t.amount!.currency !== 'CNY') throw new NotificationRejected(`wechat: unexpected currency ${t.amount!.currency}`);
    return {
      eventId,
      orderId: t.out_trade_no,
      providerTradeId: t.transaction_id ?? null,
      kind,
      amountMinor: total!,
      currency: 'CNY',
      at: (t.success_time && Date.parse(t.success_time)) || now(),
    };
  }

  return {
    name: 'wechat',

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      const p = input as WechatCreatePaymentInput;
      cnyOnly(p.currency);
      const order = {
        appid: options.appId,
        mchid: options.mchId,
        // WeChat caps the description at 127 bytes
        description: truncateBytes(p.subject, 127),
        out_trade_no: p.orderId,
        time_expire: rfc3339Beijing(p.expiresAt),
        notify_url: notifyUrl(p),
        amount: { total: p.amountMinor, currency: 'CNY' },
      };
      if (p.mode === 'qr') {
        const { data } = await v3('post', 'v3/pay/transactions/native', order);
        if (typeof data?.code_url !== 'string') throw new Error('WeChat Pay native answered without code_url');
        return { qrPayload: data.code_url };
      }
      if (!p.payerIp) throw new Error("WeChat Pay H5 needs the payer's IP (payerIp)");
      const { data } = await v3('post', 'v3/pay/transactions/h5', { ...order, scene_info: { payer_client_ip: p.payerIp, h5_info: { type: 'Wap' } } });
      if (typeof data?.h5_url !== 'string') throw new Error('WeChat Pay H5 answered without h5_url');
      // WeChat sends the payer back to redirect_url after the cashier (documented for H5 pay)
      return { redirectUrl: `${data.h5_url}&redirect_url=${encodeURIComponent(p.returnUrl)}` };
    },

    async parseNotification(n: IncomingNotification): Promise<PaymentEvent> {
      const { Rsa, Formatter, Aes } = await library();
      const timestamp = header(n, 'wechatpay-timestamp');
      const nonce = header(n, 'wechatpay-nonce');
      const signature = header(n, 'wechatpay-signature');
      const serial = header(n, 'wechatpay-serial');
      if (!timestamp || !nonce || !signature || !serial) throw new NotificationRejected('wechat: Wechatpay-* headers missing');
      if (serial !== options.publicKeyId) throw new NotificationRejected(`wechat: signed with an unknown key ${serial}`);
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now() / 1000 - Number(timestamp)) > WECHAT_MAX_CLOCK_SKEW_S) throw new NotificationRejected('wechat: stale or malformed timestamp');
      let verified = false;
      try {
        verified = Rsa.verify(Formatter.response(timestamp, nonce, n.rawBody), signature, options.publicKey);
      } catch {
        verified = false;
      }
      if (!verified) throw new NotificationRejected('wechat: signature does not verify');

      const envelope = parseJson(n.rawBody) as Envelope | null;
      const r = envelope?.resource;
      if (!envelope || typeof envelope.id !== 'string' || !r || r.algorithm !== 'AEAD_AES_256_GCM' || typeof r.ciphertext !== 'string' || typeof r.nonce !== 'string') {
        throw new NotificationRejected('wechat: not a notification envelope');
      }
      let plain: string;
      try {
        plain = Aes.AesGcm.decrypt(r.ciphertext, options.apiV3Key, r.nonce, r.associated_data ?? '');
      } catch {
        throw new NotificationRejected('wechat: resource does not decrypt with our APIv3 key');
      }
      const resource = parseJson(plain) as (Transaction & RefundResource) | null;
      if (!resource) throw new NotificationRejected('wechat: resource is not JSON');
      const eventId = `wechat:${envelope.id}`;

      if (envelope.event_type?.startsWith('REFUND.')) {
        // refund notices carry the merchant but no app id, and the refunded amount in fen (always CNY here)
        if (resource.mchid !== options.mchId) throw new NotificationRejected(`wechat: refund of another merchant (${resource.mchid})`);
        const refund = resource.amount?.refund;
        if (typeof resource.out_trade_no !== 'string' || !Number.isSafeInteger(refund)) throw new NotificationRejected('wechat: malformed refund notice');
        return {
          eventId,
          orderId: resource.out_trade_no,
          providerTradeId: resource.transaction_id ?? null,
          // REFUND.ABNORMAL / REFUND.CLOSED: the money did not move, the payment stays as it was
          kind: resource.refund_status === 'SUCCESS' ? 'refunded' : 'pending',
          amountMinor: refund!,
          currency: 'CNY',
          at: (resource.success_time && Date.parse(resource.success_time)) || now(),
        };
      }
      return eventOf(resource, eventId);
    },

    acknowledge(ok: boolean) {
      // APIv3: a 2xx without body acknowledges; a failure is a 4xx/5xx with {code:'FAIL', message}, and WeChat retries
      return ok
        ? { status: 204, contentType: 'application/json', body: '' }
        : { status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'failed' }) };
    },

    async query(orderId: string): Promise<PaymentEvent | null> {
      try {
        const { data } = await v3('get', 'v3/pay/transactions/out-trade-no/{out_trade_no}', undefined, { params: { mchid: options.mchId }, out_trade_no: orderId });
        const t = data as Transaction;
        return eventOf(t, `wechat:query:${t.transaction_id ?? orderId}:${t.trade_state}`);
      } catch (e) {
        if (errorCode(e) === 'ORDER_NOT_EXIST') return null;
        throw e;
      }
    },

    async cancel(orderId: string): Promise<void> {
      await v3('post', 'v3/pay/transactions/out-trade-no/{out_trade_no}/close', { mchid: options.mchId }, { out_trade_no: orderId });
    },

    async refund(r: { orderId: string; amountMinor: number; currency: Currency; reason: string }): Promise<void> {
      cnyOnly(r.currency);
      // out_refund_no makes a repeated refund of the same order one refund at WeChat
      await v3('post', 'v3/refund/domestic/refunds', {
        out_trade_no: r.orderId,
        out_refund_no: `${r.orderId}-refund`,
        reason: truncateBytes(r.reason, 80),
        amount: { refund: r.amountMinor, total: r.amountMinor, currency: 'CNY' },
      });
    },
  };
}

interface Envelope {
  id?: unknown;
  event_type?: string;
  resource?: { algorithm?: string; ciphertext?: unknown; nonce?: unknown; associated_data?: string };
}
interface Transaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state: string;
  success_time?: string;
  amount?: { total?: number; currency?: string };
}
interface RefundResource {
  refund_status?: string;
  amount?: { total?: number; refund?: number; currency?: string };
}

const TRADE_STATE: Record<string, PaymentEvent['kind'] | undefined> = {
  SUCCESS: 'paid',
  REFUND: 'refunded',
  NOTPAY: 'pending',
  USERPAYING: 'pending',
  CLOSED: 'closed',
  REVOKED: 'closed',
  PAYERROR: 'failed',
};

function header(n: IncomingNotification, name: string): string | undefined {
  const v = n.headers[name] ?? Object.entries(n.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
}

function parseJson(s: string): unknown {
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

/** The code of WeChat's error answer ({code, message}), read from an axios error. */
function errorCode(e: unknown): string | undefined {
  const data = (e as { response?: { data?: unknown } })?.response?.data;
  return typeof data === 'object' && data ? ((data as { code?: string }).code ?? undefined) : undefined;
}

function truncateBytes(s: string, max: number): string {
  let out = s;
  while (Buffer.byteLength(out) > max) out = out.slice(0, -1);
  return out;
}

/** WeChat's times are RFC 3339; the expiry is written in Beijing time as its documentation shows. */
function rfc3339Beijing(ms: number): string {
  return `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}
