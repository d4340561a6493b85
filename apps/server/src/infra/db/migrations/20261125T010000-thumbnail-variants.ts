import type { Kysely } from 'kysely';

// The thumbnails drawn with an owner's pictures (modules/thumbnails/thumbnail-variants.ts), one row per stored image:
// storage has no listing, so without these rows a variant nobody shows any more, or one of a purged blob, would stay
// stored forever. No foreign key to blobs: the rows are read to delete the images after the blob row is gone, and a
// variant rendered while its blob is purged must still be noted. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('thumbnail_variants')
    // items.thumbkey of the variant (`v1-<md5>-p<pictures>.png`); its image is thumbnailStorageKey(thumbkey)
    .addColumn('thumbkey', 'text', (c) => c.primaryKey())
    .addColumn('blob_md5', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('thumbnail_variants_blob_md5').on('thumbnail_variants').column('blob_md5').execute();
  // the variants files show now, stored before this table: noted, so they go once nobody shows them (those nobody
  // shows already cannot be found without a listing, and stay)
  await db
    .insertInto('thumbnail_variants')
    .columns(['thumbkey', 'blob_md5'])
    .expression(db.selectFrom('items').select(['thumbkey', 'blob_md5']).distinct().where('thumbkey', 'like', 'v%-p%').where('blob_md5', 'is not', null))
    .onConflict((oc) => oc.column('thumbkey').doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('thumbnail_variants').execute();
}
