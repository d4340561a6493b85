import type { Kysely } from 'kysely';

// Ads (issue 22 part 6; modules/ads): the operator's ad slots (`npm run admin -- ad set`); none by default.
// Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ad_slots')
    .addColumn('slot', 'text', (c) => c.primaryKey())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ad_slots').execute();
}
