import { z } from 'zod';
import { invoiceSchema } from './invoices.ts';

/** The operator's page (issue 23): accounts named by OPERATOR_EMAILS list invoice requests and feedback and act on them. */
export const OPERATOR_PATHS = {
  invoiceList: '/operator/v5/invoice/list',
  invoiceIssue: '/operator/v5/invoice/issue',
  invoiceFail: '/operator/v5/invoice/fail',
  invoiceVoid: '/operator/v5/invoice/void',
  feedbackList: '/operator/v5/feedback/list',
  feedbackReply: '/operator/v5/feedback/reply',
} as const;

/** the issued PDF an operator uploads is at most this large */
export const OPERATOR_PDF_MAX_BYTES = 10 * 1024 * 1024;
export const OPERATOR_REPLY_MAX = 5000;

export const operatorInvoiceListRequest = z.object({
  status: z.number().int().min(1).max(5).optional(),
  pageNo: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(200).default(50),
});
export const operatorInvoiceSchema = invoiceSchema.extend({ companyName: z.string() });
export const operatorInvoiceListResult = z.object({ total: z.number(), invoices: z.array(operatorInvoiceSchema) });
export const operatorInvoiceFailRequest = z.object({ invoiceId: z.string().min(1).max(64), reason: z.string().trim().min(1).max(500) });
export const operatorFeedbackListRequest = z.object({ open: z.boolean().optional() });
export const operatorFeedbackSchema = z.object({
  id: z.string(), email: z.string(), content: z.string(), pageUrl: z.string().nullable(), hasScreenshot: z.boolean(),
  createdAt: z.number(), reply: z.string().nullable(), repliedAt: z.number().nullable(),
});
export const operatorFeedbackListResult = z.object({ feedback: z.array(operatorFeedbackSchema) });
export const operatorFeedbackReplyRequest = z.object({ id: z.string().min(1).max(64), text: z.string().trim().min(1).max(OPERATOR_REPLY_MAX) });

export type OperatorInvoice = z.infer<typeof operatorInvoiceSchema>;
export type OperatorFeedback = z.infer<typeof operatorFeedbackSchema>;
