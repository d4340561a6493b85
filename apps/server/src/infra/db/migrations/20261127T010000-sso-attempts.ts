import type { Kysely } from 'kysely';

// Attempts the login site and the client-token endpoint count (apps/sso/src/attempt-limiter.ts): in the database,
// so every server process and both ways in see one count, and a restart does not lift a lockout. One row per
// attempt under its key (`login|<email>|<client>`, `reset|<client>` …); rows older than a day are purged.
// Keep in step with ../schema.ts and apps/sso/src/sso-db.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_attempts_key_at').on('sso_attempts').columns(['key', 'at']).execute();
  await db.schema.createIndex('sso_attempts_at').on('sso_attempts').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_attempts').execute();
}
