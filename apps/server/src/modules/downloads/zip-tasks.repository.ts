import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ZipTasksTable } from '../../infra/db/schema.ts';

export type ZipTaskRow = Selectable<ZipTasksTable>;

export function createZipTasksRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<ZipTasksTable>, t: Kysely<Database> = db) {
      await t.insertInto('zip_tasks').values(row).execute();
    },
    async find(uid: string, id: string) {
      return db.selectFrom('zip_tasks').selectAll().where('uid', '=', uid).where('id', '=', id).executeTakeFirst();
    },
    async findById(id: string) {
      return db.selectFrom('zip_tasks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findPendingByKey(uid: string, key: string) {
      return db.selectFrom('zip_tasks').select('id').where('uid', '=', uid).where('request_key', '=', key).where('status', 'in', [0, 1]).executeTakeFirst();
    },
    async list(uid: string, taskType?: number) {
      let q = db.selectFrom('zip_tasks').selectAll().where('uid', '=', uid);
      if (taskType) q = q.where('task_type', '=', taskType);
      return q.orderBy('created_at', 'desc').limit(200).execute();
    },
    /** The archive's decompression that has not ended: waiting, unpacking, or waiting for a password. */
    async findUnfinishedUnzip(uid: string, archiveId: string, t: Kysely<Database> = db) {
      return t.selectFrom('zip_tasks').selectAll().where('uid', '=', uid).where('task_type', '=', 2).where('archive_id', '=', archiveId).where('status', 'in', [0, 1, 5, 6]).executeTakeFirst();
    },
    /**
     * Starts a task only when none of this user's tasks runs: zip downloads go one at a time. `taskType`: only tasks
     * of that type count (a decompression does not wait for a download, nor the other way round).
     */
    async tryStart(uid: string, id: string, taskType?: number): Promise<boolean> {
      const r = await db
        .updateTable('zip_tasks')
        .set({ status: 1, updated_at: Date.now() })
        .where('id', '=', id)
        .where('status', '=', 0)
        .where((eb) => {
          let other = eb.selectFrom('zip_tasks as other').select('other.id').where('other.uid', '=', uid).where('other.status', '=', 1);
          if (taskType !== undefined) other = other.where('other.task_type', '=', taskType);
          return eb.not(eb.exists(other));
        })
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async update(id: string, patch: Partial<ZipTaskRow>, t: Kysely<Database> = db) {
      await t.updateTable('zip_tasks').set({ ...patch, updated_at: Date.now() }).where('id', '=', id).execute();
    },
    async delete(uid: string, id: string) {
      await db.deleteFrom('zip_tasks').where('uid', '=', uid).where('id', '=', id).execute();
    },
  };
}
