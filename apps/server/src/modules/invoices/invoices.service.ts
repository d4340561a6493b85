import { randomBytes } from 'node:crypto';
import { INVOICE_STATUS_NAMES, InvoiceStatus, OrderStatus, type Currency, type InvoiceInfo, type InvoiceStatusCode, type InvoiceTitle } from '@cadcloud/contracts';
import type { Language } from '@cadcloud/i18n';
import type { AppDeps } from '../../app.deps.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { appError } from '../../infra/http/app-error.ts';
import { fromMinor } from '../orders/providers/payment-provider.ts';
import { createCompaniesService, invoiceText } from './companies.service.ts';
import { nextInvoiceStatus, type InvoiceEvent } from './invoice-state.ts';
import type { InvoiceRow, TitleRow } from './invoices.repository.ts';

export type InvoicesDeps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'storage'>;

/** Why an operator's or member's change was refused (the CLI prints it; the API answers cannotReCreate). */
export class InvoiceStateError extends Error {}

/** The localized name of an invoice status (the `{0}` of cannotReCreate, the mails). */
export const invoiceStatusName = (status: number, lang: Language) => invoiceText(lang, `status.${INVOICE_STATUS_NAMES[status as InvoiceStatusCode] ?? status}`);

const titleFields = (t: TitleRow) => ({ name: t.name, taxId: t.tax_id, address: t.address, phone: t.phone, bank: t.bank, account: t.account });
type TitleInput = Omit<InvoiceTitle, 'titleId'>;

/**
 * Invoices (issue 23 part 3). Who: an active company member allowed to invoice (admin, or may_invoice) requests for
 * their own paid orders; the requester and their company's admin see, download and re-issue it; another company's
 * invoice is "not found". An order is on at most one live invoice: `invoice_order_claims` has the order as its
 * primary key, so of two concurrent requests for one order exactly one inserts, the other is refused. Status changes
 * follow invoice-state.ts and are compare-and-set on the status, so two racing changes cannot both apply.
 */
export function createInvoicesService(deps: InvoicesDeps) {
  const companies = createCompaniesService(deps);
  const repo = companies.repo;

  async function invoicer(uid: string) {
    const m = await companies.membershipOf(uid);
    if (m.role !== 'admin' && m.may_invoice !== 1) throw appError('invoice.notAllowed');
    return m;
  }
  /** An invoice the caller may see: their own, or any of their company's when they are its admin. */
  async function visible(uid: string, invoiceId: string) {
    const m = await companies.membershipOf(uid);
    const inv = await repo.invoice(invoiceId);
    if (!inv || inv.company_id !== m.company_id || (inv.uid !== uid && m.role !== 'admin')) throw appError('invoice.notFound');
    return inv;
  }
  async function present(inv: InvoiceRow): Promise<InvoiceInfo> {
    const requester = await repo.userById(inv.uid);
    return {
      invoiceId: inv.id,
      status: inv.status,
      title: JSON.parse(inv.title),
      orderIds: await repo.invoiceOrderIds(inv.id),
      currency: inv.currency as Currency,
      amount: fromMinor(Number(inv.amount_minor), inv.currency as Currency),
      requesterEmail: requester?.email ?? '',
      reason: inv.reason,
      hasPdf: inv.pdf_key !== null,
      createdAt: Number(inv.created_at),
      updatedAt: Number(inv.updated_at),
      issuedAt: inv.issued_at === null ? null : Number(inv.issued_at),
    };
  }
  /** Applies `event` to the invoice if the table allows it from its current status; false when it does not. */
  async function move(inv: InvoiceRow, event: InvoiceEvent, patch: Partial<InvoiceRow> = {}) {
    const to = nextInvoiceStatus(inv.status, event);
    if (to === undefined) return false;
    return deps.db.transaction().execute(async (t) => {
      if (!(await repo.moveInvoice(t, inv.id, inv.status, { ...patch, status: to, updated_at: Date.now() }))) return false;
      if (to === InvoiceStatus.VOIDED) await repo.releaseOrders(t, inv.id);
      return true;
    });
  }
  async function mailRequester(inv: InvoiceRow, key: string, args: string[]) {
    const u = await repo.userById(inv.uid);
    if (!u) return;
    const lang: Language = 'zh';
    await deps.mailer.send({ to: u.email, subject: invoiceText(lang, `mail.${key}.subject`, [inv.id]), text: invoiceText(lang, `mail.${key}.text`, [inv.id, ...args, `${deps.config.publicUrl}/invoice/detail?invoiceId=${inv.id}`]) });
  }
  /** Operator actions name the invoice by id and get a plain error (the CLI prints it). */
  async function operatorMove(invoiceId: string, event: InvoiceEvent, patch: Partial<InvoiceRow> = {}) {
    const inv = await repo.invoice(invoiceId);
    if (!inv) throw new InvoiceStateError(`no invoice ${invoiceId}`);
    if (!(await move(inv, event, patch))) throw new InvoiceStateError(`invoice ${invoiceId} is ${INVOICE_STATUS_NAMES[inv.status as InvoiceStatusCode] ?? inv.status} (${inv.status}): cannot ${event}`);
    return (await repo.invoice(invoiceId))!;
  }

  return {
    companies,
    async titles(uid: string) {
      const m = await companies.membershipOf(uid);
      return { titles: (await repo.titles(m.company_id)).map((t) => ({ titleId: t.id, ...titleFields(t) })) };
    },
    async saveTitle(uid: string, d: TitleInput & { titleId?: string }): Promise<InvoiceTitle> {
      const m = await invoicer(uid);
      const fields = { name: d.name, tax_id: d.taxId, address: d.address, phone: d.phone, bank: d.bank, account: d.account };
      if (d.titleId) {
        if (!(await repo.title(m.company_id, d.titleId))) throw appError('invoice.titleNotFound');
        await repo.updateTitle(d.titleId, fields);
      }
      const id = d.titleId ?? newId();
      if (!d.titleId) await repo.insertTitle({ id, company_id: m.company_id, ...fields, created_at: Date.now() });
      return { titleId: id, ...titleFields((await repo.title(m.company_id, id))!) };
    },
    async deleteTitle(uid: string, titleId: string) {
      const m = await invoicer(uid);
      if (!(await repo.deleteTitle(m.company_id, titleId)).numDeletedRows) throw appError('invoice.titleNotFound');
      return {};
    },

    /** The caller's paid orders with their invoice status (0 = not invoiced: may be picked). */
    async orders(uid: string) {
      await companies.membershipOf(uid);
      return {
        orders: (await repo.paidOrders(uid)).map((o) => ({ orderId: o.id, planCode: o.plan_code, currency: o.currency as Currency, payAmount: fromMinor(Number(o.pay_amount_minor), o.currency as Currency), paidAt: o.paid_at === null ? null : Number(o.paid_at), invoiceStatus: o.invoice_status ?? InvoiceStatus.NOT_INVOICED, invoiceId: o.invoice_id ?? null })),
      };
    },
    /** Requests one invoice for the caller's own paid orders under one of the company's titles: status 2. */
    async create(uid: string, d: { orderIds: string[]; titleId: string }) {
      const m = await invoicer(uid);
      const title = await repo.title(m.company_id, d.titleId);
      if (!title) throw appError('invoice.titleNotFound');
      const ids = [...new Set(d.orderIds)].sort();
      const id = newId();
      const now = Date.now();
      try {
        await deps.db.transaction().execute(async (t) => {
          const orders = await repo.ordersByIds(t, ids);
          if (orders.length !== ids.length || orders.some((o) => o.uid !== uid || o.status !== OrderStatus.PAID)) throw appError('invoice.orderNotInvoiceable');
          if (new Set(orders.map((o) => o.currency)).size > 1) throw appError('invoice.mixedCurrencies');
          const amount = orders.reduce((s, o) => s + Number(o.pay_amount_minor), 0);
          await t.insertInto('invoices').values({ id, company_id: m.company_id, uid, status: nextInvoiceStatus(InvoiceStatus.NOT_INVOICED, 'request')!, title: JSON.stringify(titleFields(title)), currency: orders[0]!.currency, amount_minor: amount, reason: null, pdf_key: null, created_at: now, updated_at: now, issued_at: null }).execute();
          await t.insertInto('invoice_orders').values(ids.map((order_id) => ({ invoice_id: id, order_id }))).execute();
          // the claim: an order already on a live invoice (or claimed by a concurrent request) stops this one here
          await t.insertInto('invoice_order_claims').values(ids.map((order_id) => ({ order_id, invoice_id: id }))).execute();
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw appError('invoice.orderAlreadyInvoiced');
        throw e;
      }
      return present((await repo.invoice(id))!);
    },
    /** The caller's invoices; a company admin sees the whole company's. Newest first. */
    async list(uid: string, status?: number) {
      const m = await companies.membershipOf(uid);
      const rows = await repo.invoices({ companyId: m.company_id, uid: m.role === 'admin' ? undefined : uid, status });
      return { invoices: await Promise.all(rows.map(present)) };
    },
    detail: async (uid: string, invoiceId: string) => present(await visible(uid, invoiceId)),
    /** The member asks again for an issued or failed invoice: 4 re-issuing. */
    async reCreate(uid: string, invoiceId: string, lang: Language) {
      const inv = await visible(uid, invoiceId);
      if (!(await move(inv, 'reissue', { reason: null }))) throw appError('invoice.cannotReCreate', [invoiceStatusName((await repo.invoice(inv.id))!.status, lang)]);
      return present((await repo.invoice(inv.id))!);
    },
    /** A short-lived link to the issued PDF: the requester and their company's admin only. */
    async download(uid: string, invoiceId: string) {
      const inv = await visible(uid, invoiceId);
      if (!inv.pdf_key) throw appError('invoice.noPdf');
      return { url: await deps.storage.signedGetUrl(inv.pdf_key, { expiresInSeconds: 300, downloadName: `invoice-${inv.id}.pdf` }) };
    },

    // the operator's side (admin CLI)
    adminList: async (f: { status?: number; limit?: number }) => Promise.all((await repo.invoices(f)).map(present)),
    /** The operator page: one page of every company's requests, each with its company's name. */
    async adminPage(f: { status?: number; pageNo: number; pageSize: number }) {
      const rows = await repo.invoices({ status: f.status, limit: f.pageSize, offset: (f.pageNo - 1) * f.pageSize });
      const invoices = await Promise.all(rows.map(async (r) => ({ ...(await present(r)), companyName: (await repo.company(r.company_id))?.name ?? '' })));
      return { total: await repo.countInvoices(f.status), invoices };
    },
    /** Stores the PDF and issues (from invoicing or re-issuing): status 1; mails the requester. */
    async issue(invoiceId: string, pdf: Buffer) {
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new InvoiceStateError('the file is not a PDF');
      const inv = await repo.invoice(invoiceId);
      if (!inv) throw new InvoiceStateError(`no invoice ${invoiceId}`);
      if (nextInvoiceStatus(inv.status, 'issue') === undefined) throw new InvoiceStateError(`invoice ${invoiceId} is ${INVOICE_STATUS_NAMES[inv.status as InvoiceStatusCode]} (${inv.status}): cannot issue`);
      const key = `invoices/${inv.id}/${randomBytes(8).toString('hex')}.pdf`;
      await deps.storage.put(key, pdf, { size: pdf.length, contentType: 'application/pdf' });
      const done = await operatorMove(invoiceId, 'issue', { pdf_key: key, issued_at: Date.now(), reason: null });
      // the PDF of an earlier issue goes: the member downloads the newest
      if (inv.pdf_key) await deps.storage.delete(inv.pdf_key).catch(() => {});
      await mailRequester(done, 'issued', []);
      return present(done);
    },
    async fail(invoiceId: string, reason: string) {
      const done = await operatorMove(invoiceId, 'fail', { reason });
      await mailRequester(done, 'failed', [reason]);
      return present(done);
    },
    async void(invoiceId: string) {
      const done = await operatorMove(invoiceId, 'void');
      await mailRequester(done, 'voided', []);
      return present(done);
    },
  };
}
export type InvoicesService = ReturnType<typeof createInvoicesService>;
