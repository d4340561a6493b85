import type { Kysely, Selectable } from 'kysely';
import type { Database, ZipTasksTable } from '../../infra/db/schema.ts';

export type ZipTaskRow = Selectable<ZipTasksTable>;

export function createZipTasksRepository(db: Kysely<Database>) {
  return {
    async insert(row: ZipTaskRow) {
      await db.insertInto('zip_tasks').values(row).execute();
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
    /** Starts a task only when none of this user's tasks runs: zip downloads go one at a time. */
    async tryStart(uid: string, id: string): Promise<boolean> {
      const r = await db
        .updateTable('zip_tasks')
        .set({ status: 1, updated_at: Date.now() })
        .where('id', '=', id)
        .where('status', '=', 0)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('zip_tasks as other').select('other.id').where('other.uid', '=', uid).where('other.status', '=', 1))))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async update(id: string, patch: Partial<ZipTaskRow>) {
      await db.updateTable('zip_tasks').set({ ...patch, updated_at: Date.now() }).where('id', '=', id).execute();
    },
    async delete(uid: string, id: string) {
      await db.deleteFrom('zip_tasks').where('uid', '=', uid).where('id', '=', id).execute();
    },
  };
}
