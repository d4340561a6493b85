import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';
import { schemaOf } from './db.ts';

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which: name ours, or a database
  // holding several schemas (tests run in parallel, one schema each) would see another's and skip its own
  const schema = schemaOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`);
  }
}
