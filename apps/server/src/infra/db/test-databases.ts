/**
 * Test helper: the database drivers an integration test should run on.
 *   for (const driver of testDatabaseDrivers()) describe(driver.name, () => { ... await driver.create() ... })
 * SQLite (a temp file) always; PostgreSQL when TEST_POSTGRES_URL is set (CI sets it), each `create()` in its
 * own schema so parallel test files never see each other's rows. `destroy()` drops it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { createDatabase } from './db.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export interface TestDatabase {
  db: Kysely<Database>;
  url: string;
  searchPath?: string;
  destroy(): Promise<void>;
}

export interface TestDatabaseDriver {
  name: 'sqlite' | 'postgres';
  create(opts?: { migrate?: boolean }): Promise<TestDatabase>;
}

export function testDatabaseDrivers(): TestDatabaseDriver[] {
  const drivers: TestDatabaseDriver[] = [{ name: 'sqlite', create: createSqlite }];
  if (process.env.TEST_POSTGRES_URL) drivers.push({ name: 'postgres', create: createPostgres });
  else if (process.env.CI) throw new Error('TEST_POSTGRES_URL must be set in CI (npm test sets it)');
  return drivers;
}

async function createSqlite(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-db-'));
  const url = `sqlite:${path.join(dir, 'test.sqlite')}`;
  const db = createDatabase(url);
  if (opts.migrate !== false) await migrateToLatest(db);
  return {
    db,
    url,
    async destroy() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createPostgres(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const url = process.env.TEST_POSTGRES_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = createDatabase(url, { searchPath: schema, poolSize: 5 });
  if (opts.migrate !== false) await migrateToLatest(db);
  return {
    db,
    url,
    searchPath: schema,
    async destroy() {
      await db.destroy();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
