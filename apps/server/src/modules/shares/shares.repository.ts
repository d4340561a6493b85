import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, SharesTable, ShareItemsTable } from '../../infra/db/schema.ts';

export type ShareRow = Selectable<SharesTable>;
export type ShareItemRow = Selectable<ShareItemsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The only place that touches `shares`, `share_items` and `share_extract_limits`. */
export function createSharesRepository(db: Kysely<Database>) {
  return {
    async insert(row: ShareRow, items: ShareItemRow[], t?: Db) {
      const run = async (x: Db) => {
        await x.insertInto('shares').values(row).execute();
        if (items.length) await x.insertInto('share_items').values(items).execute();
      };
      if (t) await run(t);
      else await db.transaction().execute(run);
    },
    async findById(id: string) {
      return db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByRand(rand: string) {
      return db.selectFrom('shares').selectAll().where('rand', '=', rand).executeTakeFirst();
    },
    /** One user's shares, newest first (group shares included: they are the sharer's too). */
    async listOwned(uid: string, o: { offset: number; limit: number }) {
      const base = db.selectFrom('shares').where('uid', '=', uid);
      const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(o.offset).limit(o.limit).execute();
      return { rows, total };
    },
    async findOwned(uid: string, ids: string[]) {
      if (!ids.length) return [];
      return db.selectFrom('shares').selectAll().where('uid', '=', uid).where('id', 'in', ids).execute();
    },
    async itemsOf(shareIds: string[]): Promise<ShareItemRow[]> {
      if (!shareIds.length) return [];
      return db.selectFrom('share_items').selectAll().where('share_id', 'in', shareIds).execute();
    },
    async update(id: string, patch: Partial<ShareRow>) {
      await db.updateTable('shares').set(patch).where('id', '=', id).execute();
    },
    async cancel(ids: string[], now: number) {
      if (!ids.length) return 0;
      const r = await db.updateTable('shares').set({ cancelled_at: now }).where('id', 'in', ids).where('cancelled_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async ownerName(uid: string) {
      return (await db.selectFrom('users').select('name').where('id', '=', uid).executeTakeFirst())?.name ?? '';
    },
    /** A published (privateType '0') live file or folder of anyone (file/getProductItemById). Read-only. */
    async findPublicItem(id: string) {
      return db.selectFrom('items').selectAll().where('id', '=', id).where('private_type', '=', '0').where('deleted_at', 'is', null).executeTakeFirst();
    },

    /** Whether this client (or everyone: '*') is locked out of the share at `now`: a read, no write. */
    async isLocked(shareId: string, clients: string[], now: number) {
      const r = await db.selectFrom('share_extract_limits').select('client').where('share_id', '=', shareId).where('client', 'in', clients).where('locked_until', '>', now).limit(1).execute();
      return r.length > 0;
    },
    /**
     * Counts one extraction attempt for (share, client) before its code is checked, in one atomic upsert (so
     * parallel requests, from any server process, cannot all slip past the limit): a window older than
     * `windowMs` starts again at 1. Answers the count in the window and the lock end after this attempt.
     */
    async countAttempt(shareId: string, client: string, now: number, windowMs: number) {
      const stale = now - windowMs;
      const T = sql.ref('share_extract_limits');
      const r = await db
        .insertInto('share_extract_limits')
        .values({ share_id: shareId, client, window_start: now, failures: 1, locked_until: 0 })
        .onConflict((oc) =>
          oc.columns(['share_id', 'client']).doUpdateSet({
            failures: sql`case when ${T}.window_start <= ${stale} then 1 else ${T}.failures + 1 end`,
            window_start: sql`case when ${T}.window_start <= ${stale} then ${now} else ${T}.window_start end`,
          }),
        )
        .returning(['failures', 'locked_until'])
        .executeTakeFirstOrThrow();
      return { failures: Number(r.failures), lockedUntil: Number(r.locked_until) };
    },
    async lock(shareId: string, client: string, until: number) {
      await db.updateTable('share_extract_limits').set({ locked_until: until }).where('share_id', '=', shareId).where('client', '=', client).where('locked_until', '<', until).execute();
    },
    /** A successful attempt was not a failure: takes its count back. */
    async uncount(shareId: string, client: string) {
      await db.updateTable('share_extract_limits').set({ failures: sql`case when failures > 0 then failures - 1 else 0 end` }).where('share_id', '=', shareId).where('client', '=', client).execute();
    },
    async clearFailures(shareId: string, client: string) {
      await db.deleteFrom('share_extract_limits').where('share_id', '=', shareId).where('client', '=', client).execute();
    },
  };
}

export type SharesRepository = ReturnType<typeof createSharesRepository>;
