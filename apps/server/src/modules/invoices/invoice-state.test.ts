import { describe, expect, it } from 'vitest';
import { INVOICE_STATUSES } from '@cadcloud/contracts';
import { INVOICE_EVENTS, nextInvoiceStatus, type InvoiceEvent } from './invoice-state.ts';

/** Every (event, status) pair of the six statuses: the expected next status, '-' = refused. */
const EXPECTED: Record<InvoiceEvent, string> = {
  //          0    1    2    3    4    5
  request: ' 2    -    -    -    -    -',
  issue: '   -    -    1    -    1    -',
  fail: '    -    -    3    -    3    -',
  reissue: ' -    4    -    4    -    -',
  void: '    -    5    5    5    5    -',
};

describe('invoice state machine', () => {
  for (const event of INVOICE_EVENTS) {
    const row = EXPECTED[event].trim().split(/\s+/);
    for (const status of INVOICE_STATUSES) {
      const want = row[status];
      it(`${event} from ${status} → ${want}`, () => {
        expect(nextInvoiceStatus(status, event)).toBe(want === '-' ? undefined : Number(want));
      });
    }
  }
  it('a full life: request, fail, re-issue, issue, re-issue, issue, void', () => {
    let s: number = 0;
    for (const e of ['request', 'fail', 'reissue', 'issue', 'reissue', 'issue', 'void'] as const) s = nextInvoiceStatus(s, e)!;
    expect(s).toBe(5);
  });
  it('an unknown status allows nothing', () => {
    for (const e of INVOICE_EVENTS) expect(nextInvoiceStatus(9, e)).toBeUndefined();
  });
});
