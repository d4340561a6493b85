import type { Kysely } from 'kysely';

// Files by their bytes: the thumbnail job sets thumbkey on every file with a blob, and the thumbnail route
// checks the asker has a file with it. Without this both would read the whole items table.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('items_blob_md5').on('items').columns(['blob_md5', 'uid']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_blob_md5').execute();
}
