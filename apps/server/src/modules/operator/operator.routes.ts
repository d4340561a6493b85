import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint, ok } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import type { SessionUser } from '../users/sessions.service.ts';
import type { RouteModule } from '../index.ts';
import { createInvoicesService, InvoiceStateError } from '../invoices/invoices.service.ts';
import { createFeedbackService } from '../feedback/feedback.service.ts';
import type { FeedbackRow } from '../feedback/feedback.repository.ts';
import { isOperator } from './operator.config.ts';

const present = (f: FeedbackRow): c.OperatorFeedback => ({
  id: f.id, email: f.email, content: f.content, pageUrl: f.page_url, hasScreenshot: f.screenshot_key !== null,
  createdAt: Number(f.created_at), reply: f.reply, repliedAt: f.replied_at === null ? null : Number(f.replied_at),
});

/**
 * The operator page's calls (issue 23): the admin CLI's invoice and feedback actions for the accounts OPERATOR_EMAILS
 * names; everyone else, signed in or not, is refused before anything is read.
 */
export const operatorRoutes: RouteModule = async (app, { deps }) => {
  const invoices = createInvoicesService(deps);
  const feedback = createFeedbackService(deps);
  const P = c.OPERATOR_PATHS;
  const tag = 'operator';
  const only = 'Operators only (OPERATOR_EMAILS): operator.forbidden for everyone else.';
  const guard = (user: SessionUser) => {
    if (!isOperator(deps.config.operatorEmails, user.email)) throw appError('operator.forbidden');
  };
  /** The service's plain refusals (the CLI prints them) as error codes. */
  const act = async <T>(f: () => Promise<T>) => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof InvoiceStateError) throw e.message.startsWith('no invoice') ? appError('invoice.notFound') : appError('request.invalid');
      throw e;
    }
  };

  defineEndpoint(app, {
    path: P.invoiceList, tag, auth: 'user', summary: `Every company's invoice requests, newest first, with the company's name; status filters (1–5). ${only}`,
    request: c.operatorInvoiceListRequest, response: c.operatorInvoiceListResult,
    handler: (d, { user }) => (guard(user), invoices.adminPage(d)),
  });
  documentEndpoint(app, {
    method: 'post', path: P.invoiceIssue, tag, auth: 'user',
    summary: `Issues an invoicing (2) or re-issuing (4) invoice with its PDF (must start with %PDF-, at most ${c.OPERATOR_PDF_MAX_BYTES} bytes): status 1, the requester is mailed and may download it. request.invalid for another status or file. ${only}`,
    bodyNote: 'multipart/form-data: invoiceId, then file (the PDF, last)', response: c.invoiceSchema,
  });
  app.post(P.invoiceIssue, async (req) => {
    if (!req.user) throw appError('auth.notSignedIn');
    guard(req.user);
    if (!req.isMultipart()) throw appError('request.invalid');
    const part = await req.file({ limits: { fileSize: c.OPERATOR_PDF_MAX_BYTES + 1 } });
    if (!part) throw appError('request.invalid');
    const f = part.fields.invoiceId as { value?: unknown } | undefined;
    const invoiceId = f && 'value' in f ? String(f.value) : '';
    const pdf = await part.toBuffer().catch(() => null);
    if (!invoiceId || !pdf || pdf.length > c.OPERATOR_PDF_MAX_BYTES || part.file.truncated) throw appError('request.invalid');
    return ok(await act(() => invoices.issue(invoiceId, pdf)));
  });
  defineEndpoint(app, {
    path: P.invoiceFail, tag, auth: 'user', summary: `Marks an invoicing or re-issuing invoice failed (3) with the reason the requester is mailed. ${only}`,
    request: c.operatorInvoiceFailRequest, response: c.invoiceSchema,
    handler: (d, { user }) => (guard(user), act(() => invoices.fail(d.invoiceId, d.reason))),
  });
  defineEndpoint(app, {
    path: P.invoiceVoid, tag, auth: 'user', summary: `Voids an invoice (5): its orders may be invoiced again; the requester is mailed. ${only}`,
    request: c.invoiceIdRequest, response: c.invoiceSchema,
    handler: (d, { user }) => (guard(user), act(() => invoices.void(d.invoiceId))),
  });
  defineEndpoint(app, {
    path: P.feedbackList, tag, auth: 'user', summary: `Feedback messages, newest first (the latest 200); open: only those not answered yet. ${only}`,
    request: c.operatorFeedbackListRequest, response: c.operatorFeedbackListResult,
    handler: async (d, { user }) => (guard(user), { feedback: (await feedback.list({ open: d.open === true, limit: 200 })).map(present) }),
  });
  defineEndpoint(app, {
    path: P.feedbackReply, tag, auth: 'user', summary: `Mails the answer to the sender in their language and records it; item.notFound for an unknown id. ${only}`,
    request: c.operatorFeedbackReplyRequest, response: c.operatorFeedbackSchema,
    handler: async (d, { user }) => {
      guard(user);
      const row = await feedback.reply(d.id, d.text);
      if (!row) throw appError('item.notFound');
      return present(row);
    },
  });
};
