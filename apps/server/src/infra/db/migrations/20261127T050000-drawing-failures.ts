import type { Kysely } from 'kysely';

// Scene builds that failed, remembered by the bytes they read (blob md5: every file version and every copy of the
// same bytes share it), the engine that failed and the layout, so another open of such a drawing answers the same
// error at once instead of spending the worker again (modules/drawings/drawing-failures.repository.ts). In the
// database: every server process sees them. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('drawing_failures')
    .addColumn('blob_md5', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    // the layout name lower-cased, or '*' when the drawing itself cannot be read
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('failed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('drawing_failures_pk', ['blob_md5', 'engine', 'layout'])
    .execute();
  await db.schema.createIndex('drawing_failures_failed_at').on('drawing_failures').column('failed_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drawing_failures').execute();
}
