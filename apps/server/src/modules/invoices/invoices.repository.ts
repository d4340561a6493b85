import type { Kysely, Selectable } from 'kysely';
import { OrderStatus } from '@cadcloud/contracts';
import type { Database } from '../../infra/db/schema.ts';

type Db = Kysely<Database>;
export type CompanyRow = Selectable<Database['companies']>;
export type MemberRow = Selectable<Database['company_members']>;
export type TitleRow = Selectable<Database['invoice_titles']>;
export type InvoiceRow = Selectable<Database['invoices']>;

/**
 * The only place that touches the companies and invoices tables. It also reads `orders` (status, owner, amount) and
 * `users` (e-mail): an invoice's request checks its orders inside its own transaction, which the orders service's
 * calls could not do.
 */
export function createInvoicesRepository(db: Db) {
  return {
    db,
    insertCompany: (row: CompanyRow) => db.insertInto('companies').values(row).execute(),
    company: (id: string) => db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst(),
    companies: () => db.selectFrom('companies').selectAll().orderBy('created_at').execute(),
    memberCounts: () => db.selectFrom('company_members').select(['company_id', 'status']).select((e) => e.fn.countAll<number>().as('n')).groupBy(['company_id', 'status']).execute(),

    /** The caller's active membership (the oldest, should they have accepted two companies' invitations). */
    activeMembership: (uid: string) =>
      db.selectFrom('company_members').innerJoin('companies', 'companies.id', 'company_members.company_id').selectAll('company_members').select(['companies.name as company_name', 'companies.tax_id as company_tax_id']).where('company_members.uid', '=', uid).where('company_members.status', '=', 'active').orderBy('company_members.created_at').orderBy('company_members.id').executeTakeFirst(),
    member: (id: string) => db.selectFrom('company_members').selectAll().where('id', '=', id).executeTakeFirst(),
    memberByEmail: (companyId: string, email: string) => db.selectFrom('company_members').selectAll().where('company_id', '=', companyId).where('invited_email', '=', email).executeTakeFirst(),
    members: (companyId: string) => db.selectFrom('company_members').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute(),
    insertMember: (row: MemberRow) => db.insertInto('company_members').values(row).execute(),
    updateMember: (id: string, patch: Partial<MemberRow>) => db.updateTable('company_members').set(patch).where('id', '=', id).execute(),
    /** an invitation accepted once: only while still invited */
    activateMember: async (id: string, uid: string) => (await db.updateTable('company_members').set({ uid, status: 'active' }).where('id', '=', id).where('status', '=', 'invited').executeTakeFirst()).numUpdatedRows > 0n,
    userById: (uid: string) => db.selectFrom('users').select(['id', 'email']).where('id', '=', uid).executeTakeFirst(),
    userByEmail: (email: string) => db.selectFrom('users').select(['id', 'email']).where((e) => e(e.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst(),

    titles: (companyId: string) => db.selectFrom('invoice_titles').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute(),
    title: (companyId: string, id: string) => db.selectFrom('invoice_titles').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
    insertTitle: (row: TitleRow) => db.insertInto('invoice_titles').values(row).execute(),
    updateTitle: (id: string, patch: Partial<TitleRow>) => db.updateTable('invoice_titles').set(patch).where('id', '=', id).execute(),
    deleteTitle: (companyId: string, id: string) => db.deleteFrom('invoice_titles').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),

    /** The user's paid orders (stored status 1: running or ended service) with their live invoice, if any. */
    paidOrders: (uid: string) =>
      db
        .selectFrom('orders')
        .leftJoin('invoice_order_claims', 'invoice_order_claims.order_id', 'orders.id')
        .leftJoin('invoices', 'invoices.id', 'invoice_order_claims.invoice_id')
        .select(['orders.id', 'orders.plan_code', 'orders.currency', 'orders.pay_amount_minor', 'orders.paid_at', 'invoices.id as invoice_id', 'invoices.status as invoice_status'])
        .where('orders.uid', '=', uid)
        .where('orders.status', '=', OrderStatus.PAID)
        .orderBy('orders.paid_at', 'desc')
        .execute(),
    ordersByIds: (t: Db, ids: string[]) => t.selectFrom('orders').select(['id', 'uid', 'status', 'currency', 'pay_amount_minor']).where('id', 'in', ids).execute(),

    invoice: (id: string) => db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst(),
    invoiceOrderIds: async (id: string) => (await db.selectFrom('invoice_orders').select('order_id').where('invoice_id', '=', id).orderBy('order_id').execute()).map((r) => r.order_id),
    invoices: (f: { companyId?: string; uid?: string; status?: number; limit?: number; offset?: number }) => {
      let q = db.selectFrom('invoices').selectAll();
      if (f.companyId) q = q.where('company_id', '=', f.companyId);
      if (f.uid) q = q.where('uid', '=', f.uid);
      if (f.status !== undefined) q = q.where('status', '=', f.status);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit ?? 200).offset(f.offset ?? 0).execute();
    },
    countInvoices: async (status?: number) => {
      let q = db.selectFrom('invoices').select((e) => e.fn.countAll<number>().as('n'));
      if (status !== undefined) q = q.where('status', '=', status);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },
    /** Moves an invoice from `from` to `patch.status` only if it is still in `from`: of two racing changes one wins. */
    moveInvoice: async (t: Db, id: string, from: number, patch: Partial<InvoiceRow>) => (await t.updateTable('invoices').set(patch).where('id', '=', id).where('status', '=', from).executeTakeFirst()).numUpdatedRows > 0n,
    releaseOrders: (t: Db, invoiceId: string) => t.deleteFrom('invoice_order_claims').where('invoice_id', '=', invoiceId).execute(),
  };
}
export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
