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

/** Every migration name, oldest first (backups record the newest one their rows were written under). */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

/** Migrates up to and including `name` (a restore loads rows under the schema they were written under, then migrates on). */
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const schema = schemaOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateTo(name);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`);
}

/** The newest migration applied to this database, or null when none is. */
export async function appliedMigration(db: Kysely<any>): Promise<string | null> {
  const schema = schemaOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const done = (await migrator.getMigrations()).filter((m) => m.executedAt).map((m) => m.name).sort();
  return done.at(-1) ?? null;
}
