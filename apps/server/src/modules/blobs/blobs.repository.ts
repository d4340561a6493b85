import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';

export function createBlobsRepository(db: Kysely<Database>) {
  return {
    async find(md5: string) {
      return db.selectFrom('blobs').selectAll().where('md5', '=', md5).executeTakeFirst();
    },
    /**
     * Whether `uid` already owns these bytes (stored with this size): a file of theirs (the recycle bin included), a
     * kept version of one, or one of their fonts. Such bytes may be placed again without a proof of possession.
     */
    async heldBy(uid: string, md5: string, size: number): Promise<boolean> {
      const blob = await db.selectFrom('blobs').select('size').where('md5', '=', md5).executeTakeFirst();
      if (!blob || Number(blob.size) !== size) return false;
      const item = await db.selectFrom('items').select('id').where('blob_md5', '=', md5).where('uid', '=', uid).where('kind', '=', 1).limit(1).executeTakeFirst();
      if (item) return true;
      const version = await db.selectFrom('file_versions').select('id').where('blob_md5', '=', md5).where('deleted_at', 'is', null).where('uid', '=', uid).limit(1).executeTakeFirst();
      if (version) return true;
      const font = await db.selectFrom('fonts').select('id').where('uid', '=', uid).where('blob_md5', '=', md5).limit(1).executeTakeFirst();
      return !!font;
    },
    /** Records a stored blob; a concurrent insert of the same hash is a duplicate, not an error. */
    async insertIfAbsent(md5: string, size: number, key: string) {
      try {
        await db.insertInto('blobs').values({ md5, size, storage_key: key, ref_count: 0, created_at: Date.now() }).execute();
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
      }
    },
    async addRef(md5: string, n = 1) {
      await db.updateTable('blobs').set({ ref_count: sql`ref_count + ${n}` }).where('md5', '=', md5).execute();
    },
    /** Decrements and returns the blobs that nobody references any more. */
    async releaseRefs(counts: Map<string, number>) {
      const orphans: { md5: string; storage_key: string }[] = [];
      for (const [md5, n] of counts) {
        await db.updateTable('blobs').set({ ref_count: sql`ref_count - ${n}` }).where('md5', '=', md5).execute();
        const b = await db.selectFrom('blobs').select(['md5', 'storage_key', 'ref_count']).where('md5', '=', md5).executeTakeFirst();
        if (b && b.ref_count <= 0) {
          // delete only if still unreferenced at this instant (an instant upload may have just re-used it)
          const r = await db.deleteFrom('blobs').where('md5', '=', md5).where('ref_count', '<=', 0).executeTakeFirst();
          if (Number(r.numDeletedRows) === 1) orphans.push({ md5, storage_key: b.storage_key });
        }
      }
      return orphans;
    },
  };
}
