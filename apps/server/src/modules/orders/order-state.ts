import { OrderStatus, type OrderStatusCode } from '@cadcloud/contracts';

/**
 * The order's payment state machine (issue 22 part 3; spec section 4's codes), as one table: for each event and
 * current status, the next status or "ignored" with the reason. Pure: the service applies the answer (and grants or
 * revokes the entitlement in the same transaction). Status 3 (service expired) is never stored: a paid order whose
 * period has ended is shown as 3 (orders.service.ts).
 *
 * Decisions where providers' notifications arrive late or out of order:
 * - **Paid after cancel / time-out / failure → PAID, and the plan is granted.** The payer's money is real and was
 *   taken for this order; giving them what they paid for is never wrong, while an automatic refund is a second
 *   money movement that can itself fail or race, and takes from the payer what they chose to buy. Whether to refund
 *   is the operator's decision (the order's note says it was paid after being closed).
 * - **Refund before paid → REFUNDED, and a later paid is ignored.** A provider refunds only a payment it took, so a
 *   refund notification proves the payment happened and was reversed: the paid notification, whenever it arrives,
 *   is older news. Ignoring the refund instead would let the late "paid" grant a membership nobody paid for.
 * - **Refund of a paid order → REFUNDED, and the order's entitlement ends now.**
 * - **Provider closed (its time-out) → TIMED OUT (7)**, like our own time-out; a user's cancel → CANCELLED (2).
 * - A duplicate of an applied event never reaches this table (payment_events is unique per provider event); a second
 *   distinct "paid" for a paid order is ignored.
 */
export type OrderEvent = 'paid' | 'failed' | 'closed' | 'refunded' | 'pending' | 'cancel' | 'timeout';
export const ORDER_EVENTS: readonly OrderEvent[] = ['paid', 'failed', 'closed', 'refunded', 'pending', 'cancel', 'timeout'];

/** What applying the transition does to the entitlement, besides the status. */
export type Effect = 'grant' | 'revoke' | 'none';

export type Transition = { to: OrderStatusCode; effect: Effect; note?: string } | { ignored: string };

const { UNPAID, PAID, CANCELLED, FAILED, REFUNDED, CONFIRMING, TIMED_OUT, EXPIRED } = OrderStatus;
type Stored = Exclude<OrderStatusCode, typeof EXPIRED>;
const go = (to: OrderStatusCode, effect: Effect = 'none', note?: string): Transition => (note ? { to, effect, note } : { to, effect });
const ignore = (reason: string): Transition => ({ ignored: reason });

/** Why an event that has no transition from a status is ignored. */
const SETTLED: Record<Stored, string> = {
  [UNPAID]: 'not paid',
  [PAID]: 'already paid',
  [CANCELLED]: 'already cancelled',
  [FAILED]: 'already failed',
  [REFUNDED]: 'already refunded',
  [CONFIRMING]: 'already confirming',
  [TIMED_OUT]: 'already timed out',
};
const beforePayment = (note: string) => ({ [UNPAID]: go(REFUNDED, 'none', note), [CONFIRMING]: go(REFUNDED, 'none', note), [CANCELLED]: go(REFUNDED, 'none', note), [TIMED_OUT]: go(REFUNDED, 'none', note), [FAILED]: go(REFUNDED, 'none', note) });

/** Every transition there is; an (event, status) pair not listed is ignored with SETTLED's reason. */
const TABLE: Record<OrderEvent, Partial<Record<Stored, Transition>>> = {
  paid: {
    [UNPAID]: go(PAID, 'grant'),
    [CONFIRMING]: go(PAID, 'grant'),
    [CANCELLED]: go(PAID, 'grant', 'paid after the order was cancelled'),
    [TIMED_OUT]: go(PAID, 'grant', 'paid after the order timed out'),
    [FAILED]: go(PAID, 'grant', 'paid after a failed attempt'),
    [REFUNDED]: ignore('already refunded (the refund follows this payment)'),
  },
  failed: { [UNPAID]: go(FAILED), [CONFIRMING]: go(FAILED) },
  closed: { [UNPAID]: go(TIMED_OUT), [CONFIRMING]: go(TIMED_OUT) },
  refunded: { [PAID]: go(REFUNDED, 'revoke'), ...beforePayment('refund notified before the payment') },
  pending: { [UNPAID]: go(CONFIRMING) },
  cancel: { [UNPAID]: go(CANCELLED), [CONFIRMING]: go(CANCELLED) },
  timeout: { [UNPAID]: go(TIMED_OUT), [CONFIRMING]: go(TIMED_OUT) },
};

/** The next state of an order in `status` on `event`. */
export function transition(status: number, event: OrderEvent): Transition {
  if (!(status in SETTLED)) return ignore(`unknown status ${status}`);
  return TABLE[event][status as Stored] ?? ignore(SETTLED[status as Stored]);
}

/** Unpaid or waiting for the provider's confirmation: the only statuses a user may cancel, and that time out. */
export const OPEN_STATUSES: readonly number[] = [UNPAID, CONFIRMING];
export const isOpen = (status: number) => OPEN_STATUSES.includes(status);
