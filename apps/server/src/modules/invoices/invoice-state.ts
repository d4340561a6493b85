import { InvoiceStatus, type InvoiceStatusCode } from '@cadcloud/contracts';

/**
 * The invoice's state machine (issue 23; spec section 4's statuses by index), as one table: for each event and
 * current status, the next status, or undefined when the event is not allowed there. Pure: the service applies it
 * under the invoice's lock. Status 0 (not invoiced) belongs to an order without a live invoice: `request` starts
 * from it.
 * - request: 0 → 2 invoicing (the member asks)
 * - issue: 2 or 4 → 1 invoiced (the operator attaches the PDF)
 * - fail: 2 or 4 → 3 failed (the operator gives the reason)
 * - reissue: 1 or 3 → 4 re-issuing (the member asks again; the operator then issues or fails)
 * - void: any live status (1–4) → 5 voided (the operator); the orders are free to be invoiced again
 */
export type InvoiceEvent = 'request' | 'issue' | 'fail' | 'reissue' | 'void';
export const INVOICE_EVENTS: readonly InvoiceEvent[] = ['request', 'issue', 'fail', 'reissue', 'void'];

const { NOT_INVOICED, INVOICED, INVOICING, FAILED, REISSUING, VOIDED } = InvoiceStatus;

const TABLE: Record<InvoiceEvent, Partial<Record<InvoiceStatusCode, InvoiceStatusCode>>> = {
  request: { [NOT_INVOICED]: INVOICING },
  issue: { [INVOICING]: INVOICED, [REISSUING]: INVOICED },
  fail: { [INVOICING]: FAILED, [REISSUING]: FAILED },
  reissue: { [INVOICED]: REISSUING, [FAILED]: REISSUING },
  void: { [INVOICED]: VOIDED, [INVOICING]: VOIDED, [FAILED]: VOIDED, [REISSUING]: VOIDED },
};

/** The next status of an invoice in `status` on `event`, or undefined when the event does not apply there. */
export function nextInvoiceStatus(status: number, event: InvoiceEvent): InvoiceStatusCode | undefined {
  return TABLE[event][status as InvoiceStatusCode];
}

/** A live invoice holds its orders (voided releases them). */
export const isLive = (status: number) => status !== VOIDED && status !== NOT_INVOICED;
