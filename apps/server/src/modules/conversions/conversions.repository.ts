import type { Kysely, Selectable } from 'kysely';
import type { ConversionsTable, Database } from '../../infra/db/schema.ts';

export type ConversionRow = Selectable<ConversionsTable>;

/** The queries of conversions (conversions.service.ts holds the rules). */
export function createConversionsRepository(db: Kysely<Database>) {
  return {
    /** In a transaction pass its handle `t`. */
    async insert(row: ConversionRow, t: Kysely<Database> = db): Promise<void> {
      await t.insertInto('conversions').values(row).execute();
    },
    async byId(id: string): Promise<ConversionRow | undefined> {
      return db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async ofUser(uid: string, id: string): Promise<ConversionRow | undefined> {
      return db.selectFrom('conversions').selectAll().where('uid', '=', uid).where('id', '=', id).executeTakeFirst();
    },
    /** The latest conversion of each of these sources of the user's. */
    async latestOfSources(uid: string, sourceIds: string[]): Promise<Map<string, ConversionRow>> {
      const out = new Map<string, ConversionRow>();
      if (!sourceIds.length) return out;
      const rows = await db.selectFrom('conversions').selectAll().where('uid', '=', uid).where('source_id', 'in', sourceIds).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      for (const r of rows) if (!out.has(r.source_id)) out.set(r.source_id, r);
      return out;
    },
    async page(uid: string, page: number, pageSize: number): Promise<{ rows: ConversionRow[]; total: number }> {
      const rows = await db.selectFrom('conversions').selectAll().where('uid', '=', uid).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute();
      const t = await db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).executeTakeFirstOrThrow();
      return { rows, total: Number(t.n) };
    },
    /**
     * Conversions the user requested since `since` (epoch ms) that did not fail: what the monthly allowance counts.
     * A failed one made nothing, so it spends nothing (its retry is a new request, counted if it succeeds); running
     * ones count, so parallel requests are never admitted past the allowance.
     */
    async countSince(uid: string, since: number, t: Kysely<Database> = db): Promise<number> {
      const r = await t.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).where('created_at', '>=', since).where('state', '!=', 2).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Earlier failures of these bytes for a reason in `codes` (whoever converted them). */
    /** The user's own failed conversions of this content: another user's failures must not show through (they would tell that someone else holds it). */
    async failuresOf(uid: string, md5: string, codes: string[], exceptId: string): Promise<number> {
      const r = await db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).where('source_md5', '=', md5).where('state', '=', 2).where('error', 'in', codes).where('id', '!=', exceptId).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async setProgress(id: string, progress: number, stage: string): Promise<void> {
      await db.updateTable('conversions').set({ progress, stage, updated_at: Date.now() }).where('id', '=', id).where('state', '=', 0).execute();
    },
    /** Ends a running conversion; false when it was not running (already ended by another attempt). */
    async finish(id: string, patch: { state: 1 | 2; result_id?: string | null; error?: string | null; detail?: string | null }): Promise<boolean> {
      const now = Date.now();
      const r = await db
        .updateTable('conversions')
        .set({ ...patch, progress: patch.state === 1 ? 100 : undefined, stage: patch.state === 1 ? 'done' : 'failed', updated_at: now, finished_at: now })
        .where('id', '=', id)
        .where('state', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Running conversions without news since `before`. */
    async stranded(before: number): Promise<ConversionRow[]> {
      return db.selectFrom('conversions').selectAll().where('state', '=', 0).where('updated_at', '<', before).limit(500).execute();
    },
    async runningOfSources(sourceIds: string[], t: Kysely<Database> = db): Promise<ConversionRow[]> {
      if (!sourceIds.length) return [];
      return t.selectFrom('conversions').selectAll().where('source_id', 'in', sourceIds).where('state', '=', 0).execute();
    },
  };
}
