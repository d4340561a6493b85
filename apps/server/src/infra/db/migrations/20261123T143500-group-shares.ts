import type { Kysely } from 'kysely';

// Which shares (kind 'group', in the shares module's tables) were sent to which group, and by whom.
// The share itself (items, rights, cancellation) stays the shares module's. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('group_shares')
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('share_id', 'text', (c) => c.notNull())
    .addColumn('sharer_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_shares_pk', ['group_id', 'share_id'])
    .execute();
  await db.schema.createIndex('group_shares_group_created').on('group_shares').columns(['group_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('group_shares').execute();
}
