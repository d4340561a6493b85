import type { Kysely } from 'kysely';

// The files a 3D model looked for beside itself when it was converted, each with the md5 it had then (null: not
// there): JSON of [written name, md5 | null] pairs. An MTL or texture uploaded (or replaced) after the conversion
// makes the GLB stale: transformBatch3D converts again (modules/model3d companionsStale). Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').addColumn('companion_refs', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').dropColumn('companion_refs').execute();
}
