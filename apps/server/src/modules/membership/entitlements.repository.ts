import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, EntitlementsTable } from '../../infra/db/schema.ts';

type Db = Kysely<Database>;
export type EntitlementRow = Selectable<EntitlementsTable>;

const numeric = (r: EntitlementRow): EntitlementRow => ({ ...r, plan_version: Number(r.plan_version), storage_bytes: Number(r.storage_bytes), starts_at: Number(r.starts_at), ends_at: Number(r.ends_at), created_at: Number(r.created_at) });

/** Granted periods. A row is never changed but to end it early (`endNow`); active while starts_at <= now < ends_at. */
export function createEntitlementsRepository(db: Db) {
  return {
    async bySource(source: string, sourceId: string, t: Db = db): Promise<EntitlementRow | undefined> {
      const r = await t.selectFrom('entitlements').selectAll().where('source', '=', source).where('source_id', '=', sourceId).executeTakeFirst();
      return r && numeric(r);
    },
    /** The latest end among the user's periods of this kind still running or to come: a renewal starts there. */
    async lastEnd(uid: string, kind: string, now: number, t: Db = db): Promise<number | null> {
      const r = await t.selectFrom('entitlements').select((eb) => eb.fn.max('ends_at').as('end')).where('uid', '=', uid).where('kind', '=', kind).where('ends_at', '>', now).executeTakeFirst();
      return r?.end == null ? null : Number(r.end);
    },
    /** false when a row of this (source, source id) exists: the grant was applied already. */
    async insert(row: Insertable<EntitlementsTable>, t: Db = db): Promise<boolean> {
      const r = await t.insertInto('entitlements').values(row).onConflict((oc) => oc.columns(['source', 'source_id']).doNothing()).executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    /** The user's periods running at `now` or starting later. */
    async notEnded(uid: string, now: number, t: Db = db): Promise<EntitlementRow[]> {
      const rows = await t.selectFrom('entitlements').selectAll().where('uid', '=', uid).where('ends_at', '>', now).orderBy('starts_at').execute();
      return rows.map(numeric);
    },
    async ofUser(uid: string, t: Db = db): Promise<EntitlementRow[]> {
      const rows = await t.selectFrom('entitlements').selectAll().where('uid', '=', uid).orderBy('starts_at').execute();
      return rows.map(numeric);
    },
    /** Ends the one period of this (source, source id) now, or before it begins when it has not started (a refunded order). */
    async endOne(source: string, sourceId: string, now: number, t: Db = db): Promise<number> {
      const r = await t
        .updateTable('entitlements')
        .set((eb) => ({ ends_at: eb.case().when('starts_at', '>', now).then(eb.ref('starts_at')).else(now).end() }))
        .where('source', '=', source)
        .where('source_id', '=', sourceId)
        .where('ends_at', '>', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Ends the user's periods from this source now (those not started yet end before they begin). */
    async endNow(uid: string, source: string, now: number, t: Db = db): Promise<number> {
      const started = await t.updateTable('entitlements').set({ ends_at: now }).where('uid', '=', uid).where('source', '=', source).where('ends_at', '>', now).where('starts_at', '<=', now).executeTakeFirst();
      const future = await t.updateTable('entitlements').set((eb) => ({ ends_at: eb.ref('starts_at') })).where('uid', '=', uid).where('source', '=', source).where('starts_at', '>', now).executeTakeFirst();
      return Number(started.numUpdatedRows) + Number(future.numUpdatedRows);
    },
  };
}
