import type { Kysely, Selectable } from 'kysely';
import type { Database, FeedbackTable } from '../../infra/db/schema.ts';

export type FeedbackRow = Selectable<FeedbackTable>;

export function createFeedbackRepository(db: Kysely<Database>) {
  return {
    async insert(row: FeedbackRow): Promise<void> {
      await db.insertInto('feedback').values(row).execute();
    },
    async find(id: string): Promise<FeedbackRow | undefined> {
      return db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** newest first; `open`: only those not answered yet */
    async list(o: { open: boolean; limit: number }): Promise<FeedbackRow[]> {
      let q = db.selectFrom('feedback').selectAll();
      if (o.open) q = q.where('replied_at', 'is', null);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
    },
    async setReply(id: string, reply: string, at: number): Promise<void> {
      await db.updateTable('feedback').set({ reply, replied_at: at }).where('id', '=', id).execute();
    },
  };
}
