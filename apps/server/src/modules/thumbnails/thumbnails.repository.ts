import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

/** A file whose thumbnail may show its owner's pictures; where it sits decides which. */
export interface DrawingItem {
  id: string;
  uid: string;
  parent_id: string;
  thumbkey: string | null;
}

/** The only place the thumbnails module touches the database: `items.thumbkey`, `drawing_pictures` and `thumbnail_variants`. */
export function createThumbnailsRepository(db: Kysely<Database>) {
  return {
    /**
     * Sets the thumbkey on every file with these bytes (any user, trash included) in one transaction, and moves
     * each owner's drive revision so their cached lists show it at once (list-cache.ts keys on drive_rev).
     * Returns how many files changed and the thumbkeys they showed before (variants among them may be shown by nobody now).
     */
    async attach(md5: string, thumbkey: string): Promise<{ attached: number; replaced: string[] }> {
      return db.transaction().execute(async (t) => {
        const missing = (eb: ExpressionBuilder<Database, 'items'>) => eb.or([eb('thumbkey', 'is', null), eb('thumbkey', '!=', thumbkey)]);
        const before = await t.selectFrom('items').select(['uid', 'thumbkey']).distinct().where('blob_md5', '=', md5).where('kind', '=', 1).where(missing).execute();
        if (!before.length) return { attached: 0, replaced: [] };
        const r = await t.updateTable('items').set({ thumbkey }).where('blob_md5', '=', md5).where('kind', '=', 1).where(missing).executeTakeFirst();
        await t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', 'in', [...new Set(before.map((o) => o.uid))]).execute();
        return { attached: Number(r.numUpdatedRows), replaced: [...new Set(before.flatMap((o) => (o.thumbkey ? [o.thumbkey] : [])))] };
      });
    },
    /** Sets one file's thumbkey; returns the one it showed before (null: none, or the file is gone). */
    async attachToItem(itemId: string, uid: string, thumbkey: string): Promise<string | null> {
      return db.transaction().execute(async (t) => {
        const before = await t.selectFrom('items').select('thumbkey').where('id', '=', itemId).executeTakeFirst();
        await t.updateTable('items').set({ thumbkey }).where('id', '=', itemId).execute();
        await t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', '=', uid).execute();
        return before?.thumbkey ?? null;
      });
    },
    /** Files with these bytes (any user, trash included; or just `itemId`): where each sits decides its pictures. */
    async itemsWithBlob(md5: string, itemId?: string): Promise<DrawingItem[]> {
      let q = db.selectFrom('items').select(['id', 'uid', 'parent_id', 'thumbkey']).where('blob_md5', '=', md5).where('kind', '=', 1);
      if (itemId) q = q.where('id', '=', itemId);
      return q.execute();
    },
    /** Replaces the pictures noted for a drawing blob (none: no rows). Two renders of the same bytes may race: a row noted twice is one row. */
    async setPictureNames(md5: string, rows: { name: string; stem: string }[]) {
      await db.transaction().execute(async (t) => {
        await t.deleteFrom('drawing_pictures').where('blob_md5', '=', md5).execute();
        if (rows.length) await t.insertInto('drawing_pictures').values(rows.map((r) => ({ blob_md5: md5, ...r }))).onConflict((oc) => oc.doNothing()).execute();
      });
    },
    async pictureNames(md5: string): Promise<string[]> {
      const rows = await db.selectFrom('drawing_pictures').select('name').where('blob_md5', '=', md5).orderBy('name').execute();
      return rows.map((r) => r.name);
    },
    /**
     * One user's files (trash included, as `attach` does) showing a thumbnail whose bytes name a picture of one of
     * these stems: found from the stem index, then that user's files with each blob (items_blob_md5), so its cost
     * follows the drawings naming such a picture, not the size of the drive. A cross join because SQLite keeps its
     * left table outer (without statistics it would walk all of the user's items instead); PostgreSQL plans it as any join.
     */
    async drawingsNamingPictures(uid: string, stems: string[]): Promise<(DrawingItem & { blob_md5: string })[]> {
      if (!stems.length) return [];
      const rows = await db
        .selectFrom('drawing_pictures')
        .crossJoin('items')
        .whereRef('items.blob_md5', '=', 'drawing_pictures.blob_md5')
        .select(['items.id', 'items.uid', 'items.parent_id', 'items.thumbkey', 'items.blob_md5'])
        .distinct()
        .where('items.uid', '=', uid)
        .where('items.kind', '=', 1)
        .where('items.thumbkey', 'is not', null)
        .where('drawing_pictures.stem', 'in', stems)
        .orderBy('items.id')
        .execute();
      return rows.map((r) => ({ ...r, blob_md5: r.blob_md5! }));
    },
    /** Drawing blobs (of files showing a thumbnail) after `after` in md5 order, `limit` at a time: the pictures index's backfill walks them. */
    async drawingBlobsAfter(after: string, types: readonly string[], limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('items')
        .select('blob_md5')
        .distinct()
        .where('kind', '=', 1)
        .where('type', 'in', [...types])
        .where('thumbkey', 'is not', null)
        .where('blob_md5', '>', after)
        .orderBy('blob_md5')
        .limit(limit)
        .execute();
      return rows.map((r) => r.blob_md5!);
    },
    /** This user's file showing this thumbnail (in the drive or the recycle bin), if any. */
    async fileShowing(uid: string, md5: string, thumbkey: string): Promise<{ id: string; type: string } | undefined> {
      return db.selectFrom('items').select(['id', 'type']).where('uid', '=', uid).where('blob_md5', '=', md5).where('thumbkey', '=', thumbkey).limit(1).executeTakeFirst();
    },
    /** Whether any file (any user, trash included) shows this thumbnail; through items_blob_md5, not a scan of every file. */
    async anyFileShows(md5: string, thumbkey: string): Promise<boolean> {
      const row = await db.selectFrom('items').select('id').where('blob_md5', '=', md5).where('thumbkey', '=', thumbkey).limit(1).executeTakeFirst();
      return !!row;
    },
    /** Notes a stored (or about to be stored) variant; noting it again is a no-op. */
    async recordVariant(thumbkey: string, md5: string) {
      await db.insertInto('thumbnail_variants').values({ thumbkey, blob_md5: md5 }).onConflict((oc) => oc.column('thumbkey').doNothing()).execute();
    },
    /** Forgets a variant unless a file shows it again by now (then its image is to stay noted). */
    async forgetVariant(thumbkey: string, md5: string) {
      await db
        .deleteFrom('thumbnail_variants')
        .where('thumbkey', '=', thumbkey)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('items').select('items.id').where('items.blob_md5', '=', md5).where('items.thumbkey', '=', thumbkey))))
        .execute();
    },
    async variantsOf(md5: string): Promise<string[]> {
      const rows = await db.selectFrom('thumbnail_variants').select('thumbkey').where('blob_md5', '=', md5).orderBy('thumbkey').execute();
      return rows.map((r) => r.thumbkey);
    },
  };
}
