import { sql, type Kysely } from 'kysely';

// The user's font library (spec section 3, Font). Bytes live in `blobs` like files; a font is its own row,
// not an item, because it never sits in a folder and has its own flags. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fonts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('blob_md5', 'text', (c) => c.notNull())
    .addColumn('codepage', 'integer', (c) => c.notNull())
    .addColumn('is_bold', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_italic', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_subfont', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  // one live font per lower-cased name and user: drawings find fonts by name, so two "txt.shx" would be ambiguous
  await db.schema.createIndex('fonts_uid_name_live').on('fonts').columns(['uid', 'name_key']).unique().where(sql<boolean>`deleted_at is null`).execute();
  await db.schema.createIndex('fonts_public_name').on('fonts').columns(['name_key', 'is_public']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fonts').execute();
}
