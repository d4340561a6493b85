import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, ItemsPublicationColumns, ItemsTable } from '../../infra/db/schema.ts';
import type { PublicSort } from '@cadcloud/contracts';
import type { ItemRow } from '../files/items.repository.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';
import { storageTotalSql } from '../../infra/db/storage-total.ts';

/** The schema with items' publication column (only this module reads or writes it). */
export type LibraryDatabase = Omit<Database, 'items'> & { items: ItemsTable & ItemsPublicationColumns };
type Db = Kysely<LibraryDatabase> | Transaction<LibraryDatabase>;
export type PublicRow = ItemRow & ItemsPublicationColumns & { owner_name: string; liked_by: string | null; collected_by: string | null };
export type Mark = 'likes' | 'collections';

const MARK_TABLE = { likes: 'public_likes', collections: 'public_collections' } as const;
const MARK_COUNTER = { likes: 'like_count', collections: 'collection_count' } as const;

function escapeLike(s: string): string {
  // kysely binds the value; only the LIKE wildcards need neutralising (as items.repository does)
  return s.replace(/[%_]/g, '');
}

/**
 * The only place that touches the library's tables (public_likes, public_collections, public_messages) and the
 * publication columns of `items`. Counters on `items` move only together with a row that really appeared or went,
 * inside the caller's transaction, by an atomic `x = x ± 1` (never a value computed in JavaScript), so concurrent
 * clicks on both databases end exactly at the number of rows.
 */
export function createLibraryRepository(appDb: Kysely<Database>) {
  const db = appDb as unknown as Kysely<LibraryDatabase>;
  /** Live public files with the owner's name and whether `viewer` liked / collected each. */
  function publicItems(viewer: string, t: Db = db) {
    return t
      .selectFrom('items')
      .innerJoin('users as owner', 'owner.id', 'items.uid')
      .leftJoin('public_likes as ml', (j) => j.onRef('ml.file_id', '=', 'items.id').on('ml.uid', '=', viewer))
      .leftJoin('public_collections as mc', (j) => j.onRef('mc.file_id', '=', 'items.id').on('mc.uid', '=', viewer))
      .where('items.private_type', '=', '0')
      .where('items.deleted_at', 'is', null)
      .where('items.kind', '=', 1);
  }

  async function page(q: ReturnType<typeof publicItems>, o: { offset: number; limit: number; keywords?: string }, order: (q: any) => any) {
    let base = q;
    if (o.keywords?.trim()) base = base.where('items.name', 'like', `%${escapeLike(o.keywords.trim())}%`);
    const [rows, total] = await Promise.all([
      order(base.selectAll('items').select(['owner.name as owner_name', 'ml.uid as liked_by', 'mc.uid as collected_by']))
        .orderBy('items.id')
        .offset(o.offset)
        .limit(o.limit)
        .execute() as Promise<PublicRow[]>,
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  const bumpRev = (uid: string, t: Db) => t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', '=', uid).execute();

  return {
    db,

    /** The caller's live items among `ids` (read inside the publishing transaction). */
    async ownedLive(uid: string, ids: string[], t: Db = db): Promise<(ItemRow & ItemsPublicationColumns)[]> {
      if (!ids.length) return [];
      return t.selectFrom('items').selectAll().where('uid', '=', uid).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    },

    /**
     * Flips one live file of `uid` from `from` to the other visibility; true when this call changed it (a concurrent
     * call that got there first makes it false, so its storage is moved once).
     */
    async flipVisibility(uid: string, id: string, from: '0' | '1', now: number, t: Db): Promise<boolean> {
      const r = await t
        .updateTable('items')
        .set(from === '1' ? { private_type: '0', published_at: now } : { private_type: '1', published_at: null })
        .where('uid', '=', uid)
        .where('id', '=', id)
        .where('kind', '=', 1)
        .where('private_type', '=', from)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /**
     * Moves `delta` bytes into (positive) or out of (negative) the owner's used storage, never below 0, and sets the
     * freeze flag the way section 4 (and users.service setQuota) defines it: frozen exactly while used > total.
     * Here rather than through quota.service because it must run in the caller's transaction.
     */
    async adjustStorage(uid: string, delta: number, t: Db) {
      await t
        .updateTable('users')
        .set({ storage_used: sql`case when storage_used + ${delta} < 0 then 0 else storage_used + ${delta} end`, drive_rev: sql`drive_rev + 1` })
        .where('id', '=', uid)
        .execute();
      await refreshFreeze(t, uid, Date.now());
    },

    async usage(uid: string, t: Db = db) {
      // storage_quota here is the whole space: the base plus the active entitlements' storage
      return t.selectFrom('users').select(['storage_used', storageTotalSql(Date.now()).as('storage_quota'), 'freeze']).where('id', '=', uid).executeTakeFirstOrThrow();
    },

    /** Everyone's public drawings. */
    async listPublic(viewer: string, o: { offset: number; limit: number; keywords?: string; sort: PublicSort }) {
      return page(publicItems(viewer), o, (q) => {
        if (o.sort === 'likes') return q.orderBy('items.like_count', 'desc').orderBy('items.published_at', 'desc');
        if (o.sort === 'browses') return q.orderBy('items.browse_count', 'desc').orderBy('items.published_at', 'desc');
        return q.orderBy('items.published_at', 'desc');
      });
    },

    /** The viewer's own public drawings (/yun/myPublic). */
    async listMine(viewer: string, o: { offset: number; limit: number; keywords?: string }) {
      return page(publicItems(viewer).where('items.uid', '=', viewer), o, (q) => q.orderBy('items.published_at', 'desc'));
    },

    /** Public drawings the viewer liked or collected, latest click first (unpublished ones are hidden, not removed). */
    async listMarked(viewer: string, mark: Mark, o: { offset: number; limit: number; keywords?: string }) {
      const alias = mark === 'likes' ? 'ml' : 'mc';
      return page(publicItems(viewer).where(`${alias}.uid`, 'is not', null), o, (q) => q.orderBy(`${alias}.created_at`, 'desc'));
    },

    async findPublic(viewer: string, fileId: string, t: Db = db): Promise<PublicRow | undefined> {
      return publicItems(viewer, t)
        .where('items.id', '=', fileId)
        .selectAll('items')
        .select(['owner.name as owner_name', 'ml.uid as liked_by', 'mc.uid as collected_by'])
        .executeTakeFirst() as Promise<PublicRow | undefined>;
    },

    /** A live public file (for the viewer and thumbnails): owner, bytes, name. */
    async findPublicFile(fileId: string, t: Db = db) {
      return t
        .selectFrom('items')
        .select(['id', 'uid', 'name', 'size', 'freeze', 'blob_md5', 'thumbkey'])
        .where('id', '=', fileId)
        .where('private_type', '=', '0')
        .where('deleted_at', 'is', null)
        .where('kind', '=', 1)
        .executeTakeFirst();
    },

    /** One more browse of a live public file; false when it is not one. */
    async countBrowse(fileId: string): Promise<boolean> {
      const r = await db
        .updateTable('items')
        .set({ browse_count: sql`browse_count + 1` })
        .where('id', '=', fileId)
        .where('private_type', '=', '0')
        .where('deleted_at', 'is', null)
        .where('kind', '=', 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async hasMark(mark: Mark, fileId: string, uid: string, t: Db) {
      return !!(await t.selectFrom(MARK_TABLE[mark]).select('uid').where('file_id', '=', fileId).where('uid', '=', uid).executeTakeFirst());
    },

    /** Adds the (file, user) row unless it is there; the counter moves only when it was added. */
    async addMark(mark: Mark, fileId: string, uid: string, t: Db): Promise<boolean> {
      const r = await t
        .insertInto(MARK_TABLE[mark])
        .values({ file_id: fileId, uid, created_at: Date.now() })
        .onConflict((oc) => oc.columns(['file_id', 'uid']).doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      const col = MARK_COUNTER[mark];
      await t.updateTable('items').set({ [col]: sql`${sql.ref(col)} + 1` }).where('id', '=', fileId).execute();
      return true;
    },

    /** Removes the (file, user) row if it is there; the counter moves only when it was removed. */
    async removeMark(mark: Mark, fileId: string, uid: string, t: Db): Promise<boolean> {
      const r = await t.deleteFrom(MARK_TABLE[mark]).where('file_id', '=', fileId).where('uid', '=', uid).executeTakeFirst();
      if (Number(r.numDeletedRows) !== 1) return false;
      const col = MARK_COUNTER[mark];
      await t.updateTable('items').set({ [col]: sql`case when ${sql.ref(col)} > 0 then ${sql.ref(col)} - 1 else 0 end` }).where('id', '=', fileId).execute();
      return true;
    },

    async counters(fileId: string, t: Db) {
      return t.selectFrom('items').select(['like_count', 'collection_count', 'browse_count', 'leave_message_count', 'uid']).where('id', '=', fileId).executeTakeFirstOrThrow();
    },

    bumpRev,

    async addMessage(row: { id: string; file_id: string; uid: string; content: string; created_at: number }, t: Db) {
      await t.insertInto('public_messages').values(row).execute();
      await t.updateTable('items').set({ leave_message_count: sql`leave_message_count + 1` }).where('id', '=', row.file_id).execute();
    },

    /** Deletes a message written by `uid`; the file's count moves only when one was deleted. */
    async deleteOwnMessage(uid: string, messageId: string, t: Db): Promise<boolean> {
      const m = await t.selectFrom('public_messages').select(['file_id']).where('id', '=', messageId).where('uid', '=', uid).executeTakeFirst();
      if (!m) return false;
      const r = await t.deleteFrom('public_messages').where('id', '=', messageId).where('uid', '=', uid).executeTakeFirst();
      if (Number(r.numDeletedRows) !== 1) return false;
      await t
        .updateTable('items')
        .set({ leave_message_count: sql`case when leave_message_count > 0 then leave_message_count - 1 else 0 end` })
        .where('id', '=', m.file_id)
        .execute();
      return true;
    },

    async listMessages(fileId: string, o: { offset: number; limit: number }) {
      const base = db.selectFrom('public_messages as m').innerJoin('users as u', 'u.id', 'm.uid').where('m.file_id', '=', fileId);
      const [rows, total] = await Promise.all([
        base.select(['m.id', 'm.file_id', 'm.uid', 'm.content', 'm.created_at', 'u.name as user_name']).orderBy('m.created_at', 'desc').orderBy('m.id').offset(o.offset).limit(o.limit).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    async userName(uid: string, t: Db = db) {
      return (await t.selectFrom('users').select('name').where('id', '=', uid).executeTakeFirst())?.name ?? '';
    },
  };
}

export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
