import { z } from 'zod';
import { CURRENCIES } from './membership.ts';

/**
 * Company members and invoices (issue 23; spec sections 1, 3, 4, 7, 8). The spec shows only
 * `/company/v5/member/getCompanyInfoByToken`; the other paths are ours, in the same families, and documented in
 * /api/docs. Every invoice path is "silent" on the client (spec section 8): its errors go back to the caller, no toast.
 *
 * The flow: a company member allowed to invoice (admin, or may_invoice) picks their own paid orders not yet on a live
 * invoice, chooses a title (company header) and requests → 2 invoicing. The operator issues (→ 1, the PDF attached),
 * fails (→ 3) or voids (→ 5). The member may ask to re-issue an issued or failed one (→ 4), which the operator issues
 * again. A voided invoice frees its orders.
 */
export const COMPANY_PATHS = {
  info: '/company/v5/member/getCompanyInfoByToken',
  members: '/company/v5/member/list',
  invite: '/company/v5/member/invite',
  setMayInvoice: '/company/v5/member/setMayInvoice',
  accept: '/company/v5/member/accept',
  /** a signed-in user in no company creates one and becomes its admin */
  create: '/company/v5/member/create',
} as const;

export const INVOICE_PATHS = {
  orders: '/invoice/v5/orders',
  create: '/invoice/v5/create',
  list: '/invoice/v5/list',
  detail: '/invoice/v5/detail',
  reCreate: '/invoice/v5/reCreate',
  download: '/invoice/v5/download',
  titleList: '/invoice/v5/title/list',
  titleSave: '/invoice/v5/title/save',
  titleDelete: '/invoice/v5/title/delete',
} as const;

/** Spec section 4: invoice statuses by index. 0 is an order's state (no live invoice), never an invoice's. */
export const InvoiceStatus = { NOT_INVOICED: 0, INVOICED: 1, INVOICING: 2, FAILED: 3, REISSUING: 4, VOIDED: 5 } as const;
export type InvoiceStatusCode = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];
export const INVOICE_STATUSES: readonly InvoiceStatusCode[] = [0, 1, 2, 3, 4, 5];
/** The i18n key suffix (`invoices.status.<name>`) of each status. */
export const INVOICE_STATUS_NAMES: Record<InvoiceStatusCode, string> = { 0: 'notInvoiced', 1: 'invoiced', 2: 'invoicing', 3: 'failed', 4: 'reissuing', 5: 'voided' };

/** An answer without data. */
export const emptyResult = z.object({});

export const COMPANY_ROLES = ['admin', 'member'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** Spec section 7's getCompanyInfoByToken: the caller's company, or null for someone in none. */
export const companyInfoSchema = z.object({
  companyId: z.string(),
  companyName: z.string(),
  taxId: z.string().nullable(),
  role: z.enum(COMPANY_ROLES),
  /** may request invoices (admins always may) */
  mayInvoice: z.boolean(),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;
export const companyInfoResult = z.object({
  company: companyInfoSchema.nullable(),
  /**
   * A fingerprint of the login ticket this call came with (never the ticket: the cookie is httpOnly). The web client
   * saves it with the company header (spec section 3's utoken) and drops the header when it changes.
   */
  utoken: z.string().nullable(),
});

export const companyMemberSchema = z.object({
  memberId: z.string(),
  email: z.string(),
  role: z.enum(COMPANY_ROLES),
  mayInvoice: z.boolean(),
  status: z.enum(['invited', 'active']),
});
export const companyMembersResult = z.object({ members: z.array(companyMemberSchema) });
export const companyInviteRequest = z.object({ email: z.string().trim().toLowerCase().email(), mayInvoice: z.boolean().default(false) });
export const companySetMayInvoiceRequest = z.object({ memberId: z.string().min(1).max(64), mayInvoice: z.boolean() });
export const companyAcceptRequest = z.object({ token: z.string().min(1).max(512) });
export const companyCreateRequest = z.object({ name: z.string().trim().min(1).max(100), taxId: z.string().trim().max(64).optional() });

const text = (max: number) => z.string().trim().max(max);
/** An invoice title (company header): what is printed on the invoice. */
export const invoiceTitleFields = z.object({
  name: text(200).min(1, 'invoice title name not empty'),
  taxId: text(64).min(1, 'tax id not empty'),
  address: text(300).default(''),
  phone: text(64).default(''),
  bank: text(200).default(''),
  account: text(64).default(''),
});
export const invoiceTitleSchema = invoiceTitleFields.extend({ titleId: z.string() });
export type InvoiceTitle = z.infer<typeof invoiceTitleSchema>;
/** Without titleId: a new title; with it: that title edited. */
export const invoiceTitleSaveRequest = invoiceTitleFields.extend({ titleId: z.string().max(64).optional() });
export const invoiceTitleListResult = z.object({ titles: z.array(invoiceTitleSchema) });
export const invoiceTitleIdRequest = z.object({ titleId: z.string().min(1).max(64) });

/** One of the caller's paid orders with its invoice state (0 not invoiced, else the live invoice's status). */
export const invoiceableOrderSchema = z.object({
  orderId: z.string(),
  planCode: z.string(),
  currency: z.enum(CURRENCIES),
  payAmount: z.number(),
  paidAt: z.number().nullable(),
  invoiceStatus: z.number().describe('InvoiceStatus'),
  invoiceId: z.string().nullable(),
});
export const invoiceOrdersResult = z.object({ orders: z.array(invoiceableOrderSchema) });

export const invoiceCreateRequest = z.object({ orderIds: z.array(z.string().min(1).max(64)).min(1, 'choose at least one order').max(50), titleId: z.string().min(1).max(64) });

export const invoiceSchema = z.object({
  invoiceId: z.string(),
  status: z.number().describe('InvoiceStatus 1–5'),
  /** the title as it was when requested (later edits of the title do not change a requested invoice) */
  title: invoiceTitleFields,
  orderIds: z.array(z.string()),
  currency: z.enum(CURRENCIES),
  amount: z.number(),
  requesterEmail: z.string(),
  /** why it failed (status 3), from the operator */
  reason: z.string().nullable(),
  hasPdf: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  issuedAt: z.number().nullable(),
});
export type InvoiceInfo = z.infer<typeof invoiceSchema>;
export const invoiceListRequest = z.object({ status: z.number().int().min(1).max(5).optional() });
export const invoiceListResult = z.object({ invoices: z.array(invoiceSchema) });
export const invoiceIdRequest = z.object({ invoiceId: z.string().min(1).max(64) });
export const invoiceDownloadResult = z.object({ url: z.string() });
export type CompanyMember = z.infer<typeof companyMemberSchema>;
export type InvoiceableOrder = z.infer<typeof invoiceableOrderSchema>;
