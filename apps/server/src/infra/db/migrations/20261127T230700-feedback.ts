import type { Kysely } from 'kysely';

// Feedback (issue 23; modules/feedback): one row per message sent through /cloud/v5/advice/add, from a signed-in user
// (uid) or a visitor (uid null, the e-mail given); the operator answers with `admin feedback reply`, which mails the
// sender and records the answer. The optional screenshot is an object in storage (screenshot_key).
// Submissions per user and per client address are counted in mail_send_counts under `advice:` keys (mail-budget.ts).
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('page_url', 'text')
    .addColumn('screenshot_key', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reply', 'text')
    .addColumn('replied_at', 'bigint')
    .execute();
  // the operator's list: open ones first, newest first
  await db.schema.createIndex('feedback_replied_created').on('feedback').columns(['replied_at', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feedback').execute();
}
