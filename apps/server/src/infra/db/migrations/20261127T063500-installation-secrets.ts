import type { Kysely } from 'kysely';

// The installation's signing secrets (infra/secrets.ts): every server process must sign and check sessions, share
// tokens and download links alike, and processes on other machines share no DATA_DIR; the database is what they
// share. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('installation_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('installation_secrets').execute();
}
