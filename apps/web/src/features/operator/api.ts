import { OPERATOR_PATHS as P, type InvoiceInfo, type OperatorFeedback, type OperatorInvoice } from '@cadcloud/contracts';
import { call, uploadMultipart } from '../../lib/api.ts';

export type { OperatorFeedback, OperatorInvoice };

/** The operator page's calls (issue 23); the server refuses them (operator.forbidden) for anyone not in OPERATOR_EMAILS. */
export const operatorApi = {
  invoices: (status: number | undefined, pageNo: number, pageSize: number) => call<{ total: number; invoices: OperatorInvoice[] }>(P.invoiceList, { ...(status ? { status } : {}), pageNo, pageSize }),
  issue: (invoiceId: string, pdf: File) => uploadMultipart<InvoiceInfo>(P.invoiceIssue, { invoiceId }, pdf, () => undefined),
  fail: (invoiceId: string, reason: string) => call<InvoiceInfo>(P.invoiceFail, { invoiceId, reason }),
  void: (invoiceId: string) => call<InvoiceInfo>(P.invoiceVoid, { invoiceId }),
  feedback: (open: boolean) => call<{ feedback: OperatorFeedback[] }>(P.feedbackList, open ? { open } : {}),
  reply: (id: string, text: string) => call<OperatorFeedback>(P.feedbackReply, { id, text }),
};
