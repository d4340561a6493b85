import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

/** The operator's ad slots, one ad per slot. */
export function createAdsRepository(db: Kysely<Database>) {
  return {
    async upsert(row: { slot: string; image_url: string; link_url: string; title: string; updated_at: number }) {
      await db.insertInto('ad_slots').values(row).onConflict((oc) => oc.column('slot').doUpdateSet({ image_url: row.image_url, link_url: row.link_url, title: row.title, updated_at: row.updated_at })).execute();
    },
    async remove(slot: string): Promise<boolean> {
      return Number((await db.deleteFrom('ad_slots').where('slot', '=', slot).executeTakeFirst()).numDeletedRows) > 0;
    },
    list(slot?: string) {
      let q = db.selectFrom('ad_slots').selectAll().orderBy('slot');
      if (slot !== undefined) q = q.where('slot', '=', slot);
      return q.execute();
    },
  };
}
