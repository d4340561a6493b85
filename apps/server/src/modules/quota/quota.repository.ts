import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';
import { storageTotalSql } from '../../infra/db/storage-total.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';

/** `clock`: the instant whose active entitlements count towards the space (issue 22: base + entitlements). */
export function createQuotaRepository(db: Kysely<Database>, clock: () => number = Date.now) {
  return {
    /**
     * Atomic: adds `bytes` only while the total stays within the quota. One UPDATE, so no race can overshoot.
     * What open upload sessions hold (storage_reserved) counts against the quota too.
     */
    async tryReserve(uid: string, bytes: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ storage_used: sql`storage_used + ${bytes}` })
        .where('id', '=', uid)
        .where(sql<boolean>`storage_used + storage_reserved + ${bytes} <= ${storageTotalSql(clock())}`)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /**
     * Upload-session holds (modules/uploads/upload-sessions.ts), run inside the transaction that changes the session's
     * own `reserved`, so storage_reserved stays the sum of the sessions' holds. `hold` adds only within the quota.
     */
    async tryHold(uid: string, bytes: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ storage_reserved: sql`storage_reserved + ${bytes}` })
        .where('id', '=', uid)
        .where(sql<boolean>`storage_used + storage_reserved + ${bytes} <= ${storageTotalSql(clock())}`)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async releaseHold(uid: string, bytes: number) {
      await db
        .updateTable('users')
        .set({ storage_reserved: sql`case when storage_reserved - ${bytes} < 0 then 0 else storage_reserved - ${bytes} end` })
        .where('id', '=', uid)
        .execute();
    },
    /** A finished upload's hold becomes used storage in one UPDATE: nothing else can take the space in between. */
    async tryConvertHold(uid: string, held: number, bytes: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ storage_reserved: sql`storage_reserved - ${held}`, storage_used: sql`storage_used + ${bytes}` })
        .where('id', '=', uid)
        .where(sql<boolean>`storage_reserved >= ${held} and storage_used + storage_reserved - ${held} + ${bytes} <= ${storageTotalSql(clock())}`)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async release(uid: string, bytes: number) {
      await db
        .updateTable('users')
        .set({ storage_used: sql`case when storage_used - ${bytes} < 0 then 0 else storage_used - ${bytes} end` })
        .where('id', '=', uid)
        .execute();
      // cleaning up files is one way out of the freeze (spec section 4)
      await refreshFreeze(db, uid, clock());
    },
    async usage(uid: string) {
      return db.selectFrom('users').select(['storage_used', 'storage_reserved', storageTotalSql(clock()).as('storage_total'), 'freeze']).where('id', '=', uid).executeTakeFirst();
    },
    async sumPrivateFiles(uid: string): Promise<number> {
      const r = await db
        .selectFrom('items')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('total'))
        .where('uid', '=', uid)
        .where('kind', '=', 1)
        .where('deleted_at', 'is', null)
        .where('private_type', '=', '1')
        .executeTakeFirstOrThrow();
      // the font library's live fonts count too (modules/fonts)
      const f = await db
        .selectFrom('fonts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('total'))
        .where('uid', '=', uid)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      // version history (modules/versions, versions.cleanup.ts countedBytes): each distinct content a file keeps
      // besides its current one, once per file, in the bin too
      const h = await sql<{ total: number | string | null }>`
        select coalesce(sum(d.size), 0) as total from (
          select distinct v.item_id, v.blob_md5, v.size from file_versions v join items i on i.id = v.item_id
          where v.uid = ${uid} and v.deleted_at is null and (i.blob_md5 is null or v.blob_md5 <> i.blob_md5)
        ) d`.execute(db);
      return Number(r.total) + Number(f.total) + Number(h.rows[0]?.total ?? 0);
    },
    async setUsed(uid: string, used: number) {
      await db.updateTable('users').set({ storage_used: used }).where('id', '=', uid).execute();
    },
  };
}
