import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

export interface PictureRow {
  id: string;
  name: string;
  type: string;
  parent_id: string;
  blob_md5: string;
  size: number;
  modified_at: number;
}

/** The queries of the picture lookup: one owner's live, unfrozen picture files by name. */
export function createDrawingImagesRepository(db: Kysely<Database>) {
  return {
    /** The folder a drawing sits in (its owner's item), or undefined. */
    async folderOf(uid: string, fileId: string): Promise<string | undefined> {
      const row = await db.selectFrom('items').select('parent_id').where('uid', '=', uid).where('id', '=', fileId).where('deleted_at', 'is', null).executeTakeFirst();
      return row?.parent_id;
    },
    /**
     * Live picture files of `uid` whose lower-cased name is one of `lowerNames` (lower() folds ASCII on SQLite,
     * all letters on PostgreSQL); recycle-bin and frozen files are not offered.
     */
    async picturesNamed(uid: string, lowerNames: string[], types: readonly string[]): Promise<PictureRow[]> {
      if (!lowerNames.length) return [];
      const rows = await db
        .selectFrom('items')
        .select(['id', 'name', 'type', 'parent_id', 'blob_md5', 'size', 'modified_at'])
        .where('uid', '=', uid)
        .where('kind', '=', 1)
        .where('deleted_at', 'is', null)
        .where('freeze', '!=', 1)
        .where('blob_md5', 'is not', null)
        .where('type', 'in', [...types])
        .where(sql<string>`lower(name)`, 'in', lowerNames)
        .limit(200)
        .execute();
      return rows.map((r) => ({ ...r, blob_md5: r.blob_md5!, size: Number(r.size), modified_at: Number(r.modified_at) }));
    },
  };
}
