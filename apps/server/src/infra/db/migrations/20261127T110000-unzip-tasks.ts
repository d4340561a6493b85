import type { Kysely } from 'kysely';

// Decompression tasks (issue 18; modules/unzip) are zip_tasks rows of task_type 2 with what extraction needs: the
// archive, the folder being filled, progress in entries and bytes, the name reports, the quota held, and the password
// (encrypted with the installation's secret, erased when the task ends). Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  let t = db.schema.alterTable('zip_tasks');
  const cols: [string, 'text' | 'integer' | 'bigint', boolean][] = [
    ['archive_id', 'text', false],
    ['folder_id', 'text', false],
    ['unzip_mode', 'text', false],
    ['format', 'text', false],
    ['entries_done', 'integer', true],
    ['entries_total', 'integer', true],
    ['bytes_done', 'bigint', true],
    ['bytes_total', 'bigint', true],
    ['reports', 'text', false],
    ['password_enc', 'text', false],
    ['reserved', 'bigint', true],
  ];
  // SQLite takes one column per ALTER TABLE
  for (const [name, type, counter] of cols) {
    t = db.schema.alterTable('zip_tasks');
    await t.addColumn(name, type, (c) => (counter ? c.notNull().defaultTo(0) : c)).execute();
  }
  await db.schema.createIndex('zip_tasks_archive').on('zip_tasks').columns(['archive_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('zip_tasks_archive').execute();
  for (const name of ['archive_id', 'folder_id', 'unzip_mode', 'format', 'entries_done', 'entries_total', 'bytes_done', 'bytes_total', 'reports', 'password_enc', 'reserved']) {
    await db.schema.alterTable('zip_tasks').dropColumn(name).execute();
  }
}
