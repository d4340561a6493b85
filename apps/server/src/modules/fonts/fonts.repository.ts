import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FontsTable } from '../../infra/db/schema.ts';

export type FontRow = Selectable<FontsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The only place that touches the `fonts` table. Every query of a user's fonts is scoped by `uid`. */
export function createFontsRepository(db: Kysely<Database>) {
  return {
    async insert(row: FontRow, t: Db = db) {
      await t.insertInto('fonts').values(row).execute();
    },
    /** A live (or, with `deleted`, binned) font of this user; another user's id finds nothing. */
    async findOwned(uid: string, id: string, o: { deleted?: boolean } = {}) {
      return db
        .selectFrom('fonts')
        .selectAll()
        .where('uid', '=', uid)
        .where('id', '=', id)
        .where('deleted_at', o.deleted ? 'is not' : 'is', null)
        .executeTakeFirst();
    },
    async findManyOwned(uid: string, ids: string[], o: { deleted?: boolean } = {}) {
      if (!ids.length) return [];
      return db
        .selectFrom('fonts')
        .selectAll()
        .where('uid', '=', uid)
        .where('id', 'in', ids)
        .where('deleted_at', o.deleted ? 'is not' : 'is', null)
        .execute();
    },
    async list(uid: string, o: { deleted: boolean; offset: number; limit: number; q?: string }) {
      let q = db.selectFrom('fonts').where('uid', '=', uid).where('deleted_at', o.deleted ? 'is not' : 'is', null);
      // kysely binds the value; only the LIKE wildcards need neutralising (as items.repository does)
      if (o.q) q = q.where('name_key', 'like', `%${o.q.toLowerCase().replace(/[%_]/g, '')}%`);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q.selectAll().orderBy(o.deleted ? 'deleted_at' : 'created_at', 'desc').orderBy('id').offset(o.offset).limit(o.limit).execute();
      return { rows, total };
    },
    /** Live fonts of this user whose lower-cased name is one of `keys` (any order). */
    async byNameKeys(uid: string, keys: string[]) {
      return db.selectFrom('fonts').selectAll().where('uid', '=', uid).where('deleted_at', 'is', null).where('name_key', 'in', keys).execute();
    },
    /** Published live fonts of any user with one of these names, earliest publication first (a stable choice). */
    async publicByNameKeys(keys: string[]) {
      return db
        .selectFrom('fonts')
        .selectAll()
        .where('is_public', '=', 1)
        .where('deleted_at', 'is', null)
        .where('name_key', 'in', keys)
        .orderBy('published_at', 'asc')
        .orderBy('id')
        .execute();
    },
    /** Live fonts a user's drawings may use (own and published), in a stable order. */
    async visibleTo(uid: string) {
      return db
        .selectFrom('fonts')
        .select(['uid', 'name_key', 'blob_md5', 'codepage'])
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('uid', '=', uid), eb('is_public', '=', 1)]))
        .orderBy('name_key')
        .orderBy('blob_md5')
        .orderBy('uid')
        .execute();
    },
    /** A published live font by id (anyone may read it through downloadFont). */
    async findPublic(id: string) {
      return db.selectFrom('fonts').selectAll().where('id', '=', id).where('is_public', '=', 1).where('deleted_at', 'is', null).executeTakeFirst();
    },
    /** Every live name of this user (a font library is small): what a new name must not collide with. */
    async liveNameKeys(uid: string, t: Db = db) {
      const rows = await t.selectFrom('fonts').select('name_key').where('uid', '=', uid).where('deleted_at', 'is', null).execute();
      return new Set(rows.map((r) => r.name_key));
    },
    async update(uid: string, id: string, patch: Partial<FontRow>, t: Db = db) {
      await t.updateTable('fonts').set(patch).where('uid', '=', uid).where('id', '=', id).execute();
    },
    async deleteRows(uid: string, ids: string[], t: Db = db) {
      if (!ids.length) return;
      await t.deleteFrom('fonts').where('uid', '=', uid).where('id', 'in', ids).execute();
    },
    async binned(uid: string, olderThan?: number) {
      let q = db.selectFrom('fonts').selectAll().where('uid', '=', uid).where('deleted_at', 'is not', null);
      if (olderThan !== undefined) q = q.where('deleted_at', '<', olderThan);
      return q.execute();
    },
  };
}

export type FontsRepository = ReturnType<typeof createFontsRepository>;
