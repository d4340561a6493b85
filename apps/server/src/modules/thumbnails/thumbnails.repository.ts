import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

/** The only place the thumbnails module touches the database: `items.thumbkey`. */
export function createThumbnailsRepository(db: Kysely<Database>) {
  return {
    /**
     * Sets the thumbkey on every file with these bytes (any user, trash included) in one transaction, and moves
     * each owner's drive revision so their cached lists show it at once (list-cache.ts keys on drive_rev).
     */
    async attach(md5: string, thumbkey: string): Promise<number> {
      return db.transaction().execute(async (t) => {
        const missing = (eb: ExpressionBuilder<Database, 'items'>) => eb.or([eb('thumbkey', 'is', null), eb('thumbkey', '!=', thumbkey)]);
        const owners = await t.selectFrom('items').select('uid').distinct().where('blob_md5', '=', md5).where('kind', '=', 1).where(missing).execute();
        if (!owners.length) return 0;
        const r = await t.updateTable('items').set({ thumbkey }).where('blob_md5', '=', md5).where('kind', '=', 1).where(missing).executeTakeFirst();
        await t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', 'in', owners.map((o) => o.uid)).execute();
        return Number(r.numUpdatedRows);
      });
    },
    async attachToItem(itemId: string, uid: string, thumbkey: string) {
      await db.transaction().execute(async (t) => {
        await t.updateTable('items').set({ thumbkey }).where('id', '=', itemId).execute();
        await t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', '=', uid).execute();
      });
    },
    /** Files with these bytes (any user, trash included; or just `itemId`): where each sits decides its pictures. */
    async itemsWithBlob(md5: string, itemId?: string): Promise<{ id: string; uid: string; parent_id: string }[]> {
      let q = db.selectFrom('items').select(['id', 'uid', 'parent_id']).where('blob_md5', '=', md5).where('kind', '=', 1);
      if (itemId) q = q.where('id', '=', itemId);
      return q.execute();
    },
    /** Whether this user has a file showing this thumbnail (in the drive or the recycle bin). */
    async ownsThumbnail(uid: string, md5: string, thumbkey: string): Promise<boolean> {
      const row = await db.selectFrom('items').select('id').where('uid', '=', uid).where('blob_md5', '=', md5).where('thumbkey', '=', thumbkey).limit(1).executeTakeFirst();
      return !!row;
    },
  };
}
