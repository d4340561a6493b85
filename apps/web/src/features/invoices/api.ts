import { COMPANY_PATHS, INVOICE_PATHS, type CompanyInfo, type CompanyMember, type InvoiceableOrder, type InvoiceInfo, type InvoiceTitle } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export type { CompanyInfo, CompanyMember, InvoiceableOrder, InvoiceInfo, InvoiceTitle };
export type TitleInput = Omit<InvoiceTitle, 'titleId'> & { titleId?: string };

/**
 * Company and invoice calls (call style 2). Invoice paths are silent (spec section 8): errors come back to the caller
 * as ApiError, and the pages show them where the user acted, never as a toast.
 */
export const invoicesApi = {
  company: () => call<{ company: CompanyInfo | null; utoken: string | null }>(COMPANY_PATHS.info),
  members: () => call<{ members: CompanyMember[] }>(COMPANY_PATHS.members),
  invite: (email: string, mayInvoice: boolean) => call<CompanyMember>(COMPANY_PATHS.invite, { email, mayInvoice }),
  setMayInvoice: (memberId: string, mayInvoice: boolean) => call<CompanyMember>(COMPANY_PATHS.setMayInvoice, { memberId, mayInvoice }),
  accept: (token: string) => call<CompanyInfo>(COMPANY_PATHS.accept, { token }),
  createCompany: (name: string, taxId: string) => call<CompanyInfo>(COMPANY_PATHS.create, { name, taxId: taxId || undefined }),
  titles: () => call<{ titles: InvoiceTitle[] }>(INVOICE_PATHS.titleList),
  saveTitle: (d: TitleInput) => call<InvoiceTitle>(INVOICE_PATHS.titleSave, d),
  deleteTitle: (titleId: string) => call(INVOICE_PATHS.titleDelete, { titleId }),
  orders: () => call<{ orders: InvoiceableOrder[] }>(INVOICE_PATHS.orders),
  create: (orderIds: string[], titleId: string) => call<InvoiceInfo>(INVOICE_PATHS.create, { orderIds, titleId }),
  list: (status?: number) => call<{ invoices: InvoiceInfo[] }>(INVOICE_PATHS.list, status === undefined ? {} : { status }),
  detail: (invoiceId: string) => call<InvoiceInfo>(INVOICE_PATHS.detail, { invoiceId }),
  reCreate: (invoiceId: string) => call<InvoiceInfo>(INVOICE_PATHS.reCreate, { invoiceId }),
  download: (invoiceId: string) => call<{ url: string }>(INVOICE_PATHS.download, { invoiceId }),
};
