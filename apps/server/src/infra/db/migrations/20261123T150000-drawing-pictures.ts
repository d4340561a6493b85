import type { Kysely } from 'kysely';

// The pictures a drawing's IMAGEs name, per drawing blob (modules/thumbnails): when a picture lands in a drive later
// than the drawing, the owner's drawings naming it are found through `stem` without reading every drawing. Rows go
// with their blob. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('drawing_pictures')
    .addColumn('blob_md5', 'text', (c) => c.notNull().references('blobs.md5').onDelete('cascade'))
    // the base name as the drawing writes it, lower-cased (`aerial.jpg` of `C:\site\Aerial.JPG`)
    .addColumn('name', 'text', (c) => c.notNull())
    // what a picture file must share to be found for it (drawings/picture-finder.ts: `aerial` also takes aerial.png)
    .addColumn('stem', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('drawing_pictures_pk', ['blob_md5', 'name'])
    .execute();
  await db.schema.createIndex('drawing_pictures_stem').on('drawing_pictures').columns(['stem', 'blob_md5']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drawing_pictures').execute();
}
