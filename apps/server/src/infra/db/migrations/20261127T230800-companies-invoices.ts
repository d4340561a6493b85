import type { Kysely } from 'kysely';

// Company members and invoices (issue 23; modules/invoices). `companies` and `company_members` (one row per invited
// e-mail: invited → active when the invited user accepts the HMAC-signed link; uid set then). `invoice_titles`: a company's headers.
// `invoices`: one request, its status (spec section 4, 1–5) moved only by invoice-state.ts, the title copied as it
// was. `invoice_orders`: which orders an invoice covers (kept after a void, for the record). `invoice_order_claims`:
// one row per order on a LIVE invoice (primary key order_id): two requests for one order cannot both insert, and a
// void deletes the claims so the order can be invoiced again. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('company_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    /** null until the invitation is accepted */
    .addColumn('uid', 'text')
    /** admin | member */
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('may_invoice', 'integer', (c) => c.notNull())
    /** lower-cased */
    .addColumn('invited_email', 'text', (c) => c.notNull())
    /** invited | active */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('company_members_email').on('company_members').columns(['company_id', 'invited_email']).unique().execute();
  await db.schema.createIndex('company_members_uid').on('company_members').column('uid').execute();
  await db.schema
    .createTable('invoice_titles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_titles_company').on('invoice_titles').column('company_id').execute();
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    /** JSON of the title's fields when requested */
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('pdf_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('issued_at', 'bigint')
    .execute();
  await db.schema.createIndex('invoices_company').on('invoices').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('invoices_status').on('invoices').columns(['status', 'created_at']).execute();
  await db.schema
    .createTable('invoice_orders')
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_orders_pk', ['invoice_id', 'order_id'])
    .execute();
  await db.schema.createIndex('invoice_orders_order').on('invoice_orders').column('order_id').execute();
  await db.schema
    .createTable('invoice_order_claims')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['invoice_order_claims', 'invoice_orders', 'invoices', 'invoice_titles', 'company_members', 'companies']) await db.schema.dropTable(t).execute();
}
