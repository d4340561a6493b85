import { sql, type RawBuilder } from 'kysely';

/**
 * A user's storage space in SQL: the base (users.storage_quota: the default, or what the operator set) plus what the
 * active entitlements add (modules/membership; storage_bytes copied from the plan version they were granted with).
 * One expression, so the quota's conditional UPDATEs stay single statements that no race can overshoot. Written
 * inside a statement on `users` (it names users.id).
 */
export function storageTotalSql(now: number): RawBuilder<number> {
  return sql<number>`(users.storage_quota + coalesce((select sum(e.storage_bytes) from entitlements e where e.uid = users.id and e.starts_at <= ${now} and e.ends_at > ${now}), 0))`;
}
