/**
 * `admin backup <dir>` / `admin restore <dir>` (issue 16 item 6): a consistent snapshot of a running instance.
 *
 * Layout of a backup folder:
 *   manifest.json          format, version, time, source dialect and storage driver, migration, counts, checksums
 *   tables/<table>.jsonl   every row of every table, one JSON object a line
 *   objects.jsonl          every storage object the rows name: {key, size, md5, required}
 *   objects/<key>          their bytes (local disk always; S3 only with --objects)
 *   secrets/<name>         the instance secrets of DATA_DIR/secrets (signed links, cookies and sessions survive)
 *
 * Consistency: all rows are read in ONE read transaction (PostgreSQL REPEATABLE READ; SQLite a read transaction,
 * which in WAL mode sees one snapshot while the server writes on), so they agree with each other. The objects are
 * copied after it from that snapshot's list: an upload stores its object before it records the row, so every blob
 * row of the snapshot has its object; one deleted meanwhile (a trash emptied during the backup) is reported as
 * missing in the manifest. Rows are dialect-neutral JSON, so a SQLite backup restores into PostgreSQL and back.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync, chmodSync, openSync, writeSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../infra/db/schema.ts';
import { dialectOf, schemaOf } from '../infra/db/db.ts';
import { appliedMigration, migrateTo, migrateToLatest, migrationNames } from '../infra/db/migrate.ts';
import { usersOfInstance } from './in-use.ts';
import { assertSafeKey } from '../infra/storage/storage-keys.ts';
import type { StorageDriver } from '../infra/storage/storage.types.ts';
import { thumbnailStorageKey, parseThumbkey } from '../modules/thumbnails/thumbnails.keys.ts';

export const BACKUP_FORMAT = 'cadcloud-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  storageDriver: 'fs' | 's3';
  /** the newest migration the rows were written under */
  migration: string;
  tables: Record<string, { rows: number; sha256: string }>;
  /** 'copied': bytes in objects/; 'listed': only objects.jsonl (S3 without --objects: the bucket is backed up by its own means) */
  objects: { mode: 'copied' | 'listed'; count: number; bytes: number; listSha256: string; missing: string[] };
  secrets: string[];
}

interface ObjectEntry {
  key: string;
  size: number;
  md5: string;
  /** blob bytes are required; thumbnails are a cache the thumbnail job can draw again */
  required: boolean;
}

/** Tables the backup leaves out: the migrator's own bookkeeping (a restore migrates the empty database itself). */
const isAppTable = (t: string) => !t.startsWith('kysely_') && !t.startsWith('sqlite_');

/** PostgreSQL: the schema the handle works in (tests give each run its own; DATABASE_URL may set search_path). */
async function schemaName(db: Kysely<Database>): Promise<string> {
  return schemaOf(db) ?? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;
}

/** App tables of the database, parents before children (foreign keys), so rows load in that order. */
export async function tablesInDependencyOrder(db: Kysely<Database>): Promise<string[]> {
  const edges = new Map<string, Set<string>>();
  if (dialectOf(db) === 'postgres') {
    const schema = await schemaName(db);
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`.execute(db);
    for (const t of tables.rows) if (isAppTable(t.name)) edges.set(t.name, new Set());
    const fks = await sql<{ child: string; parent: string }>`
      select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = ${schema}`.execute(db);
    const bare = (n: string) => n.replace(/^.*\./, '').replace(/"/g, '');
    for (const fk of fks.rows) edges.get(bare(fk.child))?.add(bare(fk.parent));
  } else {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    for (const t of tables.rows) if (isAppTable(t.name)) edges.set(t.name, new Set());
    for (const t of edges.keys()) {
      const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${t})`.execute(db);
      for (const fk of fks.rows) edges.get(t)!.add(fk.table);
    }
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: string[]) => {
    if (seen.has(t) || path.includes(t)) return;
    for (const p of [...(edges.get(t) ?? [])].sort()) if (p !== t && edges.has(p)) visit(p, [...path, t]);
    seen.add(t);
    order.push(t);
  };
  for (const t of [...edges.keys()].sort()) visit(t, []);
  return order;
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Collects the storage keys rows name: every blob (required) and every thumbnail an item or variant shows (a cache). */
function objectKeyCollector() {
  const out = new Map<string, { key: string; md5: string | null; required: boolean }>();
  return {
    add(table: string, row: Record<string, unknown>) {
      if (table === 'blobs') out.set(String(row.storage_key), { key: String(row.storage_key), md5: String(row.md5), required: true });
      if ((table === 'items' || table === 'thumbnail_variants') && typeof row.thumbkey === 'string' && parseThumbkey(row.thumbkey)) {
        const key = thumbnailStorageKey(row.thumbkey);
        if (!out.has(key)) out.set(key, { key, md5: null, required: false });
      }
    },
    keys: () => [...out.values()],
  };
}

/** Rows are read and written a page at a time: memory stays bounded however large a table is. */
const PAGE_ROWS = 2000;

/** Streams an object into a file, hashing on the way; resolves to its size and MD5. */
async function copyObjectToFile(storage: StorageDriver, key: string, file: string): Promise<{ size: number; md5: string }> {
  mkdirSync(path.dirname(file), { recursive: true });
  const hash = createHash('md5');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  await pipeline(await storage.get(key), tap, createWriteStream(file));
  return { size, md5: hash.digest('hex') };
}

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface BackupOptions {
  db: Kysely<Database>;
  storage: StorageDriver;
  dataDir: string;
  dir: string;
  /** S3: copy the bytes too (local disk always copies them) */
  copyObjects?: boolean;
  now?: () => Date;
  /** called after each table is read, inside the snapshot (tests hold it open while the server writes on) */
  afterTable?: (table: string) => Promise<void>;
}

export async function backupInstance(o: BackupOptions): Promise<BackupManifest> {
  if (!isEmptyDir(o.dir)) throw new BackupError(`${o.dir} is not empty: a backup goes into a new or empty folder`);
  mkdirSync(path.join(o.dir, 'tables'), { recursive: true });
  const dialect = dialectOf(o.db);
  const migration = await appliedMigration(o.db);
  if (!migration) throw new BackupError('the database has no schema yet: nothing to back up');
  const tables = await tablesInDependencyOrder(o.db);

  // one read transaction: every table as of the same moment, whatever the server writes meanwhile; pages in a
  // stable physical order (the snapshot does not change under the offsets)
  const order = dialect === 'postgres' ? sql.raw('ctid') : sql.raw('rowid');
  const counts = new Map<string, number>();
  const wanted = objectKeyCollector();
  const readAll = async (trx: Kysely<Database>) => {
    for (const t of tables) {
      const fd = openSync(path.join(o.dir, 'tables', `${t}.jsonl`), 'w');
      let n = 0;
      try {
        for (;;) {
          const page = (await sql<Record<string, unknown>>`select * from ${sql.table(t)} order by ${order} limit ${PAGE_ROWS} offset ${n}`.execute(trx)).rows;
          if (page.length) writeSync(fd, page.map((r) => JSON.stringify(r) + '\n').join(''));
          for (const r of page) wanted.add(t, r);
          n += page.length;
          if (page.length < PAGE_ROWS) break;
        }
      } finally {
        closeSync(fd);
      }
      counts.set(t, n);
      await o.afterTable?.(t);
    }
  };
  if (dialect === 'postgres') await o.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute((trx) => readAll(trx));
  else await o.db.transaction().execute((trx) => readAll(trx));

  const manifestTables: BackupManifest['tables'] = {};
  for (const t of tables) manifestTables[t] = { rows: counts.get(t)!, sha256: await sha256File(path.join(o.dir, 'tables', `${t}.jsonl`)) };

  const copy = o.storage.name === 'fs' || o.copyObjects === true;
  const entries: ObjectEntry[] = [];
  const missing: string[] = [];
  for (const want of wanted.keys()) {
    assertSafeKey(want.key);
    if (copy) {
      try {
        const got = await copyObjectToFile(o.storage, want.key, path.join(o.dir, 'objects', want.key));
        if (want.md5 && got.md5 !== want.md5) throw new BackupError(`object ${want.key} does not match its blob row (md5 ${got.md5}, row ${want.md5})`);
        entries.push({ key: want.key, size: got.size, md5: got.md5, required: want.required });
      } catch (e) {
        if (e instanceof BackupError) throw e;
        if (want.required) missing.push(want.key);
      }
    } else {
      const size = await o.storage.size(want.key);
      if (size == null) {
        if (want.required) missing.push(want.key);
        continue;
      }
      // blobs are content-addressed: their MD5 is their checksum; a thumbnail is listed by size only
      entries.push({ key: want.key, size, md5: want.md5 ?? '', required: want.required });
    }
  }
  const listFile = path.join(o.dir, 'objects.jsonl');
  writeFileSync(listFile, entries.map((e) => JSON.stringify(e) + '\n').join(''));

  const secrets: string[] = [];
  const secretsDir = path.join(o.dataDir, 'secrets');
  if (existsSync(secretsDir)) {
    mkdirSync(path.join(o.dir, 'secrets'), { recursive: true, mode: 0o700 });
    for (const name of readdirSync(secretsDir)) {
      if (name.endsWith('.tmp') || !statSync(path.join(secretsDir, name)).isFile()) continue;
      copyFileSync(path.join(secretsDir, name), path.join(o.dir, 'secrets', name));
      chmodSync(path.join(o.dir, 'secrets', name), 0o600);
      secrets.push(name);
    }
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: (o.now?.() ?? new Date()).toISOString(),
    dialect,
    storageDriver: o.storage.name,
    migration,
    tables: manifestTables,
    objects: { mode: copy ? 'copied' : 'listed', count: entries.length, bytes: entries.reduce((n, e) => n + e.size, 0), listSha256: await sha256File(listFile), missing },
    secrets,
  };
  // written last: a folder without a manifest is an unfinished backup and restore refuses it
  writeFileSync(path.join(o.dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

export class BackupError extends Error {}

export interface RestoreOptions {
  db: Kysely<Database>;
  storage: StorageDriver;
  dataDir: string;
  dir: string;
  /** restore over a database or storage that already holds data (its rows are deleted first) */
  force?: boolean;
}

export function readManifest(dir: string): BackupManifest {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) throw new BackupError(`${dir} has no manifest.json: not a backup, or an unfinished one`);
  const m = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (m.format !== BACKUP_FORMAT) throw new BackupError(`${dir} is not a CADCloud backup`);
  if (m.version > BACKUP_VERSION) throw new BackupError(`backup format ${m.version} is newer than this version understands (${BACKUP_VERSION})`);
  if (!migrationNames().includes(m.migration)) throw new BackupError(`the backup was made by a newer version (migration ${m.migration}): restore it with that version`);
  return m;
}

/** Every table file is checked against the manifest's checksum before anything is written. */
async function checkTables(dir: string, m: BackupManifest): Promise<void> {
  for (const [t, info] of Object.entries(m.tables)) {
    const file = path.join(dir, 'tables', `${t}.jsonl`);
    if (!existsSync(file) || (await sha256File(file)) !== info.sha256) throw new BackupError(`tables/${t}.jsonl is missing or damaged (checksum differs)`);
  }
}

/** The rows of one table file, a page at a time. */
async function* rowPages(file: string): AsyncGenerator<Record<string, unknown>[]> {
  let page: Record<string, unknown>[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    page.push(JSON.parse(line) as Record<string, unknown>);
    if (page.length === 200) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

async function countRows(db: Kysely<Database>, table: string): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(r.rows[0].n);
}

async function hasAnyObject(storage: StorageDriver): Promise<boolean> {
  for await (const _ of storage.list('blobs/')) return true;
  return false;
}

export async function restoreInstance(o: RestoreOptions): Promise<{ tables: Record<string, number>; objects: number; bytes: number; secrets: number }> {
  const m = readManifest(o.dir);
  // never under a running server's feet, --force or not
  const users = await usersOfInstance(o.db, o.dataDir);
  if (users.length) throw new BackupError(`the instance is in use: ${users.join('; ')}. Stop every server and worker of this instance, then restore`);
  await checkTables(o.dir, m);
  const listFile = path.join(o.dir, 'objects.jsonl');
  if (!existsSync(listFile) || (await sha256File(listFile)) !== m.objects.listSha256) throw new BackupError('objects.jsonl is missing or damaged (checksum differs)');
  const objects = readFileSync(listFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ObjectEntry);

  // an existing instance is never overwritten by accident
  const applied = await appliedMigration(o.db);
  if (applied) {
    const populated: string[] = [];
    for (const t of await tablesInDependencyOrder(o.db)) if ((await countRows(o.db, t)) > 0) populated.push(t);
    if (populated.length && !o.force) throw new BackupError(`the database already holds data (${populated.join(', ')}): restore into an empty one, or pass --force to replace it`);
    if (applied > m.migration) throw new BackupError(`the database schema (${applied}) is newer than the backup's (${m.migration}): restore into an empty database`);
  }
  // (a listed S3 backup restores into the bucket that still holds its objects: only copied ones need empty storage)
  if (m.objects.mode === 'copied' && !o.force && (await hasAnyObject(o.storage))) throw new BackupError('the storage already holds objects: restore into empty storage, or pass --force');

  // the schema the rows were written under, then the rows, then every later migration (which converts them)
  await migrateTo(o.db, m.migration);
  const tables = await tablesInDependencyOrder(o.db);
  const unknown = Object.keys(m.tables).filter((t) => !tables.includes(t));
  if (unknown.length) throw new BackupError(`the backup has tables this schema lacks: ${unknown.join(', ')}`);
  await o.db.transaction().execute(async (trx) => {
    for (const t of [...tables].reverse()) await sql`delete from ${sql.table(t)}`.execute(trx);
    for (const t of tables) {
      if (!m.tables[t]) continue;
      // batches of 200 keep each statement under the bound-parameter limits of both dialects
      for await (const page of rowPages(path.join(o.dir, 'tables', `${t}.jsonl`))) await trx.insertInto(t as keyof Database).values(page as never).execute();
    }
  });
  if (dialectOf(o.db) === 'postgres') await resetSequences(o.db, tables);
  await migrateToLatest(o.db);

  let bytes = 0;
  let copied = 0;
  for (const e of objects) {
    assertSafeKey(e.key);
    if (m.objects.mode === 'copied') {
      const file = path.join(o.dir, 'objects', e.key);
      if (!existsSync(file) || (await md5OfFile(file)) !== e.md5) throw new BackupError(`objects/${e.key} is missing or damaged (checksum differs)`);
      await o.storage.put(e.key, createReadStream(file), { size: e.size });
      copied++;
    }
    // listed (S3 without --objects): the bucket comes back by its own means; check it holds what the rows name
    const size = await o.storage.size(e.key);
    if (size !== e.size && e.required) throw new BackupError(`object ${e.key} is ${size == null ? 'missing' : `${size} bytes, expected ${e.size}`} after the restore`);
    bytes += e.size;
  }

  let secrets = 0;
  for (const name of m.secrets) {
    const target = path.join(o.dataDir, 'secrets', name);
    if (existsSync(target) && !o.force) continue;
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    copyFileSync(path.join(o.dir, 'secrets', name), target);
    chmodSync(target, 0o600);
    secrets++;
  }

  const counts: Record<string, number> = {};
  for (const [t, info] of Object.entries(m.tables)) {
    counts[t] = await countRows(o.db, t);
    if (counts[t] !== info.rows) throw new BackupError(`table ${t} has ${counts[t]} rows after the restore, the backup ${info.rows}`);
  }
  return { tables: counts, objects: m.objects.mode === 'copied' ? copied : objects.length, bytes, secrets };
}

/** Serial ids (mail_outbox) continue after the restored rows instead of colliding with them. */
async function resetSequences(db: Kysely<Database>, tables: string[]): Promise<void> {
  const schema = await schemaName(db);
  const cols = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = ${schema} and column_default like 'nextval(%'`.execute(db);
  for (const c of cols.rows) {
    if (!tables.includes(c.table_name)) continue;
    await sql`select setval(pg_get_serial_sequence(${`${schema}.${c.table_name}`}, ${c.column_name}), coalesce((select max(${sql.ref(c.column_name)}) from ${sql.table(c.table_name)}), 0) + 1, false)`.execute(db);
  }
}
