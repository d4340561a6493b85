import { sql, type Kysely } from 'kysely';

// 3D model conversions (issue 21; modules/model3d): one row per requested conversion of a 3D file to GLB, its state,
// progress and the model's numbers. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('model3d_conversions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('source_md5', 'text', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('trial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats', 'text')
    .addColumn('error', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('model3d_conversions_uid').on('model3d_conversions').columns(['uid', 'created_at']).execute();
  await db.schema.createIndex('model3d_conversions_source').on('model3d_conversions').columns(['source_id', 'created_at']).execute();
  // one conversion of a source at a time, whatever the processes race
  await db.schema.createIndex('model3d_conversions_one_running').on('model3d_conversions').column('source_id').unique().where(sql.ref('state'), '=', 0).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model3d_conversions').execute();
}
