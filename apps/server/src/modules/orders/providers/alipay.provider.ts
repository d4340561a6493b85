import type { AlipaySdk } from 'alipay-sdk';
import type { Currency } from '@cadcloud/contracts';
import {
  NotificationRejected,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type IncomingNotification,
  type PaymentEvent,
  type PaymentProvider,
} from './payment-provider.ts';
import type { AlipayOptions } from './providers.config.ts';

/**
 * Alipay through the official alipay-sdk (public-key mode, RSA2). Domestic Alipay settles in yuan only, so the
 * adapter takes CNY orders and refuses others before calling anyone. The SDK is imported on first use: a server
 * without Alipay configured never loads it.
 */
export function createAlipayProvider(options: AlipayOptions): PaymentProvider {
  let sdk: Promise<AlipaySdk> | undefined;
  const client = () =>
    (sdk ??= import('alipay-sdk').then(
      ({ AlipaySdk }) =>
        new AlipaySdk({
          appId: options.appId,
          privateKey: options.privateKeyPem,
          keyType: 'PKCS8',
          alipayPublicKey: options.alipayPublicKeyPem,
          gateway: options.gateway,
          // keep Alipay's own field names: the same names the notifications carry
          camelcase: false,
        }),
    ));

  /** One gateway call; the answer's signature is checked (validateSign), a business error becomes an exception. */
  async function call(method: string, bizContent: Record<string, unknown>, extra: Record<string, string> = {}) {
    const res = await (await client()).exec(method, { ...extra, bizContent }, { validateSign: true });
    if (res.code !== '10000') throw new AlipayCallFailed(method, res.code, res.sub_code, res.sub_msg ?? res.msg);
    return res;
  }

  const notifyUrl = (p: { publicBaseUrl: string }) => `${(options.notifyUrlBase ?? p.publicBaseUrl).replace(/\/+$/, '')}/order/v5/notify/alipay`;

  return {
    name: 'alipay',

    async createPayment(p: CreatePaymentInput): Promise<CreatePaymentResult> {
      if (p.currency !== 'CNY') throw new Error(`Alipay takes CNY only, not ${p.currency}`);
      const biz = {
        out_trade_no: p.orderId,
        total_amount: fenToYuan(p.amountMinor),
        subject: p.subject,
        time_expire: beijingTime(p.expiresAt),
      };
      if (p.mode === 'qr') {
        const res = await call('alipay.trade.precreate', biz, { notifyUrl: notifyUrl(p) });
        if (typeof res.qr_code !== 'string' || !res.qr_code) throw new Error('alipay.trade.precreate answered without qr_code');
        return { qrPayload: res.qr_code };
      }
      // a signed GET URL of the cashier page; the SDK signs it with our key, nothing is sent from here
      const url = (await client()).pageExec('alipay.trade.page.pay', 'GET', {
        bizContent: { ...biz, product_code: 'FAST_INSTANT_TRADE_PAY' },
        notifyUrl: notifyUrl(p),
        returnUrl: p.returnUrl,
      });
      return { redirectUrl: url };
    },

    async parseNotification(n: IncomingNotification): Promise<PaymentEvent> {
      const fields = formFields(n.rawBody);
      let signed = false;
      try {
        signed = (await client()).checkNotifySignV2(fields);
      } catch {
        signed = false;
      }
      if (!signed) throw new NotificationRejected('alipay: signature does not verify');
      if (fields.app_id !== options.appId) throw new NotificationRejected(`alipay: notification for another app (${fields.app_id})`);
      const orderId = required(fields, 'out_trade_no');
      const notifyId = required(fields, 'notify_id');
      const status = required(fields, 'trade_status');
      const refunded = fields.refund_fee !== undefined && fields.gmt_refund !== undefined;
      const kind = refunded ? 'refunded' : TRADE_STATUS[status];
      if (!kind) throw new NotificationRejected(`alipay: unknown trade_status ${status}`);
      const amount = yuanToFen(refunded ? fields.refund_fee! : required(fields, 'total_amount'));
      if (amount === null) throw new NotificationRejected('alipay: malformed amount');
      return {
        eventId: `alipay:${notifyId}`,
        orderId,
        providerTradeId: fields.trade_no ?? null,
        kind,
        amountMinor: amount,
        currency: 'CNY',
        at: parseBeijingTime(fields.gmt_refund ?? fields.gmt_payment ?? fields.gmt_close ?? fields.notify_time) ?? Date.now(),
      };
    },

    acknowledge(ok: boolean) {
      // Alipay stops retrying on exactly the body "success"
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
    },

    async query(orderId: string): Promise<PaymentEvent | null> {
      let res: Record<string, any>;
      try {
        res = await call('alipay.trade.query', { out_trade_no: orderId });
      } catch (e) {
        if (e instanceof AlipayCallFailed && e.subCode === 'ACQ.TRADE_NOT_EXIST') return null;
        throw e;
      }
      const kind = TRADE_STATUS[res.trade_status];
      const amount = yuanToFen(String(res.total_amount));
      if (!kind || amount === null) throw new Error(`alipay.trade.query: unexpected answer ${res.trade_status} ${res.total_amount}`);
      return {
        // a query has no event id of its own: one per (trade, state), so repeated queries apply once
        eventId: `alipay:query:${res.trade_no}:${res.trade_status}`,
        orderId,
        providerTradeId: res.trade_no ?? null,
        kind,
        amountMinor: amount,
        currency: 'CNY',
        at: parseBeijingTime(res.send_pay_date) ?? Date.now(),
      };
    },

    async cancel(orderId: string): Promise<void> {
      try {
        await call('alipay.trade.close', { out_trade_no: orderId });
      } catch (e) {
        // a redirect payment's trade exists at Alipay only once the payer opened the cashier: nothing to close
        if (e instanceof AlipayCallFailed && e.subCode === 'ACQ.TRADE_NOT_EXIST') return;
        throw e;
      }
    },

    async refund(r: { orderId: string; amountMinor: number; currency: Currency; reason: string }): Promise<void> {
      if (r.currency !== 'CNY') throw new Error(`Alipay takes CNY only, not ${r.currency}`);
      // out_request_no makes a repeated refund of the same order one refund at Alipay
      await call('alipay.trade.refund', {
        out_trade_no: r.orderId,
        refund_amount: fenToYuan(r.amountMinor),
        refund_reason: r.reason,
        out_request_no: `${r.orderId}-refund`,
      });
    },
  };
}

export class AlipayCallFailed extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
    readonly subCode: string | undefined,
    detail: string | undefined,
  ) {
    super(`${method} failed: ${code} ${subCode ?? ''} ${detail ?? ''}`.trim());
  }
}

const TRADE_STATUS: Record<string, PaymentEvent['kind'] | undefined> = {
  WAIT_BUYER_PAY: 'pending',
  TRADE_SUCCESS: 'paid',
  TRADE_FINISHED: 'paid',
  TRADE_CLOSED: 'closed',
};

/** The form body as Alipay posted it; a repeated field is not something Alipay sends, so it is rejected. */
function formFields(rawBody: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(rawBody)) {
    if (k in out) throw new NotificationRejected(`alipay: field ${k} given twice`);
    out[k] = v;
  }
  if (!out.sign) throw new NotificationRejected('alipay: not a signed notification');
  return out;
}

function required(fields: Record<string, string>, name: string): string {
  const v = fields[name];
  if (!v) throw new NotificationRejected(`alipay: ${name} missing`);
  return v;
}

/** 1500 → "15.00": integer arithmetic, so no float reaches the signed string. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new Error(`not an amount in fen: ${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** "15.00" / "15.5" / "15" → 1500 / 1550 / 1500; anything else null. */
export function yuanToFen(yuan: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const BEIJING_MS = 8 * 3600_000;

/** Alipay's times are Beijing wall-clock "yyyy-MM-dd HH:mm:ss". */
function beijingTime(ms: number): string {
  return new Date(ms + BEIJING_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function parseBeijingTime(s: string | undefined): number | null {
  if (!s || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(s)) return null;
  return Date.parse(`${s.replace(' ', 'T')}+08:00`);
}
