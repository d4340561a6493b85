import { describe, expect, it } from 'vitest';
import { OrderStatus as S } from '@cadcloud/contracts';
import { ORDER_EVENTS, transition, type OrderEvent } from './order-state.ts';

/** The state machine as a table: each (event, status) → the next status and effect, or ignored. */
const EXPECTED: Record<OrderEvent, Record<number, [number, string] | 'ignored'>> = {
  paid: { [S.UNPAID]: [S.PAID, 'grant'], [S.CONFIRMING]: [S.PAID, 'grant'], [S.CANCELLED]: [S.PAID, 'grant'], [S.TIMED_OUT]: [S.PAID, 'grant'], [S.FAILED]: [S.PAID, 'grant'], [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
  failed: { [S.UNPAID]: [S.FAILED, 'none'], [S.CONFIRMING]: [S.FAILED, 'none'], [S.CANCELLED]: 'ignored', [S.TIMED_OUT]: 'ignored', [S.FAILED]: 'ignored', [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
  closed: { [S.UNPAID]: [S.TIMED_OUT, 'none'], [S.CONFIRMING]: [S.TIMED_OUT, 'none'], [S.CANCELLED]: 'ignored', [S.TIMED_OUT]: 'ignored', [S.FAILED]: 'ignored', [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
  refunded: { [S.UNPAID]: [S.REFUNDED, 'none'], [S.CONFIRMING]: [S.REFUNDED, 'none'], [S.CANCELLED]: [S.REFUNDED, 'none'], [S.TIMED_OUT]: [S.REFUNDED, 'none'], [S.FAILED]: [S.REFUNDED, 'none'], [S.PAID]: [S.REFUNDED, 'revoke'], [S.REFUNDED]: 'ignored' },
  pending: { [S.UNPAID]: [S.CONFIRMING, 'none'], [S.CONFIRMING]: 'ignored', [S.CANCELLED]: 'ignored', [S.TIMED_OUT]: 'ignored', [S.FAILED]: 'ignored', [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
  cancel: { [S.UNPAID]: [S.CANCELLED, 'none'], [S.CONFIRMING]: [S.CANCELLED, 'none'], [S.CANCELLED]: 'ignored', [S.TIMED_OUT]: 'ignored', [S.FAILED]: 'ignored', [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
  timeout: { [S.UNPAID]: [S.TIMED_OUT, 'none'], [S.CONFIRMING]: [S.TIMED_OUT, 'none'], [S.CANCELLED]: 'ignored', [S.TIMED_OUT]: 'ignored', [S.FAILED]: 'ignored', [S.PAID]: 'ignored', [S.REFUNDED]: 'ignored' },
};

describe('order state machine', () => {
  for (const event of ORDER_EVENTS) {
    for (const [from, want] of Object.entries(EXPECTED[event])) {
      it(`${event} on ${from} → ${want === 'ignored' ? 'ignored' : want.join(' + ')}`, () => {
        const t = transition(Number(from), event);
        if (want === 'ignored') expect(t).toHaveProperty('ignored');
        else expect(t).toMatchObject({ to: want[0], effect: want[1] });
      });
    }
  }
  it('covers every stored status for every event; 3 (service expired) is never stored and moves nowhere', () => {
    for (const event of ORDER_EVENTS) {
      expect(Object.keys(EXPECTED[event]).map(Number).sort()).toEqual([0, 1, 2, 4, 5, 6, 7]);
      expect(transition(S.EXPIRED, event)).toHaveProperty('ignored');
    }
  });
  it('out of order: paid after cancel and after time-out is paid (with a note for the operator); a paid after a refund changes nothing', () => {
    expect(transition(S.CANCELLED, 'paid')).toMatchObject({ to: S.PAID, note: 'paid after the order was cancelled' });
    expect(transition(S.TIMED_OUT, 'paid')).toMatchObject({ to: S.PAID, note: 'paid after the order timed out' });
    const refundFirst = transition(S.UNPAID, 'refunded');
    expect(refundFirst).toMatchObject({ to: S.REFUNDED, effect: 'none' });
    expect(transition(S.REFUNDED, 'paid')).toEqual({ ignored: 'already refunded (the refund follows this payment)' });
  });
});
