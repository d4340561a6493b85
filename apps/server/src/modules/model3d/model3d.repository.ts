import type { Kysely, Selectable } from 'kysely';
import type { Database, Model3dConversionsTable } from '../../infra/db/schema.ts';

export type Model3dRow = Selectable<Model3dConversionsTable>;

/** The queries of 3D conversions (model3d.service.ts holds the rules). */
export function createModel3dRepository(db: Kysely<Database>) {
  return {
    /** In a transaction pass its handle `t`. */
    async insert(row: Model3dRow, t: Kysely<Database> = db): Promise<void> {
      await t.insertInto('model3d_conversions').values(row).execute();
    },
    async byId(id: string): Promise<Model3dRow | undefined> {
      return db.selectFrom('model3d_conversions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The latest conversion of each of these sources of the user's. */
    async latestOfSources(uid: string, sourceIds: string[], t: Kysely<Database> = db): Promise<Map<string, Model3dRow>> {
      const out = new Map<string, Model3dRow>();
      if (!sourceIds.length) return out;
      const rows = await t.selectFrom('model3d_conversions').selectAll().where('uid', '=', uid).where('source_id', 'in', sourceIds).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      for (const r of rows) if (!out.has(r.source_id)) out.set(r.source_id, r);
      return out;
    },
    /** Trials the user has spent, over all time: running and done ones (a failed conversion spends nothing). */
    async trialsUsed(uid: string, t: Kysely<Database> = db): Promise<number> {
      const r = await t.selectFrom('model3d_conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).where('trial', '=', 1).where('state', '!=', 2).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /**
     * The user's conversions, the latest of each source file (a retry replaces the failed one), newest first: a page
     * and the count of all.
     */
    async latestOfUser(uid: string, offset: number, limit: number): Promise<{ rows: Model3dRow[]; total: number }> {
      const latest = db
        .selectFrom('model3d_conversions as c')
        .where('c.uid', '=', uid)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('model3d_conversions as n').select('n.id').whereRef('n.uid', '=', 'c.uid').whereRef('n.source_id', '=', 'c.source_id').where((eb) => eb.or([eb('n.created_at', '>', eb.ref('c.created_at')), eb.and([eb('n.created_at', '=', eb.ref('c.created_at')), eb('n.id', '>', eb.ref('c.id'))])])))),
        );
      const rows = await latest.selectAll('c').orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').offset(offset).limit(limit).execute();
      const { n } = await latest.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },
    async runningOfSources(sourceIds: string[], t: Kysely<Database> = db): Promise<Model3dRow[]> {
      if (!sourceIds.length) return [];
      return t.selectFrom('model3d_conversions').selectAll().where('source_id', 'in', sourceIds).where('state', '=', 0).execute();
    },
    async setProgress(id: string, progress: number, stage: string): Promise<void> {
      await db.updateTable('model3d_conversions').set({ progress, stage, updated_at: Date.now() }).where('id', '=', id).where('state', '=', 0).execute();
    },
    /** Ends a running conversion; false when it was not running (already ended by another attempt). */
    async finish(id: string, patch: { state: 1 | 2; stats?: string | null; error?: string | null; error_args?: string | null; detail?: string | null; companions?: string | null; companion_refs?: string | null }): Promise<boolean> {
      const now = Date.now();
      const r = await db
        .updateTable('model3d_conversions')
        .set({ ...patch, progress: patch.state === 1 ? 100 : undefined, stage: patch.state === 1 ? 'done' : 'failed', updated_at: now, finished_at: now })
        .where('id', '=', id)
        .where('state', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** The digests of files converted beside models of these bytes (their GLBs are kept apart, model3d.keys.ts). */
    async companionDigestsOf(md5: string): Promise<string[]> {
      const rows = await db.selectFrom('model3d_conversions').select('companions').distinct().where('source_md5', '=', md5).where('companions', 'is not', null).execute();
      return rows.map((r) => r.companions!);
    },
    /** The stats of a finished conversion of these bytes with these files beside them (its GLB may be reused). */
    async doneWith(md5: string, companions: string | null): Promise<string | null> {
      let q = db.selectFrom('model3d_conversions').select('stats').where('source_md5', '=', md5).where('state', '=', 1).where('stats', 'is not', null);
      q = companions ? q.where('companions', '=', companions) : q.where('companions', 'is', null);
      return (await q.limit(1).executeTakeFirst())?.stats ?? null;
    },
    /** Running conversions without news since `before`. */
    async stranded(before: number): Promise<Model3dRow[]> {
      return db.selectFrom('model3d_conversions').selectAll().where('state', '=', 0).where('updated_at', '<', before).limit(500).execute();
    },
  };
}
