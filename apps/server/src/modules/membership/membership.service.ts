import { sql, type Kysely } from 'kysely';
import { CURRENCY_OF_LANGUAGE, type Currency, type PlanInfo, type Right } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { dialectOf } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';
import type { Database } from '../../infra/db/schema.ts';
import { serializedTransaction } from '../../infra/db/serialized-transaction.ts';
import { appError } from '../../infra/http/app-error.ts';
import { DEFAULT_CATALOG, TRIAL_PLAN, periodEnd, trialDays, type Plan, type PlanDefinition } from './membership.catalog.ts';
import { createEntitlementsRepository, type EntitlementRow } from './entitlements.repository.ts';
import { createPlansRepository } from './plans.repository.ts';
import { computeRights, type UserRights } from './rights.ts';

type Db = Kysely<Database>;
export type GrantSource = 'trial' | 'admin' | 'order' | 'code';

export interface GrantOptions {
  source: GrantSource;
  /** the order, the exchange code, the operator's reference: a second grant with the same (source, id) does nothing */
  sourceId: string;
  now?: number;
  /** the caller's transaction (an order's paid state and its entitlement commit together) */
  trx?: Db;
  /** the plan version bought (an order made before an operator's edit); default the latest */
  version?: number;
  /** periods granted at once, stacked (default 1) */
  periods?: number;
  /** this many days instead of the plan's duration (the trial's length by language) */
  days?: number;
}

export interface GrantResult {
  /** false: this (source, source id) was granted before; `entitlement` is that earlier grant */
  granted: boolean;
  entitlement: EntitlementRow;
}

/**
 * Membership (issue 22 parts 1 and 2): the plan catalog, entitlements and the rights they give. Orders and exchange
 * codes only call `grant`; every feature asks `may` / `rightsOf`. `now` is injectable everywhere (tests, boundaries).
 */
export function createMembershipService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const plans = createPlansRepository(deps.db);
  const entitlements = createEntitlementsRepository(deps.db);
  // plan versions never change once written: cache them for the life of the process
  const versions = new Map<string, Plan>();
  let seeded: Promise<void> | undefined;

  /** Writes version 1 of each default plan the catalog lacks; an operator's edits (later versions) stay. */
  function ensureCatalog(): Promise<void> {
    seeded ??= (async () => {
      const now = Date.now();
      for (const [code, def] of Object.entries(DEFAULT_CATALOG)) if (!(await plans.latest(code))) await plans.insertVersion(code, 1, def, now);
    })().catch((e) => {
      seeded = undefined;
      throw e;
    });
    return seeded;
  }

  async function planVersion(code: string, version: number, t: Db = deps.db): Promise<Plan> {
    const key = `${code}@${version}`;
    let p = versions.get(key);
    if (!p) {
      p = await plans.version(code, version, t);
      if (!p) throw new Error(`entitlement names a missing plan version ${key}`);
      versions.set(key, p);
    }
    return p;
  }

  /** Inside a caller's transaction the catalog is not seeded (on SQLite a query outside it would wait for it): the routes seed it at start. */
  async function latestPlan(code: string, t?: Db): Promise<Plan> {
    if (!t) await ensureCatalog();
    t ??= deps.db;
    const p = await plans.latest(code, t);
    if (!p) throw appError('membership.unknownPlan');
    return p;
  }

  /** Takes the user's grant lock inside `t` (PostgreSQL; on SQLite the transaction already runs alone in this process). */
  async function lockUser(t: Db, uid: string) {
    if (dialectOf(deps.db) === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${`entitlements:${uid}`}, 0))`.execute(t);
  }

  async function grantIn(t: Db, uid: string, plan: Plan, o: GrantOptions, now: number): Promise<GrantResult> {
    await lockUser(t, uid);
    const before = await entitlements.bySource(o.source, o.sourceId, t);
    if (before) return { granted: false, entitlement: before };
    // a renewal stacks: the new period starts where the running (or already stacked) one of the same kind ends
    const start = Math.max(now, (await entitlements.lastEnd(uid, plan.kind, now, t)) ?? now);
    const days = (o.days ?? plan.durationDays) * Math.max(1, o.periods ?? 1);
    const row = { id: newId(), uid, plan_code: plan.code, plan_version: plan.version, kind: plan.kind, storage_bytes: plan.storageBytes, starts_at: start, ends_at: periodEnd(start, days), source: o.source, source_id: o.sourceId, created_at: now };
    // the unique (source, source_id) decides a race between two users (one exchange code, two redeemers)
    if (await entitlements.insert(row, t)) {
      // renewing or buying space thaws a frozen account at once (spec section 4), in the grant's transaction
      await refreshFreeze(t, uid, now);
      return { granted: true, entitlement: row };
    }
    return { granted: false, entitlement: (await entitlements.bySource(o.source, o.sourceId, t))! };
  }

  /**
   * Grants one plan's period to a user: stacked after a running period of the same kind, applied once per
   * (source, sourceId) however many times and however concurrently it is called. In the caller's transaction when
   * `trx` is given, else in its own.
   */
  async function grant(uid: string, planCode: string, o: GrantOptions): Promise<GrantResult> {
    const now = o.now ?? Date.now();
    const plan = o.version !== undefined ? await planVersion(planCode, o.version, o.trx ?? deps.db) : await latestPlan(planCode, o.trx);
    if (o.trx) return grantIn(o.trx, uid, plan, o, now);
    return serializedTransaction(deps.db, `entitlements:${uid}`, (t) => grantIn(t, uid, plan, o, now));
  }

  async function rightsOf(uid: string, now = Date.now(), t: Db = deps.db): Promise<UserRights> {
    const user = await t.selectFrom('users').select(['vip_type', 'storage_quota']).where('id', '=', uid).executeTakeFirst();
    const rows = await entitlements.notEnded(uid, now, t);
    const periods = await Promise.all(rows.map(async (row) => ({ row, plan: await planVersion(row.plan_code, row.plan_version, t) })));
    const openToAll: Right[] = [...deps.config.rightsOpenToAll];
    if (!deps.config.unzipMembersOnly) openToAll.push('unzip');
    const trialUsed = !!(await entitlements.bySource('trial', uid, t));
    return computeRights({ legacyLevel: user?.vip_type ?? 0, baseStorage: Number(user?.storage_quota ?? 0), periods, openToAll, trialUsed, now });
  }

  function present(p: Plan, currency: Currency): PlanInfo {
    const amount = p.prices[currency];
    return { code: p.code, version: p.version, kind: p.kind, durationDays: p.durationDays, storageBytes: p.storageBytes, rights: p.rights, expiryWarning: p.expiryWarning, price: amount === undefined ? null : { currency, amount } };
  }

  return {
    ensureCatalog,
    rightsOf,
    grant,
    /** The one question every gated feature asks; `t`: inside the caller's transaction (on SQLite a query outside it would wait for it). */
    async may(uid: string, right: Right, now = Date.now(), t: Db = deps.db): Promise<boolean> {
      return (await rightsOf(uid, now, t)).rights[right];
    },

    /** The registration trial (spec section 1): once per account, 7 days in Chinese and 30 otherwise (the catalog's rule). */
    async startTrial(uid: string, language: string, now = Date.now()) {
      const plan = await latestPlan(TRIAL_PLAN);
      const r = await grant(uid, TRIAL_PLAN, { source: 'trial', sourceId: uid, now, days: trialDays(plan, language) });
      if (!r.granted) throw appError('membership.trialUsed');
      return { code: plan.code, startsAt: r.entitlement.starts_at, endsAt: r.entitlement.ends_at };
    },

    /** Ends the periods an operator granted (admin CLI `user vip --type 0`). */
    async endAdminGrants(uid: string, now = Date.now()) {
      return serializedTransaction(deps.db, `entitlements:${uid}`, async (t) => {
        await lockUser(t, uid);
        return entitlements.endNow(uid, 'admin', now, t);
      });
    },

    /**
     * Ends the period one grant gave (a refunded order), now or before it begins; periods stacked after it keep their
     * dates. In the caller's transaction when `trx` is given.
     */
    async endGrant(uid: string, source: GrantSource, sourceId: string, o: { now?: number; trx?: Db } = {}): Promise<number> {
      const now = o.now ?? Date.now();
      const run = async (t: Db) => {
        await lockUser(t, uid);
        return entitlements.endOne(source, sourceId, now, t);
      };
      return o.trx ? run(o.trx) : serializedTransaction(deps.db, `entitlements:${uid}`, run);
    },

    entitlementsOf: (uid: string, t?: Db) => entitlements.ofUser(uid, t),

    /** The catalog's current versions, priced in one currency (the request language's by default). */
    async listPlans(o: { currency?: Currency; language?: string; onSale?: boolean } = {}): Promise<PlanInfo[]> {
      await ensureCatalog();
      const currency = o.currency ?? CURRENCY_OF_LANGUAGE[(o.language ?? 'zh').slice(0, 2)] ?? 'USD';
      const all = (await plans.latestAll()).map((p) => present(p, currency));
      return o.onSale ? all.filter((p) => p.price !== null) : all;
    },

    /** Every plan's current version with all its prices (the operator's view). */
    async catalog(): Promise<Plan[]> {
      await ensureCatalog();
      return plans.latestAll();
    },

    /** An edit makes a new version; entitlements granted before keep theirs. */
    async editPlan(code: string, change: Partial<Omit<PlanDefinition, 'kind'>>, now = Date.now()): Promise<Plan> {
      for (;;) {
        const current = await latestPlan(code);
        const { code: _c, version, ...def } = current;
        const next: PlanDefinition = { ...def, ...change, prices: { ...def.prices, ...change.prices } };
        if (await plans.insertVersion(code, version + 1, next, now)) return { ...next, code, version: version + 1 };
        // another edit took that version number: apply this change on top of it
      }
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
