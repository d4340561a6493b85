import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './schema.ts';

// int8 (bigint) columns hold epoch milliseconds and byte counts, all below 2^53: read them as numbers.
pg.types.setTypeParser(20, Number);
// SUM over a bigint column is numeric in PostgreSQL (a string by default); the schema has no fractional
// columns, so read it as a number too and both dialects answer aggregates alike
pg.types.setTypeParser(1700, Number);

export type Dialect = 'sqlite' | 'postgres';

/** The PostgreSQL schema a database handle was opened on (migrations keep their own tables there). */
const schemas = new WeakMap<object, string>();
export function schemaOf(db: Kysely<any>): string | undefined {
  return schemas.get(db);
}

export interface DatabaseOptions {
  /** PostgreSQL only: every pooled connection uses this schema (tests isolate runs this way). */
  searchPath?: string;
  poolSize?: number;
  /** PostgreSQL only: the name its connections show in pg_stat_activity */
  applicationName?: string;
}

/** The connections of a running server or worker (admin restore refuses while any is open: admin/in-use.ts). */
export const SERVER_APPLICATION_NAME = 'cadcloud-server';

/** `sqlite:<file>` (or `sqlite::memory:`) → better-sqlite3; `postgres://…` → pg. */
export function createDatabase(url: string, opts: DatabaseOptions = {}): Kysely<Database> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    // WAL lets readers run beside the writer; busy_timeout makes concurrent writers wait instead of failing.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      options: opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined,
      application_name: opts.applicationName,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    if (opts.searchPath) schemas.set(db, opts.searchPath);
    return db;
  }
  throw new Error(`DATABASE_URL: unsupported database URL ${JSON.stringify(url)}`);
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and the same few hundred SQL
 * texts repeat, so keep them (bounded) instead of compiling on every request.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') {
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      }
      return (source: string) => {
        let stmt = cache.get(source);
        if (!stmt) {
          stmt = prepare(source);
          if (cache.size >= 500) cache.delete(cache.keys().next().value!);
          cache.set(source, stmt);
        }
        return stmt;
      };
    },
  });
}

export function dialectOf(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres') ? 'postgres' : 'sqlite';
}

/** True when the error is a unique-constraint violation on either dialect (answered as "duplicate", not 500). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export { sql };
