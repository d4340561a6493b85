import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, FileVersionsTable } from '../../infra/db/schema.ts';

export type VersionRow = Selectable<FileVersionsTable>;
type Db = Kysely<Database> | Transaction<Database>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What other modules (compare) need of a version: which file, which number, which bytes. */
export interface VersionRef {
  versionId: string;
  fileId: string;
  number: number;
  blobMd5: string;
  size: number;
  sourceName: string;
}

const toRef = (r: VersionRow): VersionRef => ({ versionId: r.id, fileId: r.item_id, number: Number(r.number), blobMd5: r.blob_md5, size: Number(r.size), sourceName: r.source_name });

/**
 * A live (not deleted) version of one of `uid`'s files; another user's version id finds nothing. Version ids come
 * from `version/history` (or `listVersionsForUser` in versions.service.ts), which materializes a file's implicit V1,
 * so every id a client holds is a real row.
 */
export async function getVersionForUser(db: Kysely<Database>, uid: string, versionId: string): Promise<VersionRef | undefined> {
  const r = await db.selectFrom('file_versions').selectAll().where('uid', '=', uid).where('id', '=', versionId).where('deleted_at', 'is', null).executeTakeFirst();
  return r ? toRef(r) : undefined;
}

/** The only place that touches the `file_versions` table. Every query of a user's versions is scoped by `uid`. */
export function createVersionsRepository(db: Kysely<Database>) {
  return {
    toRef,
    async insert(row: VersionRow, t: Db = db) {
      await t.insertInto('file_versions').values(row).execute();
    },
    async findOwned(uid: string, id: string, t: Db = db) {
      return t.selectFrom('file_versions').selectAll().where('uid', '=', uid).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },
    async findManyOwned(uid: string, ids: string[], t: Db = db) {
      if (!ids.length) return [];
      return t.selectFrom('file_versions').selectAll().where('uid', '=', uid).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    },
    /** Live versions of a file, newest first. */
    async liveOfItem(uid: string, itemId: string, t: Db = db) {
      return t.selectFrom('file_versions').selectAll().where('uid', '=', uid).where('item_id', '=', itemId).where('deleted_at', 'is', null).orderBy('number', 'desc').execute();
    },
    /** Live versions of several files (permanent delete of files). */
    async liveOfItems(uid: string, itemIds: string[], t: Db = db) {
      if (!itemIds.length) return [];
      return t.selectFrom('file_versions').selectAll().where('uid', '=', uid).where('item_id', 'in', itemIds).where('deleted_at', 'is', null).execute();
    },
    /** The highest number ever given in this file, deleted versions included (numbers are never reused). */
    async maxNumber(itemId: string, t: Db = db): Promise<number> {
      const r = await t.selectFrom('file_versions').select((eb) => eb.fn.max<number>('number').as('n')).where('item_id', '=', itemId).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /** History page: filters by source file name and updater name (substring, case-insensitive). */
    async list(uid: string, itemId: string, o: { sourceName?: string; updateName?: string; offset: number; limit: number }) {
      let q = db.selectFrom('file_versions').where('uid', '=', uid).where('item_id', '=', itemId).where('deleted_at', 'is', null);
      if (o.sourceName) q = q.where(sql<boolean>`lower(source_name) like ${`%${escapeLike(o.sourceName.toLowerCase())}%`} escape '\\'`);
      if (o.updateName) q = q.where(sql<boolean>`lower(updater_name) like ${`%${escapeLike(o.updateName.toLowerCase())}%`} escape '\\'`);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q.selectAll().orderBy('number', 'desc').offset(o.offset).limit(o.limit).execute();
      return { rows, total };
    },
    async update(uid: string, id: string, patch: Partial<VersionRow>, t: Db = db) {
      await t.updateTable('file_versions').set(patch).where('uid', '=', uid).where('id', '=', id).execute();
    },
    /** The version rows of files deleted for good (live and deleted versions alike). */
    async deleteOfItems(uid: string, itemIds: string[], t: Db = db) {
      if (!itemIds.length) return;
      await t.deleteFrom('file_versions').where('uid', '=', uid).where('item_id', 'in', itemIds).execute();
    },
    /** Marks live versions deleted; answers how many were still live (a concurrent delete may have taken some). */
    async markDeleted(uid: string, ids: string[], now: number, t: Db = db): Promise<number> {
      if (!ids.length) return 0;
      const r = await t.updateTable('file_versions').set({ deleted_at: now }).where('uid', '=', uid).where('id', 'in', ids).where('deleted_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
