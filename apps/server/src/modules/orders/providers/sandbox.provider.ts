import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CURRENCIES, ORDER_PATHS, type Currency } from '@cadcloud/contracts';
import type { AppDeps } from '../../../app.deps.ts';
import { persistentSecret } from '../../../infra/storage/storage.factory.ts';
import { NotificationRejected, type CreatePaymentInput, type CreatePaymentResult, type IncomingNotification, type PaymentEvent, type PaymentProvider } from './payment-provider.ts';

export const SANDBOX = 'sandbox';
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** The job that delivers one signed notification to our notify endpoint (orders.jobs.ts). */
export const SANDBOX_NOTIFY_JOB = 'orders.sandboxNotify';
/**
 * Delays between deliveries of a notification that was not acknowledged, after the first at once: Alipay's schedule
 * (4 s, 2 min, 10 min, 10 min, 1 h, 2 h, 6 h, 15 h), so our endpoint is tested against the retries it meets in real life.
 */
export const SANDBOX_RETRY_DELAYS_MS = [4_000, 120_000, 600_000, 600_000, 3_600_000, 7_200_000, 21_600_000, 54_000_000];

export type SandboxState = 'open' | 'paid' | 'declined' | 'closed' | 'refunded';
export type PayerAction = 'approve' | 'decline' | 'timeout';

/** The body of a sandbox notification (signed as these exact bytes). */
interface SandboxBody {
  eventId: string;
  orderId: string;
  tradeId: string;
  kind: PaymentEvent['kind'];
  amountMinor: number;
  currency: Currency;
  at: number;
}

export interface SandboxNotifyJob {
  rawBody: string;
  signature: string;
  /** 0 for the first delivery */
  attempt: number;
}

/** HMAC-SHA256 of the raw body with the installation's 'sandbox-pay' secret (infra/secrets.ts), hex. */
export function signSandbox(dataDir: string, rawBody: string): string {
  return createHmac('sha256', persistentSecret(dataDir, 'sandbox-pay')).update(rawBody, 'utf8').digest('hex');
}

const KIND_OF_STATE: Partial<Record<SandboxState, PaymentEvent['kind']>> = { paid: 'paid', declined: 'failed', closed: 'closed', refunded: 'refunded' };

/**
 * The built-in payment provider (issue 22 part 3), the default of both pay ways: it behaves like a QR/redirect
 * provider, with its own ledger (sandbox_payments), its own pay page where a tester plays the payer (sandbox.routes.ts),
 * and signed asynchronous notifications delivered through the durable job queue with Alipay's retry schedule until
 * our endpoint acknowledges them. Approving never touches the order: only the notification does, as with a real provider.
 */
export function createSandboxProvider(deps: Pick<AppDeps, 'db' | 'config' | 'queue'>) {
  const { db, config } = deps;
  const pageUrl = (orderId: string) => `${config.publicUrl}${ORDER_PATHS.sandboxPage}/${encodeURIComponent(orderId)}`;

  async function send(body: SandboxBody) {
    const rawBody = JSON.stringify(body);
    const job: SandboxNotifyJob = { rawBody, signature: signSandbox(config.dataDir, rawBody), attempt: 0 };
    await deps.queue.enqueue(SANDBOX_NOTIFY_JOB, job, { jobId: `sandbox-notify-${body.eventId}-0`, attempts: 3 });
    return job;
  }

  /** Moves the payment from `from` to `to` (once: a second payer click finds it moved) and notifies. */
  async function move(orderId: string, from: SandboxState[], to: SandboxState, now = Date.now()) {
    const r = await db.updateTable('sandbox_payments').set({ state: to, updated_at: now }).where('order_id', '=', orderId).where('state', 'in', from).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return null;
    const p = await db.selectFrom('sandbox_payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    const kind = KIND_OF_STATE[to];
    if (!kind) return null;
    return send({ eventId: `sbx_${randomBytes(12).toString('hex')}`, orderId, tradeId: p.trade_id, kind, amountMinor: Number(p.amount_minor), currency: p.currency as Currency, at: now });
  }

  const provider = {
    name: SANDBOX,

    async createPayment(p: CreatePaymentInput): Promise<CreatePaymentResult> {
      const now = Date.now();
      await db
        .insertInto('sandbox_payments')
        .values({ order_id: p.orderId, amount_minor: p.amountMinor, currency: p.currency, subject: p.subject, mode: p.mode, state: 'open', trade_id: `sbx_trade_${randomBytes(10).toString('hex')}`, return_url: p.returnUrl, expires_at: p.expiresAt, created_at: now, updated_at: now })
        .execute();
      // the QR code a phone scans and the page a browser is sent to are the same page
      const url = pageUrl(p.orderId);
      return p.mode === 'qr' ? { qrPayload: url } : { redirectUrl: url };
    },

    async parseNotification(n: IncomingNotification): Promise<PaymentEvent> {
      const given = String(n.headers[SANDBOX_SIGNATURE_HEADER] ?? '');
      const expected = signSandbox(config.dataDir, n.rawBody);
      if (!/^[0-9a-f]{64}$/.test(given) || !timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))) throw new NotificationRejected('sandbox: bad signature');
      let b: SandboxBody;
      try {
        b = JSON.parse(n.rawBody);
      } catch {
        throw new NotificationRejected('sandbox: body is not JSON');
      }
      if (typeof b.eventId !== 'string' || typeof b.orderId !== 'string' || !Number.isInteger(b.amountMinor) || !(CURRENCIES as readonly string[]).includes(b.currency) || !['paid', 'failed', 'closed', 'refunded', 'pending'].includes(b.kind)) {
        throw new NotificationRejected('sandbox: malformed notification');
      }
      return { eventId: b.eventId, orderId: b.orderId, providerTradeId: b.tradeId ?? null, kind: b.kind, amountMinor: b.amountMinor, currency: b.currency, at: Number(b.at) || Date.now() };
    },

    acknowledge(ok: boolean) {
      return { status: ok ? 200 : 400, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
    },

    async query(orderId: string): Promise<PaymentEvent | null> {
      const p = await db.selectFrom('sandbox_payments').selectAll().where('order_id', '=', orderId).executeTakeFirst();
      const kind = p && KIND_OF_STATE[p.state as SandboxState];
      if (!p || !kind) return null;
      // one event id per state: asking twice is the same news
      return { eventId: `sbx_query_${orderId}_${p.state}`, orderId, providerTradeId: p.trade_id, kind, amountMinor: Number(p.amount_minor), currency: p.currency as Currency, at: Number(p.updated_at) };
    },

    async cancel(orderId: string): Promise<void> {
      // closing by the merchant is not news to the merchant: no notification
      await db.updateTable('sandbox_payments').set({ state: 'closed', updated_at: Date.now() }).where('order_id', '=', orderId).where('state', '=', 'open').execute();
    },

    async refund(r: { orderId: string }): Promise<void> {
      await move(r.orderId, ['paid'], 'refunded');
    },

    /** The sandbox's own ledger entry (its pay page shows it). */
    payment: (orderId: string) => db.selectFrom('sandbox_payments').selectAll().where('order_id', '=', orderId).executeTakeFirst(),

    /**
     * The payer's choice on the pay page: approve (pays), decline (the payment fails), time out (the provider closes
     * it). Only an open payment moves; the answer is null when there was nothing to do.
     */
    async play(orderId: string, action: PayerAction, now = Date.now()) {
      const p = await provider.payment(orderId);
      // past its expiry the provider has closed the payment: an approve then closes it instead (as a real one refuses)
      const expired = !!p && Number(p.expires_at) <= now;
      const to: SandboxState = action === 'approve' && !expired ? 'paid' : action === 'decline' ? 'declined' : 'closed';
      return move(orderId, ['open'], to, now);
    },
  } satisfies PaymentProvider & Record<string, unknown>;
  return provider;
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
