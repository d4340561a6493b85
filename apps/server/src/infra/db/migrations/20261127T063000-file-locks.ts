import type { Kysely } from 'kysely';

// One change at a time per file across every server process (modules/versions/file-lock.ts): a row is the lock,
// held by its owner until `expires_at` (renewed while the change runs), so a killed process frees it by itself.
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_locks')
    .addColumn('item_id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_locks').execute();
}
