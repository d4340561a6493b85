import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CURRENCY_OF_LANGUAGE, OrderStatus, OrderType, PayStatus, PAY_WAYS, type Currency, type OrderInfo, type PayMode } from '@cadcloud/contracts';
import { orders as orderTexts, type Language } from '@cadcloud/i18n';
import type { AppDeps } from '../../app.deps.ts';

/**
 * An order's id is also its out_trade_no at the provider: Alipay accepts only letters, digits and underscores (up to
 * 64) and WeChat Pay 6–32 of [A-Za-z0-9_-|*], so 32 hex digits (128 random bits) suit both.
 */
function newOrderId(): string {
  return randomBytes(16).toString('hex');
}
import type { Database } from '../../infra/db/schema.ts';
import { serializedTransaction } from '../../infra/db/serialized-transaction.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createMembershipService, type MembershipService } from '../membership/membership.service.ts';
import { isOpen, transition, type OrderEvent } from './order-state.ts';
import { createOrdersRepository, type OrderRow } from './orders.repository.ts';
import { fromMinor, NotificationRejected, toMinor, type IncomingNotification, type PaymentEvent } from './providers/payment-provider.ts';
import { createExchangeCodesService } from '../exchange-codes/exchange-codes.service.ts';
import { createProviderRegistry, type ProviderRegistry } from './providers/registry.ts';

type Db = Kysely<Database>;
const MINUTE = 60_000;

/** What applying one provider event did (payment_events.outcome). */
export interface ApplyResult {
  outcome: 'applied' | 'duplicate' | `ignored:${string}` | `rejected:${string}`;
  status?: number;
}


/** The localized name of an order status (the `{0}` of 'Cannot cancel the order of {0}'). */
export function statusName(status: number, lang: Language): string {
  return (orderTexts[lang] as Record<string, string>)[`status.${status}`] ?? String(status);
}

/** What orders need of the app: the database, the config and the queue (the sandbox's deliveries). */
export type OrdersDeps = Pick<AppDeps, 'db' | 'config' | 'queue'>;

export interface OrdersServiceOptions {
  providers?: ProviderRegistry;
  membership?: MembershipService;
  /** where refused or surprising events are reported (default console.warn) */
  log?: (message: string, details: Record<string, unknown>) => void;
}

/**
 * Orders and payments (issue 22 part 3): make an order and its payment at the provider serving the pay way, list and
 * show the user's own orders, cancel an open one, poll its status, and apply the providers' events — verified,
 * once per event, amount- and currency-checked, through the state machine (order-state.ts), the plan granted in the
 * same transaction as the paid status. Every change of one order runs under that order's lock (serializedTransaction:
 * an advisory lock on PostgreSQL plus the row lock, BEGIN IMMEDIATE on SQLite), so several server processes and any
 * number of concurrent deliveries apply each event once.
 */
export function createOrdersService(deps: OrdersDeps, o: OrdersServiceOptions = {}) {
  const repo = createOrdersRepository(deps.db);
  const membership = o.membership ?? createMembershipService(deps);
  const providers = o.providers ?? createProviderRegistry(deps);
  // an order's detail lists the exchange codes it produced (spec section 3: index, code, status)
  const exchangeCodes = createExchangeCodesService(deps);
  const log = o.log ?? ((message, details) => console.warn(`orders: ${message}`, JSON.stringify(details)));

  /** Status 3 (service expired) is not stored: a paid order whose period has ended shows as 3. */
  const shownStatus = (r: OrderRow, now: number) => (r.status === OrderStatus.PAID && r.service_ends_at !== null && r.service_ends_at <= now ? OrderStatus.EXPIRED : r.status);

  async function present(r: OrderRow, now: number): Promise<OrderInfo> {
    const currency = r.currency as Currency;
    return {
      orderId: r.id,
      planCode: r.plan_code,
      planKind: r.plan_kind,
      status: shownStatus(r, now),
      payStatus: r.pay_status,
      orderType: r.order_type,
      payWay: r.pay_way,
      currency,
      amount: fromMinor(r.amount_minor, currency),
      payAmount: fromMinor(r.pay_amount_minor, currency),
      createdAt: r.created_at,
      paidAt: r.paid_at,
      serviceEndsAt: r.service_ends_at,
      exchangeCodes: await exchangeCodes.exchangeCodeRecordsOf(r.id),
    };
  }

  /** The caller's own order; another user's is as unknown as one that does not exist. */
  async function own(uid: string, orderId: string): Promise<OrderRow> {
    const r = await repo.byId(orderId);
    if (!r || r.uid !== uid) throw appError('order.notFound');
    return r;
  }

  /** Applies a transition inside `t` (the order's lock held): the status and, on paid / refund, the entitlement. */
  async function applyIn(t: Db, order: OrderRow, event: OrderEvent, now: number, ev?: PaymentEvent): Promise<ApplyResult> {
    const tr = transition(order.status, event);
    if ('ignored' in tr) return { outcome: `ignored:${tr.ignored}`, status: order.status };
    const set: Partial<OrderRow> = { status: tr.to, note: tr.note ?? order.note };
    if (tr.effect === 'grant') {
      const g = await membership.grant(order.uid, order.plan_code, { source: 'order', sourceId: order.id, version: order.plan_version, trx: t, now });
      Object.assign(set, { pay_status: PayStatus.PAID, paid_at: ev?.at && ev.at <= now ? ev.at : now, pay_amount_minor: ev?.amountMinor ?? order.amount_minor, provider_trade_id: ev?.providerTradeId ?? order.provider_trade_id, service_ends_at: g.entitlement.ends_at });
    } else if (tr.effect === 'revoke') {
      await membership.endGrant(order.uid, 'order', order.id, { now, trx: t });
      set.service_ends_at = Math.min(order.service_ends_at ?? now, now);
    }
    if (tr.note) log(tr.note, { orderId: order.id, event, from: order.status, to: tr.to });
    await repo.update(order.id, set, t);
    return { outcome: 'applied', status: tr.to };
  }

  /** Runs one of our own transitions (cancel, time-out) under the order's lock. */
  function internal(orderId: string, event: OrderEvent, now: number): Promise<ApplyResult> {
    return serializedTransaction(deps.db, `order:${orderId}`, async (t) => {
      const order = await repo.byIdForUpdate(orderId, t);
      if (!order) return { outcome: 'rejected:unknown order' };
      return applyIn(t, order, event, now);
    });
  }

  /**
   * Applies one verified provider event: once per (provider, event id), to the order it names if that order was
   * made with this provider, with the order's amount and currency (else the order fails, status 4, and nothing is
   * granted), through the state machine.
   */
  async function applyEvent(providerName: string, ev: PaymentEvent, now = Date.now()): Promise<ApplyResult> {
    return serializedTransaction(deps.db, `order:${ev.orderId}`, async (t) => {
      const fresh = await repo.recordEvent({ provider: providerName, event_id: ev.eventId, order_id: ev.orderId, kind: ev.kind, amount_minor: ev.amountMinor, currency: ev.currency, outcome: 'pending', received_at: now }, t);
      if (!fresh) return { outcome: 'duplicate' };
      const result = await decide(t, providerName, ev, now);
      await t.updateTable('payment_events').set({ outcome: result.outcome }).where('provider', '=', providerName).where('event_id', '=', ev.eventId).execute();
      return result;
    });
  }

  async function decide(t: Db, providerName: string, ev: PaymentEvent, now: number): Promise<ApplyResult> {
    const order = await repo.byIdForUpdate(ev.orderId, t);
    if (!order) {
      log('event for an unknown order', { provider: providerName, eventId: ev.eventId, orderId: ev.orderId });
      return { outcome: 'rejected:unknown order' };
    }
    if (order.provider !== providerName) {
      log('event from a provider the order was not made with', { provider: providerName, orderProvider: order.provider, orderId: order.id });
      return { outcome: 'rejected:foreign provider', status: order.status };
    }
    if ((ev.kind === 'paid' || ev.kind === 'refunded') && (ev.amountMinor !== order.amount_minor || ev.currency !== order.currency)) {
      const what = ev.currency !== order.currency ? 'wrong currency' : 'wrong amount';
      log(`${ev.kind} event with the ${what}`, { orderId: order.id, expected: `${order.amount_minor} ${order.currency}`, got: `${ev.amountMinor} ${ev.currency}`, eventId: ev.eventId });
      if (isOpen(order.status) || order.status === OrderStatus.CANCELLED || order.status === OrderStatus.TIMED_OUT) {
        await repo.update(order.id, { status: OrderStatus.FAILED, note: `${what}: ${ev.amountMinor} ${ev.currency}` }, t);
        return { outcome: `rejected:${what}`, status: OrderStatus.FAILED };
      }
      return { outcome: `rejected:${what}`, status: order.status };
    }
    return applyIn(t, order, ev.kind, now, ev);
  }

  /** Asks the order's provider about it and applies what it says (the status poll, the time-out's last check). */
  async function askProvider(order: OrderRow, now: number): Promise<void> {
    const provider = providers.byName(order.provider);
    if (!provider) return;
    try {
      const ev = await provider.query(order.id);
      if (ev && ev.orderId === order.id) await applyEvent(order.provider, ev, now);
    } catch (e) {
      log('provider query failed', { orderId: order.id, provider: order.provider, error: String(e) });
    }
  }

  return {
    applyEvent,
    present,

    async create(uid: string, r: { planCode: string; payWay: number; clientType: number; mode: PayMode; currency?: Currency }, o: { language?: string; now?: number; ip?: string } = {}) {
      const now = o.now ?? Date.now();
      if (!(PAY_WAYS as readonly number[]).includes(r.payWay)) throw appError('order.payWayRequired');
      const currency = r.currency ?? CURRENCY_OF_LANGUAGE[(o.language ?? 'zh').slice(0, 2)] ?? 'USD';
      const plan = (await membership.listPlans({ currency })).find((p) => p.code === r.planCode);
      if (!plan) throw appError('membership.unknownPlan');
      if (!plan.price) throw appError('order.notOnSale');
      const providerName = providers.nameOf(r.payWay)!;
      const provider = providers.forPayWay(r.payWay);
      if (!provider) {
        log('no provider for the pay way', { payWay: r.payWay, provider: providerName });
        throw appError('order.createFailed');
      }
      // the version on sale now is the one bought: an operator's later edit does not change this order's period
      // a renewal: the user has, or had, a period of this kind (spec section 3 order types)
      const renewal = (await membership.entitlementsOf(uid)).some((e) => e.kind === plan.kind);
      const row: OrderRow = {
        id: newOrderId(),
        uid,
        plan_code: plan.code,
        plan_version: plan.version,
        plan_kind: plan.kind,
        status: OrderStatus.UNPAID,
        pay_status: PayStatus.UNPAID,
        order_type: renewal ? OrderType.RENEWAL : OrderType.FIRST,
        pay_way: r.payWay,
        provider: provider.name,
        mode: r.mode,
        currency,
        amount_minor: toMinor(plan.price.amount, currency),
        pay_amount_minor: 0,
        provider_trade_id: null,
        client_type: r.clientType,
        created_at: now,
        paid_at: null,
        expires_at: now + deps.config.orderPayMinutes * MINUTE,
        service_ends_at: null,
        queried_at: null,
        note: null,
      };
      await repo.insert(row);
      try {
        const pay = await provider.createPayment({
          orderId: row.id,
          amountMinor: row.amount_minor,
          currency,
          subject: plan.code,
          mode: r.mode,
          publicBaseUrl: deps.config.publicUrl,
          returnUrl: `${deps.config.publicUrl}/yun/order?paid=${encodeURIComponent(row.id)}`,
          expiresAt: row.expires_at,
          payerIp: o.ip,
        });
        return { order: await present(row, now), ...pay };
      } catch (e) {
        log('the provider refused the payment', { orderId: row.id, provider: provider.name, error: String(e) });
        await repo.update(row.id, { status: OrderStatus.FAILED, note: `createPayment failed: ${String(e).slice(0, 200)}` });
        throw appError('order.createFailed');
      }
    },

    async list(uid: string, r: { pageNo: number; pageSize: number; status?: number }, now = Date.now()) {
      const { total, rows } = await repo.page(uid, { ...r, now });
      return { total, orders: await Promise.all(rows.map((x) => present(x, now))) };
    },

    async detail(uid: string, orderId: string, now = Date.now()) {
      return present(await own(uid, orderId), now);
    },

    /** Cancels an open order (unpaid or confirming), closing its payment at the provider first. */
    async cancel(uid: string, orderId: string, o: { language: Language; now?: number }) {
      const now = o.now ?? Date.now();
      const order = await own(uid, orderId);
      if (!isOpen(order.status)) throw appError('order.cannotCancel', [statusName(shownStatus(order, now), o.language)]);
      try {
        await providers.byName(order.provider)?.cancel(order.id);
      } catch (e) {
        // not closed there: a payment still made is then applied as paid after cancel (order-state.ts)
        log('provider cancel failed', { orderId, error: String(e) });
      }
      const r = await internal(order.id, 'cancel', now);
      if (r.outcome !== 'applied') {
        const after = (await repo.byId(order.id))!;
        throw appError('order.cannotCancel', [statusName(shownStatus(after, now), o.language)]);
      }
      return present((await repo.byId(order.id))!, now);
    },

    /** The pay dialog's poll; an open order's provider is asked at most every ORDER_QUERY_SECONDS (across processes). */
    async status(uid: string, orderId: string, now = Date.now()) {
      let order = await own(uid, orderId);
      if (isOpen(order.status) && (await repo.claimQuery(order.id, now, now - deps.config.orderQuerySeconds * 1000))) {
        await askProvider(order, now);
        order = (await repo.byId(order.id))!;
      }
      return { orderId: order.id, status: shownStatus(order, now), payStatus: order.pay_status };
    },

    /**
     * A provider's asynchronous notification: verified by its provider (a forged one changes nothing), then applied
     * once. The answer is what the provider expects: acknowledged unless it was not verified (or we failed: then it
     * throws, the endpoint answers 500 and the provider retries).
     */
    async notify(providerName: string, n: IncomingNotification, now = Date.now()) {
      const provider = providers.byName(providerName);
      if (!provider) return null;
      let ev: PaymentEvent;
      try {
        ev = await provider.parseNotification(n);
      } catch (e) {
        if (!(e instanceof NotificationRejected)) throw e;
        log('notification rejected', { provider: providerName, reason: e.message });
        return { ack: provider.acknowledge(false), result: { outcome: `rejected:${e.message}` } as ApplyResult };
      }
      const result = await applyEvent(providerName, ev, now);
      return { ack: provider.acknowledge(true), result };
    },

    /** Open orders past their expiry: the provider is asked once (a payment made meanwhile is applied), then closed there and here (status 7). */
    async sweepTimeouts(now = Date.now(), limit = 100): Promise<number> {
      let timedOut = 0;
      for (const order of await repo.expiredOpen(now, limit)) {
        await askProvider(order, now);
        const after = (await repo.byId(order.id))!;
        if (!isOpen(after.status)) continue;
        try {
          await providers.byName(order.provider)?.cancel(order.id);
        } catch (e) {
          log('provider close failed', { orderId: order.id, error: String(e) });
        }
        if ((await internal(order.id, 'timeout', now)).outcome === 'applied') timedOut++;
      }
      return timedOut;
    },

    /** Operators (`admin order list`): newest first. */
    async adminList(o: { uid?: string; status?: number; limit?: number } = {}, now = Date.now()) {
      const rows = await repo.all({ ...o, limit: o.limit ?? 100 });
      return rows.map((r) => ({ ...r, status: shownStatus(r, now), amount: fromMinor(r.amount_minor, r.currency as Currency), payAmount: fromMinor(r.pay_amount_minor, r.currency as Currency) }));
    },

    eventsOf: repo.eventsOf,
    providers,
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
