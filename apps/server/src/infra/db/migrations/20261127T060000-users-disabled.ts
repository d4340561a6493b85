import type { Kysely } from 'kysely';

// An operator can disable an account (`admin user disable`): its sessions end and no new one is made until it is
// enabled again; its files stay as they are. Null: enabled. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}
