import { sql, type Kysely } from 'kysely';

// Shares (spec sections 3, 5, 9; issue 4): one row per share, the shared items beside it, and the extraction
// attempt counters (kept in the database so limits survive restarts and hold across server processes).
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rand', 'text', (c) => c.notNull().unique())
    .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('valid_days', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('can_download', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_save', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_notes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('shares_uid_created').on('shares').columns(['uid', 'created_at']).execute();
  await db.schema.createIndex('shares_group').on('shares').columns(['group_id']).where(sql<boolean>`group_id is not null`).execute();
  await db.schema
    .createTable('share_items')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    // 0 folder, 1 file (as items.kind)
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_items_pk', ['share_id', 'item_id'])
    .execute();
  await db.schema.createIndex('share_items_item').on('share_items').columns(['item_id']).execute();
  // failed extractions per (share, client); client '*' counts every client of the share
  await db.schema
    .createTable('share_extract_limits')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('share_extract_limits_pk', ['share_id', 'client'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_extract_limits').execute();
  await db.schema.dropTable('share_items').execute();
  await db.schema.dropTable('shares').execute();
}
