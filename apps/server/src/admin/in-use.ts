import { sql, type Kysely } from 'kysely';
import type { Database } from '../infra/db/schema.ts';
import { dialectOf, schemaOf, SERVER_APPLICATION_NAME } from '../infra/db/db.ts';
import { INSTANCE_ID, liveInstanceLeases } from '../infra/instance.ts';

/**
 * Who else is using this instance's data dir and database right now, in words for the operator; empty when nobody
 * is. A restore replaces rows and files under a running server's feet (its caches, sessions and jobs then point at
 * what is gone), so it refuses while anyone answers here (issue 16 item 6):
 * - every server and worker holds a lease in DATA_DIR/instances while it runs (infra/instance.ts), asked by pid on
 *   this host, by its renewal elsewhere;
 * - on PostgreSQL, servers that share the database but not the data dir are its connections named
 *   SERVER_APPLICATION_NAME (pg_stat_activity; SQLite lives in the data dir, the leases cover it).
 */
export async function usersOfInstance(db: Kysely<Database>, dataDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const l of await liveInstanceLeases(dataDir)) if (l.id !== INSTANCE_ID) found.push(`a server process (pid ${l.pid} on ${l.host}, since ${new Date(l.startedAt).toISOString()}) uses the data dir ${dataDir}`);
  // a handle on a schema of its own (tests isolate runs that way in one database) shares no tables with servers,
  // which run on the database's default schema
  if (dialectOf(db) === 'postgres' && !schemaOf(db)) {
    const rows = await sql<{ pid: number; client_addr: string | null }>`select pid, client_addr::text as client_addr from pg_stat_activity where datname = current_database() and application_name = ${SERVER_APPLICATION_NAME} and pid <> pg_backend_pid()`.execute(db);
    const hosts = [...new Set(rows.rows.map((r) => r.client_addr ?? 'local socket'))];
    if (rows.rows.length) found.push(`${rows.rows.length} connection(s) of a running server hold the database (from ${hosts.join(', ')})`);
  }
  return found;
}
