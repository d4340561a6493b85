import type { Kysely } from 'kysely';

// Issue 14 item 9: the bytes of unfinished chunked uploads count against the quota (modules/uploads/upload-sessions.ts).
// users.storage_reserved is what the user's open upload sessions hold, always the sum of their upload_sessions.reserved
// (both change in one transaction); a quota check is storage_used + storage_reserved + n <= storage_quota.
// upload_sessions.kind tells chunked sessions (bytes on our disk) from direct ones (a presigned PUT to S3), which
// expire later. Indexes: open sessions per user (the per-user limit) and by last activity (the idle sweep).
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('storage_reserved', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('upload_sessions').addColumn('reserved', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('upload_sessions').addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('chunked')).execute();
  await db.schema.createIndex('upload_sessions_uid').on('upload_sessions').column('uid').execute();
  await db.schema.createIndex('upload_sessions_updated').on('upload_sessions').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('upload_sessions_updated').execute();
  await db.schema.dropIndex('upload_sessions_uid').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('kind').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('reserved').execute();
  await db.schema.alterTable('users').dropColumn('storage_reserved').execute();
}
