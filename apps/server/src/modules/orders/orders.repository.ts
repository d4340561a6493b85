import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { OrderStatus } from '@cadcloud/contracts';
import { dialectOf } from '../../infra/db/db.ts';
import type { Database, OrdersTable, PaymentEventsTable } from '../../infra/db/schema.ts';

type Db = Kysely<Database>;
export type OrderRow = Selectable<OrdersTable>;

const numeric = (r: OrderRow): OrderRow => ({
  ...r,
  plan_version: Number(r.plan_version),
  status: Number(r.status),
  pay_status: Number(r.pay_status),
  order_type: Number(r.order_type),
  pay_way: r.pay_way == null ? null : Number(r.pay_way),
  amount_minor: Number(r.amount_minor),
  pay_amount_minor: Number(r.pay_amount_minor),
  client_type: Number(r.client_type),
  created_at: Number(r.created_at),
  paid_at: r.paid_at == null ? null : Number(r.paid_at),
  expires_at: Number(r.expires_at),
  service_ends_at: r.service_ends_at == null ? null : Number(r.service_ends_at),
  queried_at: r.queried_at == null ? null : Number(r.queried_at),
});

/** The list's status filter: 3 (service expired) is a paid order whose period has ended; 1 is one still running. */
export interface StatusFilter {
  status?: number;
  now: number;
}

/** Orders and the provider events applied to them: the only place of modules/orders that touches Kysely. */
export function createOrdersRepository(db: Db) {
  function filtered(t: Db, uid: string, f: StatusFilter) {
    let q = t.selectFrom('orders').where('uid', '=', uid);
    if (f.status === OrderStatus.EXPIRED) q = q.where('status', '=', OrderStatus.PAID).where('service_ends_at', '<=', f.now);
    else if (f.status === OrderStatus.PAID) q = q.where('status', '=', OrderStatus.PAID).where('service_ends_at', '>', f.now);
    else if (f.status !== undefined) q = q.where('status', '=', f.status);
    return q;
  }
  return {
    async insert(row: Insertable<OrdersTable>, t: Db = db) {
      await t.insertInto('orders').values(row).execute();
    },
    async byId(id: string, t: Db = db): Promise<OrderRow | undefined> {
      const r = await t.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
      return r && numeric(r);
    },
    /** The order, its row locked until the transaction ends (PostgreSQL; SQLite's transaction holds the database). */
    async byIdForUpdate(id: string, t: Db): Promise<OrderRow | undefined> {
      let q = t.selectFrom('orders').selectAll().where('id', '=', id);
      if (dialectOf(db) === 'postgres') q = q.forUpdate();
      const r = await q.executeTakeFirst();
      return r && numeric(r);
    },
    async update(id: string, set: Updateable<OrdersTable>, t: Db = db) {
      await t.updateTable('orders').set(set).where('id', '=', id).execute();
    },
    /** Marks the provider as asked at `now`, unless another process asked after `since`: true when this caller may ask. */
    async claimQuery(id: string, now: number, since: number): Promise<boolean> {
      const r = await db
        .updateTable('orders')
        .set({ queried_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('queried_at', 'is', null), eb('queried_at', '<=', since)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async page(uid: string, f: StatusFilter & { pageNo: number; pageSize: number }): Promise<{ total: number; rows: OrderRow[] }> {
      const total = Number((await filtered(db, uid, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await filtered(db, uid, f).selectAll().orderBy('created_at', 'desc').orderBy('id').limit(f.pageSize).offset((f.pageNo - 1) * f.pageSize).execute();
      return { total, rows: rows.map(numeric) };
    },
    /** Open (unpaid or confirming) orders past their expiry, oldest first. */
    async expiredOpen(now: number, limit: number): Promise<OrderRow[]> {
      const rows = await db.selectFrom('orders').selectAll().where('status', 'in', [OrderStatus.UNPAID, OrderStatus.CONFIRMING]).where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
      return rows.map(numeric);
    },
    /** Operators: every order, or a user's, or of one status, newest first. */
    async all(o: { uid?: string; status?: number; limit: number }): Promise<OrderRow[]> {
      let q = db.selectFrom('orders').selectAll();
      if (o.uid) q = q.where('uid', '=', o.uid);
      if (o.status !== undefined) q = q.where('status', '=', o.status);
      return (await q.orderBy('created_at', 'desc').limit(o.limit).execute()).map(numeric);
    },
    /** false when this provider event was recorded before: it is applied once. */
    async recordEvent(row: Insertable<PaymentEventsTable>, t: Db): Promise<boolean> {
      const r = await t.insertInto('payment_events').values(row).onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing()).executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    eventsOf: (orderId: string) => db.selectFrom('payment_events').selectAll().where('order_id', '=', orderId).orderBy('received_at').execute(),
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
