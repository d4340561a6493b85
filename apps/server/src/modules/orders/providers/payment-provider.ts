import type { Currency, PayMode } from '@cadcloud/contracts';

/**
 * One payment provider (issue 22 part 3): the built-in sandbox (the default), Alipay (alipay-sdk) or WeChat Pay v3
 * (wechatpay-axios-plugin). The orders service knows only this interface; an adapter knows only its provider's API.
 * Amounts cross it in minor units (cents, fen, won) so no float reaches a signature or a comparison.
 */
export interface PaymentProvider {
  /** the `{provider}` of `/order/v5/notify/{provider}`: 'sandbox' | 'alipay' | 'wechat' */
  readonly name: string;

  /** Starts a payment for an unpaid order: a QR payload (scan to pay) or a redirect URL (web payment). */
  createPayment(p: CreatePaymentInput): Promise<CreatePaymentResult>;

  /**
   * Verifies an asynchronous notification (signature, and decryption where the provider encrypts) and reads it.
   * Throws `NotificationRejected` for a forged, malformed or foreign notification; never trusts an unverified field.
   */
  parseNotification(n: IncomingNotification): Promise<PaymentEvent>;

  /** The body (and status) the provider expects as acknowledgement, so it stops retrying. */
  acknowledge(ok: boolean): { status: number; contentType: string; body: string };

  /** Asks the provider for the payment's state (the pay dialog's refresh, a timed-out order's last check). */
  query(orderId: string): Promise<PaymentEvent | null>;

  /** Closes an unpaid payment at the provider (cancel, time-out) so it can no longer be paid. */
  cancel(orderId: string): Promise<void>;

  /** Refunds a paid payment, fully. */
  refund(r: { orderId: string; amountMinor: number; currency: Currency; reason: string }): Promise<void>;
}

export interface CreatePaymentInput {
  orderId: string;
  amountMinor: number;
  currency: Currency;
  /** shown to the payer: the plan's name */
  subject: string;
  mode: PayMode;
  /** our public base URL, for the provider's notify and return addresses */
  publicBaseUrl: string;
  /** where the payer's browser goes back to after a redirect payment */
  returnUrl: string;
  /** the payment is closed by the provider after this instant (epoch ms) */
  expiresAt: number;
  /** the payer's IP as our HTTP layer sees it (WeChat Pay's H5 payment requires it) */
  payerIp?: string;
}

export interface CreatePaymentResult {
  qrPayload?: string;
  redirectUrl?: string;
}

export interface IncomingNotification {
  headers: Record<string, string | string[] | undefined>;
  /** the raw body exactly as received (signatures cover the bytes) */
  rawBody: string;
}

/** What a verified notification or a query says about one payment. */
export interface PaymentEvent {
  /** the provider's unique id for this event (idempotence: an event is applied once) */
  eventId: string;
  orderId: string;
  /** the provider's transaction id */
  providerTradeId: string | null;
  kind: 'paid' | 'failed' | 'closed' | 'refunded' | 'pending';
  amountMinor: number;
  currency: Currency;
  at: number;
}

export class NotificationRejected extends Error {}

/** Minor units per unit of each currency (KRW has none). */
export const MINOR_UNITS: Record<Currency, number> = { CNY: 100, USD: 100, EUR: 100, KRW: 1 };
export const toMinor = (amount: number, currency: Currency) => Math.round(amount * MINOR_UNITS[currency]);
export const fromMinor = (minor: number, currency: Currency) => minor / MINOR_UNITS[currency];
