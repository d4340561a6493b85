import type { Kysely } from 'kysely';

// The language of the user who asked for a decompression (clientInfo.language, e.g. "ko-KR"): a zip's names without
// the UTF-8 flag are read as EUC-KR or Shift-JIS when it suggests so (issue 18 part 2; modules/unzip/archive-names.ts),
// also by the job that runs later. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('zip_tasks').addColumn('names_language', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('zip_tasks').dropColumn('names_language').execute();
}
