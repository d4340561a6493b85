import type { Kysely } from 'kysely';

// Orders and payments (issue 22 part 3; modules/orders). `orders`: one row per purchase, its status (spec section 4,
// 0–7) moved only by order-state.ts. `payment_events`: each provider event applied once (unique provider + event id),
// in the same transaction as the status change it caused. `sandbox_payments`: the built-in sandbox provider's own
// ledger (what a real provider keeps on its side), so its query/cancel/refund work across server processes.
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('plan_code', 'text', (c) => c.notNull())
    .addColumn('plan_version', 'integer', (c) => c.notNull())
    .addColumn('plan_kind', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('pay_status', 'integer', (c) => c.notNull())
    .addColumn('order_type', 'integer', (c) => c.notNull())
    .addColumn('pay_way', 'integer')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('pay_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('provider_trade_id', 'text')
    .addColumn('client_type', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('service_ends_at', 'bigint')
    /** when the status poll last asked the provider (rate limit across processes) */
    .addColumn('queried_at', 'bigint')
    /** why the last event left the order where it is (wrong amount, paid after cancel …), for the operator */
    .addColumn('note', 'text')
    .execute();
  await db.schema.createIndex('orders_uid_created').on('orders').columns(['uid', 'created_at']).execute();
  // the time-out sweep: unpaid orders by expiry
  await db.schema.createIndex('orders_status_expires').on('orders').columns(['status', 'expires_at']).execute();
  await db.schema
    .createTable('payment_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** applied | ignored:<reason> | rejected:<reason> */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();
  await db.schema.createIndex('payment_events_order').on('payment_events').column('order_id').execute();
  await db.schema
    .createTable('sandbox_payments')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    /** open | paid | declined | closed | refunded */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_payments').execute();
  await db.schema.dropTable('payment_events').execute();
  await db.schema.dropTable('orders').execute();
}
