import { z } from 'zod';
import { CURRENCIES } from './membership.ts';

/**
 * Orders, payments, exchange codes, freeze and ads (issue 22 parts 0, 3–6; spec sections 2, 3, 4, 5, 8, 9). The spec
 * shows none of these endpoints; the names are the issue's, so every client can rely on them.
 *
 * A payment runs: `create` → the order (status 0 unpaid) and either a QR payload (scan to pay) or a redirect URL (web
 * payment) → the payer pays at the provider → the provider notifies `/order/v5/notify/{provider}` (verified,
 * idempotent, amount- and currency-checked) → status 1 and the plan's entitlement, in one transaction. The client
 * polls `status` until the order leaves 0/6, then closes the dialog 3 s later (spec section 9) and shows My Orders.
 */
export const ORDER_PATHS = {
  create: '/order/v5/create',
  list: '/order/v5/list',
  detail: '/order/v5/detail',
  cancel: '/order/v5/cancel',
  status: '/order/v5/status',
  exchange: '/order/v5/exchange',
  /** the caller's redeemed codes (the coupon page) */
  exchangeList: '/order/v5/exchange/list',
  /** + '/' + provider name (sandbox, alipay, wechat): the providers' asynchronous notifications */
  notify: '/order/v5/notify',
  freeUnfreeze: '/user/v5/sysuser/freeUnfreeze',
  /** GET ?token=…: the signed link of the free-unfreeze confirmation mail (an HTML answer) */
  freeUnfreezeConfirm: '/user/v5/sysuser/freeUnfreeze/confirm',
  /** the caller's freeze state: frozen, since when, the purge date, whether the free unfreeze is offered */
  freezeState: '/user/v5/sysuser/freezeState',
  adver: '/ad/v5/web/adver',
  /** the built-in sandbox provider's pay page (HTML) is `${sandboxPage}/${orderId}` */
  sandboxPage: '/pay/sandbox/order',
  sandboxApprove: '/pay/sandbox/approve',
  sandboxDecline: '/pay/sandbox/decline',
  sandboxTimeout: '/pay/sandbox/timeout',
} as const;

/** Spec section 4: order status by code. */
export const OrderStatus = {
  UNPAID: 0,
  PAID: 1,
  CANCELLED: 2,
  EXPIRED: 3,
  FAILED: 4,
  REFUNDED: 5,
  CONFIRMING: 6,
  TIMED_OUT: 7,
} as const;
export type OrderStatusCode = (typeof OrderStatus)[keyof typeof OrderStatus];
/** The i18n key suffix of each status (spec names: paySuccess, cancelOrder, overDate, payFailure, back, payConfirm, timeEnd). */
export const ORDER_STATUS_NAMES: Record<OrderStatusCode, string> = { 0: 'unpaid', 1: 'paySuccess', 2: 'cancelOrder', 3: 'overDate', 4: 'payFailure', 5: 'back', 6: 'payConfirm', 7: 'timeEnd' };

/** Spec section 4: UnPay=0, Payed=1. */
export const PayStatus = { UNPAID: 0, PAID: 1 } as const;

/** Spec section 3: order type (first/auto order, manual supplement, renewal). */
export const OrderType = { FIRST: 1, SUPPLEMENT: 2, RENEWAL: 3 } as const;

/**
 * Spec section 9: pay providers 2 Alipay-type, 3 WeChat-type (7 Lenovo and 10 360 are listed but have no public
 * API; we accept neither). Which provider serves a pay way is the operator's choice: the built-in sandbox until the
 * operator configures Alipay's or WeChat Pay's keys.
 */
export const PayWay = { ALIPAY: 2, WECHAT: 3 } as const;
export const PAY_WAYS = [PayWay.ALIPAY, PayWay.WECHAT] as const;

/** How the payer pays: scan a QR code, or be redirected to the provider's page. */
export const PAY_MODES = ['qr', 'redirect'] as const;
export type PayMode = (typeof PAY_MODES)[number];

/** Spec section 9: client platform codes. */
export const CLIENT_PLATFORMS = { PC: 11, H5: 12, WECHAT_OA: 14, ANDROID: 16, IOS: 17, WINDOWS: 18, CAD_DESKTOP: 22, CLOUD_ARCH: 23, BUSINESS_PC: 40, HARMONY: 61, THIRD_PARTY: 999 } as const;

/** Spec section 4: exchange code states. */
export const ExchangeCodeStatus = { NOT_USED: 0, EXCHANGED: 1, EXPIRED: 2, VOID: 3 } as const;
export type ExchangeCodeStatusCode = (typeof ExchangeCodeStatus)[keyof typeof ExchangeCodeStatus];

/** Spec section 9: the pay dialog closes this long after the payment succeeded. */
export const PAY_SUCCESS_CLOSE_MS = 3000;
/** How often the pay dialog asks for the order's status. */
export const PAY_POLL_MS = 2000;

const orderId = z.string().min(1).max(64);

export const exchangeCodeRecordSchema = z.object({
  index: z.number().describe('1-based position among the order’s codes'),
  /** masked except the last 4 characters: the full code is shown once, to the operator who generated it */
  code: z.string(),
  status: z.number().describe('ExchangeCodeStatus'),
});

export const orderSchema = z.object({
  orderId: z.string(),
  planCode: z.string(),
  /** the service type (spec section 3): the plan's kind */
  planKind: z.string(),
  status: z.number().describe('OrderStatus 0–7'),
  payStatus: z.number().describe('PayStatus'),
  orderType: z.number().describe('OrderType'),
  payWay: z.number().nullable().describe('PayWay; null for an order paid by an exchange code'),
  currency: z.enum(CURRENCIES),
  /** order amount, in the currency's units (15, 4.99) */
  amount: z.number(),
  /** what was paid; 0 until paid */
  payAmount: z.number(),
  createdAt: z.number(),
  paidAt: z.number().nullable(),
  /** when the period this order bought ends; null until paid */
  serviceEndsAt: z.number().nullable(),
  exchangeCodes: z.array(exchangeCodeRecordSchema),
});
export type OrderInfo = z.infer<typeof orderSchema>;

export const orderCreateRequest = z.object({
  planCode: z.string().min(1).max(32),
  payWay: z.number().describe('PayWay 2 or 3'),
  clientType: z.number().describe("CLIENT_PLATFORMS: 11 PC, 12 H5, ..."),
  mode: z.enum(PAY_MODES).default('qr'),
  /** defaults to the request language's currency */
  currency: z.enum(CURRENCIES).optional(),
});
export const orderCreateResult = z.object({
  order: orderSchema,
  /** mode qr: the text to render as a QR code (a provider URL) */
  qrPayload: z.string().optional(),
  /** mode redirect: where to send the browser */
  redirectUrl: z.string().optional(),
});

export const orderListRequest = z.object({ pageNo: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(20), status: z.number().optional() });
export const orderListResult = z.object({ total: z.number(), orders: z.array(orderSchema) });
export const orderIdRequest = z.object({ orderId });
export const orderStatusResult = z.object({ orderId: z.string(), status: z.number(), payStatus: z.number() });

/**
 * An empty code is answered by the server with exchange.empty (the spec's 'exchange code not empty', localised), so
 * it is not refused here. Case, spaces and dashes do not matter ('abcd efgh-…' is 'ABCDEFGH…').
 */
export const exchangeRequest = z.object({ code: z.string().max(64).default('') });
/** Spec section 5: the client's own check before sending (same rule as the server's exchange.empty). */
export const isExchangeCodeEmpty = (code: string) => code.replace(/[\s-]/g, '') === '';
/** Generated codes: 16 characters of this alphabet (no 0/O/1/I/L), shown grouped XXXX-XXXX-XXXX-XXXX. */
export const EXCHANGE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const EXCHANGE_CODE_LENGTH = 16;
/** A redeemed code grants its plan's period (stacked like a renewal); the code then shows as exchanged. */
export const exchangeResult = z.object({ planCode: z.string(), startsAt: z.number(), endsAt: z.number() });
export const exchangeListRequest = z.object({ pageNo: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(20) });
export const exchangeRecordSchema = z.object({
  /** masked but the last 4 characters (only a hash of the code is stored) */
  code: z.string(),
  planCode: z.string(),
  periods: z.number(),
  status: z.number().describe('ExchangeCodeStatus'),
  redeemedAt: z.number().nullable(),
});
export const exchangeListResult = z.object({ total: z.number(), list: z.array(exchangeRecordSchema) });

/** Spec section 5: e-mail required and valid; the server answers unfreeze.emailRequired / unfreeze.emailInvalid. */
export const freeUnfreezeRequest = z.object({ email: z.string().max(320).default('') });
/** Spec section 4: accounts created before this instant may take the one-time free unfreeze. */
export const FREE_UNFREEZE_REGISTERED_BEFORE = Date.UTC(2017, 9, 1);
export const FREE_UNFREEZE_DAYS = 30;
/** Spec section 4: frozen data is cleared 3 months after the freeze; a warning mail goes out a week before. */
export const FROZEN_PURGE_MONTHS = 3;
export const FROZEN_PURGE_WARNING_DAYS = 7;
export const freezeStateResult = z.object({
  freeze: z.number().describe('0 UnFreeze, 1 Freeze'),
  frozenAt: z.number().nullable(),
  /** when the frozen files are deleted, unless the account thaws first */
  purgeAt: z.number().nullable(),
  used: z.number(),
  total: z.number(),
  /** the one-time free unfreeze is offered (registered before 2017-10, not taken yet) */
  freeUnfreezeAvailable: z.boolean(),
  freeUnfreezeUntil: z.number().nullable(),
});
export const freeUnfreezeResult = z.object({ sent: z.boolean() });

export const adSlotSchema = z.object({ slot: z.string(), imageUrl: z.string(), linkUrl: z.string(), title: z.string() });
export const adverRequest = z.object({ slot: z.string().max(64).optional() });
export const adverResult = z.object({ ads: z.array(adSlotSchema) });
