import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';

export function createBlobsRepository(db: Kysely<Database>) {
  return {
    async find(md5: string) {
      return db.selectFrom('blobs').selectAll().where('md5', '=', md5).executeTakeFirst();
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
