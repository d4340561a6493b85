import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { storageTotalSql } from './storage-total.ts';

/**
 * Spec section 4, in SQL: an account is frozen exactly while its stored files exceed its space (the base plus the
 * active entitlements' storage at `now`), unless its one-time free unfreeze is running. Written inside a statement
 * on `users`.
 */
export function frozenSql(now: number) {
  return sql<number>`(case when users.storage_used > ${storageTotalSql(now)} and coalesce(users.free_unfreeze_until, 0) <= ${now} then 1 else 0 end)`;
}

/**
 * Brings the user's freeze flag (and their files' flags: frozen files cannot be viewed) in step with the rule above,
 * after anything that changes the used storage or the space: a delete, a publication, a grant, an entitlement that
 * ended, the operator's quota. `frozen_at` starts the 3-month purge clock when the account becomes frozen and is
 * cleared when it thaws. Runs in the caller's transaction when given one. Answers the flag and whether it changed.
 */
export async function refreshFreeze(anyDb: Kysely<any>, uid: string, now: number): Promise<{ freeze: number; changed: boolean }> {
  // any module's narrowed view of the database (the public library's adds columns to items) will do
  const db = anyDb as Kysely<Database>;
  const r = await db
    .updateTable('users')
    .set({ freeze: frozenSql(now), frozen_at: sql`case when ${frozenSql(now)} = 1 then cast(${now} as bigint) else null end`, purge_warned_at: null, drive_rev: sql`drive_rev + 1` })
    .where('id', '=', uid)
    .where(sql<boolean>`users.freeze <> ${frozenSql(now)}`)
    .returning('freeze')
    .executeTakeFirst();
  const freeze = r ? r.freeze : ((await db.selectFrom('users').select('freeze').where('id', '=', uid).executeTakeFirst())?.freeze ?? 0);
  // while frozen a file published (or made private again) changes its own flag too
  if (r || freeze === 1) await syncItems(db, uid, freeze === 1);
  return { freeze, changed: !!r };
}

/** The files that count towards the space (private ones) freeze with the account; public drawings never do. */
async function syncItems(db: Kysely<Database>, uid: string, frozen: boolean) {
  await db
    .updateTable('items')
    .set({ freeze: frozen ? sql`case when private_type = '1' and kind = 1 then 1 else 0 end` : 0 })
    .where('uid', '=', uid)
    .where(frozen ? sql<boolean>`items.freeze <> (case when private_type = '1' and kind = 1 then 1 else 0 end)` : sql<boolean>`items.freeze <> 0`)
    .execute();
}
