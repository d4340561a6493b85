import { sql, type Kysely } from 'kysely';
import { dialectOf, isUniqueViolation } from './db.ts';
import type { Database } from './schema.ts';

/**
 * A transaction that runs alone among the transactions of the same `key`, in every process sharing the
 * database, and sees everything they committed before it: a check made inside it (a folder is not being moved
 * into its own subtree, a name is free) still holds at its commit.
 * - PostgreSQL: a transaction-scoped advisory lock on the key, taken first; under READ COMMITTED every later
 *   statement reads what the previous holder committed. Other keys (other users) are not held up.
 * - SQLite: BEGIN IMMEDIATE takes the database's write lock before the first read. In one process Kysely's single
 *   connection already runs transactions one at a time; other processes (several servers on one file) wait on
 *   busy_timeout instead of failing at their first write with a stale snapshot, as a plain BEGIN would.
 * Inside `fn` use only the handle it is given: on SQLite a query on `db` would wait for this very connection.
 */
export async function serializedTransaction<T>(db: Kysely<Database>, key: string, fn: (t: Kysely<Database>) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
      return fn(trx);
    });
  }
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const out = await fn(conn);
      await sql`commit`.execute(conn);
      return out;
    } catch (e) {
      await sql`rollback`.execute(conn);
      throw e;
    }
  });
}

/**
 * `serializedTransaction`, run again (a fresh transaction that checks everything anew) when a unique index
 * refused its write: a writer that does not take the key's lock got there first. After `attempts` the error
 * is thrown as it came.
 */
export async function serializedWithRetry<T>(db: Kysely<Database>, key: string, fn: (t: Kysely<Database>) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await serializedTransaction(db, key, fn);
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= attempts) throw e;
    }
  }
}
