import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { MAX_FOLDER_DEPTH, ROOT_FOLDER_ID, TransformStatus } from '@cadcloud/contracts';
import type { Database, ItemsTable } from '../../infra/db/schema.ts';
import { dialectOf } from '../../infra/db/db.ts';

export type ItemRow = Selectable<ItemsTable>;
export type SortField = 'name' | 'time' | 'size';
type Db = Kysely<Database> | Transaction<Database>;

/** items.type of a file without an extension (uploads store 'file'; older rows may hold '') */
const UNTYPED = ['', 'file'];

/** The only place that queries the items table (files and folders of the drive). */
export function createItemsRepository(db: Kysely<Database>) {
  /** Every write to a user's items moves their drive revision, which keys the list cache. */
  const touch = (uid: string, t: Db) => t.updateTable('users').set({ drive_rev: sql`drive_rev + 1` }).where('id', '=', uid).execute();
  // Walks of the tree carry the ids they passed (",a,b,") and never enter one again, and stop after the deepest
  // level a folder may have: a parent loop planted in the database ends the walk instead of growing it forever.
  const postgres = dialectOf(db) === 'postgres';
  const passed = (path: unknown, id: unknown) => (postgres ? sql`strpos(${path}, ',' || ${id} || ',') = 0` : sql`instr(${path}, ',' || ${id} || ',') = 0`);

  return {
    db,
    async findOwned(uid: string, ids: string[], opts: { deleted?: boolean } = {}, t: Db = db): Promise<ItemRow[]> {
      if (!ids.length) return [];
      let q = t.selectFrom('items').selectAll().where('uid', '=', uid).where('id', 'in', ids);
      q = opts.deleted ? q.where('deleted_at', 'is not', null) : q.where('deleted_at', 'is', null);
      return q.execute();
    },
    async findOne(uid: string, id: string, t: Db = db): Promise<ItemRow | undefined> {
      return t.selectFrom('items').selectAll().where('uid', '=', uid).where('deleted_at', 'is', null).where('id', '=', id).executeTakeFirst();
    },
    /** Children of a folder: folders first, then files; uses index items_uid_parent. */
    async listChildren(uid: string, parentId: string, o: { offset: number; limit: number; q?: string; sort?: SortField; desc?: boolean; kind?: number }) {
      let base = db.selectFrom('items').where('uid', '=', uid).where('parent_id', '=', parentId).where('deleted_at', 'is', null);
      if (o.q) base = base.where('name', 'like', `%${escapeLike(o.q)}%`);
      if (o.kind !== undefined) base = base.where('kind', '=', o.kind);
      // the page's ids come from the index alone; only those rows are read (OFFSET over full rows is slow)
      const pageIds = orderItems(base.select('id'), o.sort, o.desc).offset(o.offset).limit(o.limit);
      const [rows, total] = await Promise.all([
        orderItems(db.selectFrom('items').selectAll().where('id', 'in', pageIds), o.sort, o.desc).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
    /** Search across all of a user's folders. */
    async search(uid: string, o: { offset: number; limit: number; q: string; sort?: SortField; desc?: boolean }) {
      const base = db.selectFrom('items').where('uid', '=', uid).where('deleted_at', 'is', null).where('name', 'like', `%${escapeLike(o.q)}%`);
      const [rows, total] = await Promise.all([
        orderItems(base.selectAll(), o.sort, o.desc).offset(o.offset).limit(o.limit).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
    /** Files by extension (type groups), newest first. `include` null = every type. */
    /** `unknown`: the types (a file without an extension has none) outside `unknown.known` go with the included (or excluded) ones (the 3D group's rule). */
    async listByTypes(uid: string, o: { include: string[] | null; exclude: string[]; unknown?: { include: boolean; exclude: boolean; known: readonly string[] }; offset: number; limit: number; folderId?: string; q?: string; sort?: SortField; desc?: boolean }) {
      let base = db.selectFrom('items').where('uid', '=', uid).where('deleted_at', 'is', null).where('kind', '=', 1);
      const known = [...(o.unknown?.known ?? [])];
      if (o.include) {
        const list = o.include.length ? o.include : ['\u0000'];
        base = o.unknown?.include ? base.where((eb) => eb.or([eb('type', 'in', list), eb('type', 'not in', [...known, ...UNTYPED])])) : base.where('type', 'in', list);
      }
      if (o.exclude.length) base = base.where('type', 'not in', o.exclude);
      // a file without an extension has no type: it is no 3D model
      if (o.unknown?.exclude) base = base.where((eb) => eb('type', 'in', [...known, ...UNTYPED]));
      if (o.folderId !== undefined) base = base.where('parent_id', '=', o.folderId);
      if (o.q) base = base.where('name', 'like', `%${escapeLike(o.q)}%`);
      const sorted = o.sort ? orderItems(base.selectAll(), o.sort, o.desc) : base.selectAll().orderBy('modified_at', 'desc').orderBy('id');
      const [rows, total] = await Promise.all([sorted.offset(o.offset).limit(o.limit).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()]);
      return { rows, total: Number(total.n) };
    },
    async childFolderCounts(uid: string, folderIds: string[]): Promise<Map<string, number>> {
      if (!folderIds.length) return new Map();
      const rows = await db
        .selectFrom('items')
        .select(['parent_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('uid', '=', uid)
        .where('parent_id', 'in', folderIds)
        .where('deleted_at', 'is', null)
        .groupBy('parent_id')
        .execute();
      return new Map(rows.map((r) => [r.parent_id, Number(r.n)]));
    },
    async findByName(uid: string, parentId: string, name: string, kind?: number, t: Db = db): Promise<ItemRow | undefined> {
      let q = t.selectFrom('items').selectAll().where('uid', '=', uid).where('parent_id', '=', parentId).where('deleted_at', 'is', null).where('name', '=', name);
      if (kind !== undefined) q = q.where('kind', '=', kind);
      return q.executeTakeFirst();
    },
    async namesLike(uid: string, parentId: string, stem: string, t: Db = db): Promise<Set<string>> {
      const rows = await t
        .selectFrom('items')
        .select('name')
        .where('uid', '=', uid)
        .where('parent_id', '=', parentId)
        .where('deleted_at', 'is', null)
        .where(sql<boolean>`name like ${`${likeLiteral(stem)}%`} escape '\\'`)
        .execute();
      return new Set(rows.map((r) => r.name));
    },
    async insert(row: ItemRow, t: Db = db) {
      await t.insertInto('items').values(row).execute();
      await touch(row.uid, t);
    },
    async update(uid: string, id: string, patch: Partial<ItemRow>, t: Db = db) {
      await t.updateTable('items').set(patch).where('uid', '=', uid).where('id', '=', id).execute();
      await touch(uid, t);
    },
    /**
     * `update` of a file that is not converting, decided by the row itself (a conversion admitted at the same moment
     * in another process is seen: the write waits for its row lock and checks again); false when it is converting.
     */
    async updateUnlessConverting(uid: string, id: string, patch: Partial<ItemRow>, t: Db = db): Promise<boolean> {
      const r = await t.updateTable('items').set(patch).where('uid', '=', uid).where('id', '=', id).where('transform_status', '!=', TransformStatus.IN_TRANSFORM).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await touch(uid, t);
      return true;
    },
    /**
     * The given items and everything below them (recursive CTE: one query on both dialects), each once, with its
     * depth under its root (0 for the roots). Bounded by MAX_FOLDER_DEPTH levels and cycle-safe.
     */
    async subtree(uid: string, rootIds: string[], opts: { deleted?: boolean } = {}, t: Db = db): Promise<(ItemRow & { depth: number })[]> {
      if (!rootIds.length) return [];
      const deletedCond = (col: string) => (opts.deleted ? sql`${sql.ref(col)} is not null` : sql`${sql.ref(col)} is null`);
      const r = await sql<ItemRow & { depth: number }>`
        with recursive tree(id, depth, path) as (
          select id, 0, ',' || id || ',' from items where uid = ${uid} and id in (${sql.join(rootIds)}) and ${deletedCond('deleted_at')}
          union all
          select i.id, tree.depth + 1, tree.path || i.id || ','
          from items i join tree on i.parent_id = tree.id
          where i.uid = ${uid} and ${deletedCond('i.deleted_at')} and tree.depth < ${MAX_FOLDER_DEPTH} and ${passed(sql.ref('tree.path'), sql.ref('i.id'))}
        )
        select items.*, tree.depth from items join tree on items.id = tree.id order by tree.depth`.execute(t);
      // a root inside another root's subtree is reached twice: keep it once, nearest its own root
      const seen = new Set<string>();
      return r.rows.filter((row) => !seen.has(row.id) && !!seen.add(row.id)).map((row) => ({ ...row, depth: Number(row.depth) }));
    },
    /** Levels of folders in the deepest branch under the given folders, these counted (1: no sub-folders). Bounded like `subtree`. */
    async folderHeight(uid: string, rootIds: string[], t: Db = db): Promise<number> {
      if (!rootIds.length) return 0;
      const r = await sql<{ h: number | null }>`
        with recursive tree(id, depth, path) as (
          select id, 1, ',' || id || ',' from items where uid = ${uid} and id in (${sql.join(rootIds)}) and kind = 0 and deleted_at is null
          union all
          select i.id, tree.depth + 1, tree.path || i.id || ','
          from items i join tree on i.parent_id = tree.id
          where i.uid = ${uid} and i.kind = 0 and i.deleted_at is null and tree.depth <= ${MAX_FOLDER_DEPTH} and ${passed(sql.ref('tree.path'), sql.ref('i.id'))}
        )
        select max(depth) as h from tree`.execute(t);
      return Number(r.rows[0]?.h ?? 0);
    },
    /**
     * An item and its ancestors, nearest first (the breadcrumb, the "into itself" and depth checks). Bounded by
     * MAX_FOLDER_DEPTH levels and cycle-safe: `reachesRoot` tells a whole chain from one cut at a loop.
     */
    async ancestors(uid: string, folderId: string, t: Db = db): Promise<ItemRow[]> {
      const r = await sql<ItemRow & { depth: number }>`
        with recursive up(id, parent_id, depth, path) as (
          select id, parent_id, 0, ',' || id || ',' from items where uid = ${uid} and id = ${folderId}
          union all
          select i.id, i.parent_id, up.depth + 1, up.path || i.id || ','
          from items i join up on i.id = up.parent_id
          where i.uid = ${uid} and up.depth < ${MAX_FOLDER_DEPTH} and ${passed(sql.ref('up.path'), sql.ref('i.id'))}
        )
        select items.*, up.depth from items join up on items.id = up.id order by up.depth`.execute(t);
      return r.rows;
    },
    async markDeleted(uid: string, ids: string[], trashRoot: string, now: number, t: Db = db) {
      if (!ids.length) return;
      await t.updateTable('items').set({ deleted_at: now, trash_root: trashRoot }).where('uid', '=', uid).where('id', 'in', ids).execute();
      await touch(uid, t);
    },
    async trashRoots(uid: string, kind: number) {
      return db.selectFrom('items').selectAll().where('uid', '=', uid).where('kind', '=', kind).where('deleted_at', 'is not', null).whereRef('trash_root', '=', 'id').orderBy('deleted_at', 'desc').execute();
    },
    async itemsOfTrashRoots(uid: string, roots: string[], t: Db = db) {
      if (!roots.length) return [];
      return t.selectFrom('items').selectAll().where('uid', '=', uid).where('trash_root', 'in', roots).where('deleted_at', 'is not', null).execute();
    },
    async restoreTrashRoot(uid: string, root: string, parentId: string, name: string, t: Db = db) {
      // placed and named while still binned: a live name is unique in its folder (index items_uid_parent_name_live)
      await t.updateTable('items').set({ parent_id: parentId, name }).where('uid', '=', uid).where('id', '=', root).execute();
      await t.updateTable('items').set({ deleted_at: null, trash_root: null, trash_parent_id: null }).where('uid', '=', uid).where('trash_root', '=', root).execute();
      await touch(uid, t);
    },
    async deleteRows(uid: string, ids: string[], t: Db = db) {
      if (!ids.length) return;
      await t.deleteFrom('items').where('uid', '=', uid).where('id', 'in', ids).execute();
      await touch(uid, t);
    },
    /** Trash roots of any user older than the cutoff (retention sweep). */
    async expiredTrashRoots(cutoff: number, limit: number) {
      return db.selectFrom('items').select(['id', 'uid']).where('deleted_at', '<', cutoff).whereRef('trash_root', '=', 'id').limit(limit).execute();
    },
  };
}

/** True when an `ancestors` chain ends at the top level (not at a parent loop, a missing parent or the depth bound). */
export function reachesRoot(chain: ItemRow[]): boolean {
  return chain.length > 0 && chain[chain.length - 1].parent_id === ROOT_FOLDER_ID;
}

function orderItems<Q extends { orderBy: any }>(q: Q, sort: SortField | undefined, desc = false): Q {
  const dir = desc ? 'desc' : 'asc';
  // folders (kind 0) always before files
  let r = (q as any).orderBy('kind', 'asc');
  if (sort === 'time') r = r.orderBy('modified_at', dir);
  else if (sort === 'size') r = r.orderBy('size', dir);
  else r = r.orderBy('name', dir);
  return r.orderBy('id', 'asc');
}

/** `s` matched literally by LIKE … ESCAPE '\' (a name may contain % and _). */
function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function escapeLike(s: string): string {
  // kysely binds the value; only the LIKE wildcards need neutralising
  return s.replace(/[%_]/g, '');
}

export type ItemsRepository = ReturnType<typeof createItemsRepository>;
