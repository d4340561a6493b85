import type { Kysely } from 'kysely';

// Membership (issue 22; modules/membership): the plan catalog, versioned (a plan edit adds a version; an entitlement
// keeps the version it was granted with), and the entitlements, one row per granted period. The default catalog is
// written by the membership service at start-up (only codes the table lacks), not here: a migration runs once and
// must not change meaning when the default catalog grows. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('membership_plans')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    /** JSON: durationDays, storageBytes, rights, prices, trial rules, expiryWarning (membership.catalog.ts PlanDefinition) */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('membership_plans_pk', ['code', 'version'])
    .execute();
  await db.schema
    .createTable('entitlements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('plan_code', 'text', (c) => c.notNull())
    .addColumn('plan_version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // copied from the plan version (which never changes): the quota's SQL sums storage without reading JSON
    .addColumn('storage_bytes', 'bigint', (c) => c.notNull())
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // a grant is applied once per (source, source id): a paid order, a code, the account's trial
  await db.schema.createIndex('entitlements_source').on('entitlements').columns(['source', 'source_id']).unique().execute();
  await db.schema.createIndex('entitlements_uid_end').on('entitlements').columns(['uid', 'ends_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('entitlements').execute();
  await db.schema.dropTable('membership_plans').execute();
}
