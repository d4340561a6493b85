import type { Kysely } from 'kysely';

// Feedback (issue 23; modules/feedback): one row per message sent through /cloud/v5/advice/add, from a signed-in user
// (uid) or a visitor (uid null, the e-mail given); the operator answers with `admin feedback reply`, which mails the
// sender and records the answer. The optional screenshot is an object in storage (screenshot_key).
// feedback_counts: submissions per signed-in user (`u:<uid>`) and per client address (`ip:<addr>`) in the current hour
// and day, the same windows as mail_send_counts (infra/mail/mail-budget.ts), but keyed by more than a user.
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
  await db.schema
    .createTable('feedback_counts')
    .addColumn('uid', 'text', (c) => c.notNull())
    // 'hour' | 'day'
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('feedback_counts_pk', ['uid', 'period'])
    .execute();
  // the operator's list: open ones first, newest first
  await db.schema.createIndex('feedback_replied_created').on('feedback').columns(['replied_at', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feedback_counts').execute();
  await db.schema.dropTable('feedback').execute();
}
