import type { Kysely } from 'kysely';

// A chunked or direct upload remembers what its name clash does when it completes: 'rename' (keep both, as before)
// or 'version' (the upload becomes a new version of the file of that name).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_sessions').addColumn('conflict', 'varchar(16)', (c) => c.notNull().defaultTo('rename')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_sessions').dropColumn('conflict').execute();
}
