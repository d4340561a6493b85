import { sql, type Kysely } from 'kysely';

// Conversions (issue 17; modules/conversions): one row per requested conversion, its state and progress, and the file
// it made. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('source_md5', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('result_id', 'text')
    .addColumn('error', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('conversions_uid_created').on('conversions').columns(['uid', 'created_at']).execute();
  await db.schema.createIndex('conversions_source').on('conversions').columns(['source_id', 'created_at']).execute();
  await db.schema.createIndex('conversions_md5_state').on('conversions').columns(['source_md5', 'state']).execute();
  // one conversion of a source at a time, whatever the processes race: a second running row of a source cannot exist
  await db.schema.createIndex('conversions_one_running').on('conversions').column('source_id').unique().where(sql.ref('state'), '=', 0).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('conversions').execute();
}
