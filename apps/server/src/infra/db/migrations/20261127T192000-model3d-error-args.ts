import type { Kysely } from 'kysely';

// The numbers of a failed 3D conversion's message (issue 21 part 3: "too large to convert (N triangles; the limit is
// M)"), as a JSON array, so each caller reads them in their own language. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').addColumn('error_args', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model3d_conversions').dropColumn('error_args').execute();
}
