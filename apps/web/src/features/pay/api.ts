import { MEMBERSHIP_PATHS, ORDER_PATHS, CLIENT_PLATFORMS, type Currency, type OrderInfo, type PayMode, type PlanInfo } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';
import { clientType } from '../../lib/device.ts';

export interface CreatedOrder {
  order: OrderInfo;
  qrPayload?: string;
  redirectUrl?: string;
}
export interface AdSlot {
  slot: string;
  imageUrl: string;
  linkUrl: string;
  title: string;
}

/** The client platform code of spec section 9 for this layout: 12 H5 on the phone pages, 11 PC otherwise. */
export function platformCode(): number {
  return clientType() === 'Web_H5' ? CLIENT_PLATFORMS.H5 : CLIENT_PLATFORMS.PC;
}

/** Membership, orders, exchange codes, free unfreeze and ads (contracts orders.ts, membership.ts). */
export const payApi = {
  plans: () => call<{ plans: PlanInfo[] }>(MEMBERSHIP_PATHS.planList, {}),
  startTrial: () => call<{ code: string; startsAt: number; endsAt: number }>(MEMBERSHIP_PATHS.trialStart, {}),
  create: (planCode: string, payWay: number, mode: PayMode) => call<CreatedOrder>(ORDER_PATHS.create, { planCode, payWay, mode, clientType: platformCode() }),
  status: (orderId: string) => call<{ orderId: string; status: number; payStatus: number }>(ORDER_PATHS.status, { orderId }),
  list: (pageNo: number, pageSize: number) => call<{ total: number; orders: OrderInfo[] }>(ORDER_PATHS.list, { pageNo, pageSize }),
  detail: (orderId: string) => call<OrderInfo>(ORDER_PATHS.detail, { orderId }),
  cancel: (orderId: string) => call<unknown>(ORDER_PATHS.cancel, { orderId }),
  exchangeList: (pageNo: number, pageSize: number) => call<{ total: number; list: { code: string; planCode: string; periods: number; status: number; redeemedAt: number | null }[] }>(ORDER_PATHS.exchangeList, { pageNo, pageSize }),
  freezeState: () => call<{ freeze: number; frozenAt: number | null; purgeAt: number | null; used: number; total: number; freeUnfreezeAvailable: boolean; freeUnfreezeUntil: number | null }>(ORDER_PATHS.freezeState, {}),
  exchange: (code: string) => call<{ planCode: string; startsAt: number; endsAt: number }>(ORDER_PATHS.exchange, { code }),
  freeUnfreeze: (email: string) => call<{ sent: boolean }>(ORDER_PATHS.freeUnfreeze, { email }),
  ads: (slot: string) => call<{ ads: AdSlot[] }>(ORDER_PATHS.adver, { slot }),
};

const SYMBOLS: Record<Currency, string> = { CNY: '¥', USD: '$', KRW: '₩', EUR: '€' };

/** A price as the spec writes it: ¥15, $4.99, ₩1,730; euros the German way (4,99 €). */
export function formatMoney(amount: number, currency: Currency): string {
  if (currency === 'EUR') return new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(amount);
  const n = new Intl.NumberFormat('en-US', { maximumFractionDigits: currency === 'KRW' ? 0 : 2, minimumFractionDigits: 0 }).format(amount);
  return `${SYMBOLS[currency] ?? ''}${n}`;
}
