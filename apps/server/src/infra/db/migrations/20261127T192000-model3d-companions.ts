import type { Kysely } from 'kysely';

// The files a 3D model was converted with beside it (an OBJ's MTL and textures, a .gltf's buffers): a digest of
// their names and contents, null when none. The GLB is kept per source md5 and this digest, so one OBJ converted
// with two different texture sets never shares a GLB (modules/model3d/model3d.keys.ts). Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').addColumn('companions', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').dropColumn('companions').execute();
}
