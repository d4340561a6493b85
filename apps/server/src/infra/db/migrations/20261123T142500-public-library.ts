import { sql, type Kysely } from 'kysely';

// The public library (spec sections 3, 4, 7): when a drawing was published, and who liked, collected or left a message
// on a public drawing. A like and a collection are one row per (file, user): the primary key makes a second click a
// no-op, and the counters on `items` move only when a row really appeared or went (library.repository.ts).
// Rows go with the file (cascade) and with the user. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').addColumn('published_at', 'bigint').execute();
  // the library's list: live public items, newest publication first
  await db.schema.createIndex('items_public').on('items').columns(['private_type', 'published_at']).where(sql<boolean>`deleted_at is null`).execute();
  for (const table of ['public_likes', 'public_collections']) {
    await db.schema
      .createTable(table)
      .addColumn('file_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
      .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['file_id', 'uid'])
      .execute();
    // "my likes" / "my collection", newest first
    await db.schema.createIndex(`${table}_uid`).on(table).columns(['uid', 'created_at']).execute();
  }
  await db.schema
    .createTable('public_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('public_messages_file').on('public_messages').columns(['file_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('public_messages').execute();
  await db.schema.dropTable('public_collections').execute();
  await db.schema.dropTable('public_likes').execute();
  await db.schema.dropIndex('items_public').execute();
  await db.schema.alterTable('items').dropColumn('published_at').execute();
}
