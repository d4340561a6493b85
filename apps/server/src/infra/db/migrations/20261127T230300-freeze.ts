import type { Kysely } from 'kysely';

// Freeze and unfreeze (issue 22 part 5; spec section 4; modules/freeze). frozen_at: when the account last became
// frozen (the 3-month purge counts from it); purge_warned_at: the warning mail a week before the purge was sent;
// free_unfreeze_until: the one-time free unfreeze (accounts registered before 2017-10) runs until then;
// free_unfreeze_used_at: it was taken (once per account). Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('frozen_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('purge_warned_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('free_unfreeze_until', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('free_unfreeze_used_at', 'bigint').execute();
  // the scheduled check reads frozen accounts only
  await db.schema.createIndex('users_frozen').on('users').columns(['freeze', 'frozen_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_frozen').execute();
  for (const c of ['frozen_at', 'purge_warned_at', 'free_unfreeze_until', 'free_unfreeze_used_at']) await db.schema.alterTable('users').dropColumn(c).execute();
}
