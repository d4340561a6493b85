import { sql, type Kysely } from 'kysely';

// Version history of a file (spec section 3, Version; issue 4 part 6). Each row holds one reference on its blob
// (blobs.ref_count), like an item does; a deleted version keeps its row (deleted_at) so numbers are never reused.
// item_id has no foreign key on purpose: a version row outliving its item is found and released, never lost with
// its blob reference. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('blob_md5', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('updater_uid', 'text', (c) => c.notNull())
    .addColumn('updater_name', 'text', (c) => c.notNull())
    .addColumn('remark_type', 'integer', (c) => c.notNull())
    .addColumn('remark_from', 'text')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('relation_id', 'text')
    .addColumn('relation_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  // one V<n> per file, deleted or not: two appends racing for the same number, the loser retries
  await db.schema.createIndex('file_versions_item_number').on('file_versions').columns(['item_id', 'number']).unique().execute();
  await db.schema.createIndex('file_versions_uid').on('file_versions').columns(['uid', 'item_id']).execute();
  await db.schema.createIndex('file_versions_blob').on('file_versions').columns(['blob_md5']).where(sql<boolean>`deleted_at is null`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_versions').execute();
}
