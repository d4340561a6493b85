import { createHash } from 'node:crypto';
import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createInvoicesService } from './invoices.service.ts';

/** The browser's handle on its ticket without the ticket itself: saved with the company header (spec section 3). */
export const ticketFingerprint = (ticket: string | null) => (ticket ? createHash('sha256').update(`company-header\n${ticket}`).digest('base64url').slice(0, 22) : null);

/** Company members and invoices (issue 23). Invoice paths are silent on the web client (spec section 8). */
export const invoicesRoutes: RouteModule = async (app, { deps }) => {
  const invoices = createInvoicesService(deps);
  const companies = invoices.companies;
  const C = c.COMPANY_PATHS;
  const P = c.INVOICE_PATHS;
  const tag = 'invoices';
  const refusals = 'company.notMember for a user in no company, invoice.notAllowed for a member the admin has not allowed to invoice';

  // spec section 7 (call style 1 accepted too, as the spec's clients call it)
  defineEndpoint(app, {
    path: C.info, tag, auth: 'user', formStyle: true,
    summary: "The caller's company (name, tax id, role, whether they may request invoices) or null, and utoken: a fingerprint of the login ticket the web client keeps with the saved company header",
    request: c.emptyRequest, response: c.companyInfoResult,
    handler: async (_d, { user, req }) => ({ company: await companies.companyOfUser(user.id), utoken: ticketFingerprint(req.ticket) }),
  });
  defineEndpoint(app, {
    path: C.members, tag, auth: 'user',
    summary: 'A company admin: the members and open invitations (e-mail, role, may request invoices, invited|active). company.notAdmin for others',
    request: c.emptyRequest, response: c.companyMembersResult,
    handler: (_d, { user }) => companies.members(user.id),
  });
  defineEndpoint(app, {
    path: C.invite, tag, auth: 'user',
    summary: 'A company admin invites an e-mail: the invitee gets a signed accept link (/invoice/index?acceptInvite=…); mayInvoice lets them request invoices. Inviting an e-mail again re-sends the link',
    request: c.companyInviteRequest, response: c.companyMemberSchema,
    handler: (d, { user, req }) => companies.inviteByAdmin(user.id, d.email, d.mayInvoice, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: C.setMayInvoice, tag, auth: 'user',
    summary: "A company admin sets whether a member may request invoices (admins always may). company.memberNotFound for another company's member",
    request: c.companySetMayInvoiceRequest, response: c.companyMemberSchema,
    handler: (d, { user }) => companies.setMayInvoice(user.id, d.memberId, d.mayInvoice),
  });
  defineEndpoint(app, {
    path: C.create, tag, auth: 'user',
    summary: 'A signed-in user in no company creates one (name, tax id) and becomes its admin, who may request invoices and invite members. company.alreadyMember for a member of a company',
    request: c.companyCreateRequest, response: c.companyInfoSchema,
    handler: (d, { user }) => companies.createOwnCompany(user.id, d),
  });
  defineEndpoint(app, {
    path: C.accept, tag, auth: 'user',
    summary: "The invitee accepts with the link's token: valid signature, invitation still open, and the signed-in account's e-mail the invited one; else company.inviteInvalid",
    request: c.companyAcceptRequest, response: c.companyInfoSchema,
    handler: (d, { user }) => companies.accept(user.id, d.token),
  });

  defineEndpoint(app, {
    path: P.titleList, tag, auth: 'user',
    summary: "The company's invoice titles (company headers). company.notMember for a user in no company",
    request: c.emptyRequest, response: c.invoiceTitleListResult,
    handler: (_d, { user }) => invoices.titles(user.id),
  });
  defineEndpoint(app, {
    path: P.titleSave, tag, auth: 'user',
    summary: `Adds a title (no titleId) or edits one of the company's (titleId): name and tax id required; address, phone, bank, account. Invoices already requested keep the title as it was. Errors: ${refusals}, invoice.titleNotFound`,
    request: c.invoiceTitleSaveRequest, response: c.invoiceTitleSchema,
    handler: (d, { user }) => invoices.saveTitle(user.id, d),
  });
  defineEndpoint(app, {
    path: P.titleDelete, tag, auth: 'user',
    summary: `Deletes one of the company's titles. Errors: ${refusals}, invoice.titleNotFound`,
    request: c.invoiceTitleIdRequest, response: c.emptyResult,
    handler: (d, { user }) => invoices.deleteTitle(user.id, d.titleId),
  });
  defineEndpoint(app, {
    path: P.orders, tag, auth: 'user',
    summary: "The caller's paid orders (running or ended service) with their invoice status: 0 not invoiced (may be picked), else the live invoice's status and id",
    request: c.emptyRequest, response: c.invoiceOrdersResult,
    handler: (_d, { user }) => invoices.orders(user.id),
  });
  defineEndpoint(app, {
    path: P.create, tag, auth: 'user',
    summary: `Requests one invoice (status 2 invoicing) for some of the caller's own paid orders, one currency, under a company title. An order is on at most one live invoice: invoice.orderAlreadyInvoiced (also for the loser of two concurrent requests). Errors: ${refusals}, invoice.titleNotFound, invoice.orderNotInvoiceable, invoice.mixedCurrencies`,
    request: c.invoiceCreateRequest, response: c.invoiceSchema,
    handler: (d, { user }) => invoices.create(user.id, d),
  });
  defineEndpoint(app, {
    path: P.list, tag, auth: 'user',
    summary: "The caller's invoices (a company admin: the company's), newest first; status filters (1 invoiced, 2 invoicing, 3 failed, 4 re-issuing, 5 voided)",
    request: c.invoiceListRequest, response: c.invoiceListResult,
    handler: (d, { user }) => invoices.list(user.id, d.status),
  });
  defineEndpoint(app, {
    path: P.detail, tag, auth: 'user',
    summary: "One invoice of the caller's (or, for its admin, of the company's); invoice.notFound otherwise, another company's included",
    request: c.invoiceIdRequest, response: c.invoiceSchema,
    handler: (d, { user }) => invoices.detail(user.id, d.invoiceId),
  });
  defineEndpoint(app, {
    path: P.reCreate, tag, auth: 'user',
    summary: "Asks to re-issue an invoiced (1) or failed (3) invoice: status 4 re-issuing, which the operator issues again. Other statuses: invoice.cannotReCreate ('An invoice that is {0} cannot be re-issued')",
    request: c.invoiceIdRequest, response: c.invoiceSchema,
    handler: (d, { user, req }) => invoices.reCreate(user.id, d.invoiceId, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.download, tag, auth: 'user',
    summary: 'A 5-minute link to the issued PDF, for the requester and their company admin only; invoice.noPdf before it is issued',
    request: c.invoiceIdRequest, response: c.invoiceDownloadResult,
    handler: (d, { user }) => invoices.download(user.id, d.invoiceId),
  });
};
