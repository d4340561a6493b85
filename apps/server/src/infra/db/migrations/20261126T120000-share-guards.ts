import type { Kysely } from 'kysely';

// Issue 14: the extraction guard and the mail relay limits (modules/shares). The old per-share lock table goes:
// its rows were 15-minute counters, nothing to keep. Keep in step with ../schema.ts.
//  - share_extract_clients: per (share, client) wrong codes and when the client may try again (exponential backoff);
//  - share_extract_budget: per share the wrong codes of the current and the previous hour (proof-of-work difficulty);
//  - share_extract_challenges: proof-of-work challenges already used (each proves one attempt), until they expire;
//  - mail_send_counts: share e-mails a user sent in the current hour and day.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_extract_limits').execute();
  await db.schema
    .createTable('share_extract_clients')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_extract_clients_pk', ['share_id', 'client'])
    .execute();
  await db.schema
    .createTable('share_extract_budget')
    .addColumn('share_id', 'text', (c) => c.primaryKey().references('shares.id').onDelete('cascade'))
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('prev_failures', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('share_extract_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_extract_challenges_expires').on('share_extract_challenges').column('expires_at').execute();
  await db.schema
    .createTable('mail_send_counts')
    .addColumn('uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'hour' | 'day'
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_send_counts_pk', ['uid', 'period'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_send_counts').execute();
  await db.schema.dropTable('share_extract_challenges').execute();
  await db.schema.dropTable('share_extract_budget').execute();
  await db.schema.dropTable('share_extract_clients').execute();
  await db.schema
    .createTable('share_extract_limits')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('share_extract_limits_pk', ['share_id', 'client'])
    .execute();
}
