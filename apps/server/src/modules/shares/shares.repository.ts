import { type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, SharesTable, ShareItemsTable } from '../../infra/db/schema.ts';

export type ShareRow = Selectable<SharesTable>;
export type ShareItemRow = Selectable<ShareItemsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The only place that touches `shares` and `share_items` (the extraction counters: extract-guard.repository.ts). */
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
    /** Who a share e-mail says sent it. */
    async owner(uid: string) {
      const u = await db.selectFrom('users').select(['name', 'email']).where('id', '=', uid).executeTakeFirst();
      return { name: u?.name ?? '', email: u?.email ?? '' };
    },
    /** A published (privateType '0') live file or folder of anyone (file/getProductItemById). Read-only. */
    async findPublicItem(id: string) {
      return db.selectFrom('items').selectAll().where('id', '=', id).where('private_type', '=', '0').where('deleted_at', 'is', null).executeTakeFirst();
    },
  };
}

export type SharesRepository = ReturnType<typeof createSharesRepository>;
