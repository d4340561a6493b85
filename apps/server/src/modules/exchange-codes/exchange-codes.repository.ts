import type { Insertable, Kysely, Selectable } from 'kysely';
import { ExchangeCodeStatus } from '@cadcloud/contracts';
import type { Database, ExchangeCodesTable } from '../../infra/db/schema.ts';

type Db = Kysely<Database>;
export type ExchangeCodeRow = Selectable<ExchangeCodesTable>;

const numeric = (r: ExchangeCodeRow): ExchangeCodeRow => ({
  ...r,
  periods: Number(r.periods),
  status: Number(r.status),
  expires_at: r.expires_at == null ? null : Number(r.expires_at),
  redeemed_at: r.redeemed_at == null ? null : Number(r.redeemed_at),
  created_at: Number(r.created_at),
});

/** The exchange_codes table: found by the hash of the code, never by the code. */
export function createExchangeCodesRepository(db: Db) {
  return {
    async insertMany(rows: Insertable<ExchangeCodesTable>[], t: Db = db) {
      for (let i = 0; i < rows.length; i += 200) await t.insertInto('exchange_codes').values(rows.slice(i, i + 200)).execute();
    },
    async byHash(hash: string, t: Db = db): Promise<ExchangeCodeRow | undefined> {
      const r = await t.selectFrom('exchange_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
      return r && numeric(r);
    },
    /** Not used → exchanged, only from status 0: false when another redeemer (or the operator's void) came first. */
    async markExchanged(id: string, uid: string, now: number, t: Db = db): Promise<boolean> {
      const r = await t.updateTable('exchange_codes').set({ status: ExchangeCodeStatus.EXCHANGED, redeemed_by: uid, redeemed_at: now }).where('id', '=', id).where('status', '=', ExchangeCodeStatus.NOT_USED).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Only an unused code can be voided; answers whether it was. */
    async markVoid(hash: string, t: Db = db): Promise<boolean> {
      const r = await t.updateTable('exchange_codes').set({ status: ExchangeCodeStatus.VOID }).where('code_hash', '=', hash).where('status', '=', ExchangeCodeStatus.NOT_USED).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async redeemedBy(uid: string, o: { offset: number; limit: number }): Promise<{ total: number; rows: ExchangeCodeRow[] }> {
      const base = db.selectFrom('exchange_codes').where('redeemed_by', '=', uid);
      const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('redeemed_at', 'desc').orderBy('id').offset(o.offset).limit(o.limit).execute();
      return { total, rows: rows.map(numeric) };
    },
    async ofBatch(batchId: string): Promise<ExchangeCodeRow[]> {
      return (await db.selectFrom('exchange_codes').selectAll().where('batch_id', '=', batchId).orderBy('created_at').orderBy('id').execute()).map(numeric);
    },
    async ofOrder(orderId: string): Promise<ExchangeCodeRow[]> {
      return (await db.selectFrom('exchange_codes').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute()).map(numeric);
    },
    /** Every batch with its plan and counts by stored status (the operator's overview). */
    async batches() {
      return db
        .selectFrom('exchange_codes')
        .select((eb) => ['batch_id', 'plan_code', 'periods', eb.fn.min('created_at').as('created_at'), eb.fn.max('expires_at').as('expires_at'), eb.fn.countAll<number>().as('count'), eb.fn.sum<number>(eb.case().when('status', '=', ExchangeCodeStatus.EXCHANGED).then(1).else(0).end()).as('exchanged')])
        .groupBy(['batch_id', 'plan_code', 'periods'])
        .orderBy('created_at', 'desc')
        .execute();
    },
  };
}
