import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';
import type { Plan, PlanDefinition } from './membership.catalog.ts';

type Db = Kysely<Database>;

function toPlan(r: { code: string; version: number; definition: string }): Plan {
  return { ...(JSON.parse(r.definition) as PlanDefinition), code: r.code, version: Number(r.version) };
}

/** The plan catalog: every version of every plan; rows are only ever added. */
export function createPlansRepository(db: Db) {
  return {
    async latestAll(): Promise<Plan[]> {
      const rows = await db.selectFrom('membership_plans as p').select(['p.code', 'p.version', 'p.definition'])
        .where((eb) => eb('p.version', '=', eb.selectFrom('membership_plans as q').select((q) => q.fn.max('q.version').as('v')).whereRef('q.code', '=', 'p.code')))
        .orderBy('p.code').execute();
      return rows.map(toPlan);
    },
    async latest(code: string, t: Db = db): Promise<Plan | undefined> {
      const r = await t.selectFrom('membership_plans').select(['code', 'version', 'definition']).where('code', '=', code).orderBy('version', 'desc').limit(1).executeTakeFirst();
      return r && toPlan(r);
    },
    async version(code: string, version: number, t: Db = db): Promise<Plan | undefined> {
      const r = await t.selectFrom('membership_plans').select(['code', 'version', 'definition']).where('code', '=', code).where('version', '=', version).executeTakeFirst();
      return r && toPlan(r);
    },
    /** false when that version exists already (another edit got there first). */
    async insertVersion(code: string, version: number, def: PlanDefinition, now: number): Promise<boolean> {
      const r = await db.insertInto('membership_plans')
        .values({ code, version, kind: def.kind, definition: JSON.stringify(def), created_at: now })
        .onConflict((oc) => oc.columns(['code', 'version']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
