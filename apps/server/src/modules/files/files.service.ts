import { KNOWN_TYPES, MAX_FOLDER_DEPTH, ROOT_FOLDER_ID, TransformStatus, TYPE_GROUPS, TRASH_RETENTION_DAYS, extensionOf } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';
import { appError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { serializedWithRetry } from '../../infra/db/serialized-transaction.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { releaseVersionsOfFiles } from '../versions/versions.cleanup.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { createItemsRepository, reachesRoot, type ItemRow, type SortField } from './items.repository.ts';
import { presentItem } from './items.presenter.ts';
import { checkName, nextFreeName, stemOf } from './item-names.ts';
import { folderLevels } from './folder-levels.ts';

export interface Actor {
  id: string;
  freeze: number;
}

type DuplicateError = 'name.duplicateFolder' | 'name.duplicateFile' | 'move.duplicate';
/** The database handle of a drive write (`driveWrite`); outside one, the app's own. */
type Db = Kysely<Database>;

const isPrivateFile = (r: ItemRow) => r.kind === 1 && r.private_type === '1';
const sumSize = (rows: ItemRow[]) => rows.filter(isPrivateFile).reduce((a, r) => a + Number(r.size), 0);
const fileNames = (rows: ItemRow[]) => rows.filter((r) => r.kind === 1).map((r) => r.name);

/**
 * The type groups by their lower-cased key (`threed`), with the spec's other names: group keys are matched without
 * case, like extensions are, so `threeD` (the web app's key) and `threed` name the same group.
 */
const GROUPS_BY_KEY: ReadonlyMap<string, readonly string[]> = new Map([
  ...Object.entries(TYPE_GROUPS).map(([k, v]) => [k.toLowerCase(), v] as const),
  ['3d', TYPE_GROUPS.threeD],
  ['picture', TYPE_GROUPS.image],
]);

/** The names of the 3D group: listing it also lists the types no group knows. */
const THREE_D_KEYS = new Set(['threed', '3d']);

/** Resolves group names (`drawing`) and plain extensions (`dwg`) into one extension list. */
export function expandTypes(types: string[] | string | undefined): string[] {
  const list = Array.isArray(types) ? types : types ? String(types).split(',') : [];
  const out = new Set<string>();
  for (const t of list.map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    const group = GROUPS_BY_KEY.get(t);
    if (group) group.forEach((e) => out.add(e));
    else out.add(t.replace(/^\./, ''));
  }
  return [...out];
}

/** The rules of the drive (spec sections 4, 5, 8): listing, naming, moving, deleting, the recycle bin. */
export function createFilesService(deps: AppDeps) {
  const repo = createItemsRepository(deps.db);
  const quota = createQuotaService(deps);
  const blobs = createBlobsService(deps);
  // drawings show their owner's pictures by name and folder: a picture file appearing, going or moving may change them
  const thumbnails = createThumbnailsService(deps);

  async function requireFolder(uid: string, folderId: string, t: Db = deps.db): Promise<ItemRow | null> {
    if (folderId === ROOT_FOLDER_ID) return null;
    const f = await repo.findOne(uid, folderId, t);
    if (!f || f.kind !== 0) throw appError('item.notFound');
    return f;
  }

  /**
   * Everything that changes where an item is or what it is called runs here: one at a time per user, in every
   * process (infra/db/serialized-transaction.ts), so a check made inside (not into its own subtree, the name is
   * free, the folder is still there) holds when it commits; the unique index on live names is the last word.
   * Inside `fn` use only its handle `t`: on SQLite a query on `deps.db` there would wait forever.
   */
  function driveWrite<T>(uid: string, fn: (t: Db) => Promise<T>): Promise<T> {
    return serializedWithRetry(deps.db, `drive:${uid}`, fn);
  }

  /**
   * `name`, or with autorename the first free "name (n)" in the folder. `refuse` sees the item holding the name
   * first (an upload refuses the same bytes twice). In a drive write pass its handle `t`.
   */
  async function freeName(uid: string, parentId: string, name: string, kind: number, autorename: boolean, dupError: DuplicateError, exceptId?: string, t?: Db, refuse?: (clash: ItemRow) => void) {
    const clash = await repo.findByName(uid, parentId, name, undefined, t);
    if (!clash || clash.id === exceptId) return name;
    refuse?.(clash);
    if (!autorename) throw appError(kind === 0 && dupError !== 'move.duplicate' ? 'name.duplicateFolder' : dupError);
    return nextFreeName(name, await repo.namesLike(uid, parentId, stemOf(name, kind === 0), t), kind === 0);
  }

  /** Folder levels from the top down to `folderId` (0 for the top level); Infinity when a parent loop cuts it off from the top. */
  async function levelOf(uid: string, folderId: string, t: Db): Promise<number> {
    if (folderId === ROOT_FOLDER_ID) return 0;
    const chain = await repo.ancestors(uid, folderId, t);
    return reachesRoot(chain) ? chain.length : Infinity;
  }

  /** `levels` of folders placed in `parentId` must stay within MAX_FOLDER_DEPTH. */
  async function assertRoomBelow(uid: string, parentId: string, levels: number, t: Db) {
    if (levels > 0 && (await levelOf(uid, parentId, t)) + levels > MAX_FOLDER_DEPTH) throw appError('folder.tooDeep', [MAX_FOLDER_DEPTH]);
  }

  /**
   * Makes a new item visible in its folder under a free name (autorename, the default: "name (n)"; otherwise
   * `dupError`), in one drive write, so parallel creates and uploads of one name never make two. The folder must
   * still be there. Answers the row as inserted.
   */
  async function insertWithFreeName(row: ItemRow, o: { autorename?: boolean; dupError?: DuplicateError; refuse?: (clash: ItemRow) => void } = {}): Promise<ItemRow> {
    return driveWrite(row.uid, async (t) => {
      await requireFolder(row.uid, row.parent_id, t);
      if (row.kind === 0) await assertRoomBelow(row.uid, row.parent_id, 1, t);
      const name = await freeName(row.uid, row.parent_id, row.name, row.kind, o.autorename ?? true, o.dupError ?? 'name.duplicateFile', undefined, t, o.refuse);
      const placed: ItemRow = { ...row, name, type: row.kind === 1 ? extensionOf(name) || 'file' : row.type };
      await repo.insert(placed, t);
      return placed;
    });
  }

  /** Rename (a free name in its folder, like `insertWithFreeName`) and/or new description of a file or folder. */
  async function edit(actor: Actor, id: string, kind: number, o: { name?: string; descp?: string; autorename?: boolean }) {
    assertNotFrozen(actor);
    const name = o.name !== undefined ? checkName(o.name) : undefined;
    return driveWrite(actor.id, async (t) => {
      const row = await repo.findOne(actor.id, id, t);
      if (!row || row.kind !== kind) throw appError('item.notFound');
      refuseConverting([row]);
      const patch: Partial<ItemRow> = { modified_at: Date.now() };
      if (name !== undefined) {
        patch.name = await freeName(actor.id, row.parent_id, name, kind, !!o.autorename, kind === 0 ? 'name.duplicateFolder' : 'name.duplicateFile', row.id, t);
        if (kind === 1) patch.type = extensionOf(patch.name) || 'file';
      }
      if (o.descp !== undefined) patch.descp = String(o.descp).slice(0, 500);
      await repo.update(actor.id, row.id, patch, t);
      return { row, patch };
    });
  }

  /** Section 4: while an item converts, actions on it are blocked (its conversion reads it and places the result beside it). */
  function refuseConverting(rows: ItemRow[]) {
    if (rows.some((r) => r.transform_status === TransformStatus.IN_TRANSFORM)) throw appError('conversion.inProgress');
  }

  async function withCounts(uid: string, rows: ItemRow[]) {
    const counts = await repo.childFolderCounts(uid, rows.filter((r) => r.kind === 0).map((r) => r.id));
    return rows.map((r) => presentItem(r, uid, { count: counts.get(r.id) ?? 0 }));
  }

  function assertNotFrozen(actor: Actor) {
    if (actor.freeze === 1) throw appError('account.frozen');
  }

  const service = {
    repo,
    requireFolder,
    freeName,
    assertNotFrozen,
    driveWrite,
    insertWithFreeName,
    assertRoomBelow,

    async unionList(uid: string, o: { parentId: string; page: number; pageSize: number; q?: string; isGlobal?: boolean; sort?: SortField; desc?: boolean }) {
      const offset = (o.page - 1) * o.pageSize;
      if (o.q && o.isGlobal) {
        const { rows, total } = await repo.search(uid, { offset, limit: o.pageSize, q: o.q, sort: o.sort, desc: o.desc });
        return { list: await withCounts(uid, rows), total, page: o.page, pageSize: o.pageSize };
      }
      await requireFolder(uid, o.parentId);
      const { rows, total } = await repo.listChildren(uid, o.parentId, { offset, limit: o.pageSize, q: o.q, sort: o.sort, desc: o.desc });
      return { list: await withCounts(uid, rows), total, page: o.page, pageSize: o.pageSize };
    },

    async listTypeFiles(uid: string, o: { pageNo: number; pageSize: number; includeTypes?: string[] | string; excludeTypes?: string[] | string; folderId?: string; q?: string; sort?: SortField; desc?: boolean }) {
      if (o.folderId !== undefined) await requireFolder(uid, o.folderId);
      const include = o.includeTypes && expandTypes(o.includeTypes).length ? expandTypes(o.includeTypes) : null;
      const exclude = expandTypes(o.excludeTypes);
      // spec section 5: types accepted by a folder but not in the known list count as 3D-viewable
      const names3d = (types: string[] | string | undefined) => (Array.isArray(types) ? types : types ? String(types).split(',') : []).some((x) => THREE_D_KEYS.has(x.trim().toLowerCase()));
      const unknown = { include: names3d(o.includeTypes), exclude: names3d(o.excludeTypes), known: KNOWN_TYPES };
      const { rows, total } = await repo.listByTypes(uid, { include, exclude, unknown, offset: (o.pageNo - 1) * o.pageSize, limit: o.pageSize, folderId: o.folderId, q: o.q, sort: o.sort, desc: o.desc });
      return { files: rows.map((r) => presentItem(r, uid)), list: rows.map((r) => presentItem(r, uid)), total };
    },

    async getFileInfo(uid: string, fileId: string) {
      const row = await repo.findOne(uid, fileId);
      if (!row) throw appError('item.notFound');
      return presentItem(row, uid);
    },

    async editFile(actor: Actor, o: { fileId: string; name?: string; descp?: string; autorename?: boolean }) {
      const { row, patch } = await edit(actor, o.fileId, 1, o);
      if (patch.name !== undefined && patch.name !== row.name) await thumbnails.picturesChanged(actor.id, [row.name, patch.name]);
      return presentItem({ ...row, ...patch }, actor.id);
    },

    async createFolder(actor: Actor, o: { parentId: string; name: string; autorename?: boolean; descp?: string }) {
      assertNotFrozen(actor);
      const now = Date.now();
      const row = await insertWithFreeName(
        {
          id: newId(), uid: actor.id, parent_id: o.parentId, kind: 0, name: checkName(o.name), type: 'folder', size: 0, blob_md5: null, version: 1, descp: o.descp ?? '', private_type: '1', freeze: 0, thumbkey: null, transform_status: 3,
          browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null,
        },
        { autorename: !!o.autorename, dupError: 'name.duplicateFolder' },
      );
      return presentItem(row, actor.id, { count: 0 });
    },

    async editFolder(actor: Actor, o: { folderId: string; name?: string; descp?: string; autorename?: boolean }) {
      const { row, patch } = await edit(actor, o.folderId, 0, o);
      return presentItem({ ...row, ...patch }, actor.id);
    },

    /** Sub-folders of a folder (the move dialog's tree). */
    async folderList(uid: string, parentId: string, o: { page: number; pageSize: number }) {
      await requireFolder(uid, parentId);
      const { rows, total } = await repo.listChildren(uid, parentId, { offset: (o.page - 1) * o.pageSize, limit: o.pageSize, kind: 0 });
      const counts = await repo.childFolderCounts(uid, rows.map((r) => r.id));
      return { subFolders: rows.map((r) => ({ id: r.id, name: r.name, parentId: r.parent_id, count: counts.get(r.id) ?? 0, modifyTimestamp: r.modified_at })), count: total, total };
    },

    async parentPath(uid: string, folderId: string) {
      if (folderId === ROOT_FOLDER_ID) return { list: [] };
      const chain = await repo.ancestors(uid, folderId);
      // a folder a parent loop has cut off from the top level has no path to show
      if (!chain.length || chain[0].kind !== 0 || !reachesRoot(chain)) throw appError('item.notFound');
      return { list: chain.reverse().map((r) => ({ id: r.id, name: r.name, parentId: r.parent_id })) };
    },

    async move(actor: Actor, o: { fileIds: string[]; folderIds: string[]; moveToId: string; autoRename?: boolean }) {
      assertNotFrozen(actor);
      const uid = actor.id;
      const ids = [...new Set([...o.fileIds, ...o.folderIds])];
      const now = Date.now();
      // checked and written in one drive write: two moves checked apart and committed together made A↔B loops
      const { moved, movedFiles, movedRows } = await driveWrite(uid, async (t) => {
        const moved: ReturnType<typeof presentItem>[] = [];
        const movedFiles: string[] = [];
        const movedRows: ItemRow[] = [];
        const target = await requireFolder(uid, o.moveToId, t);
        const rows = await repo.findOwned(uid, ids, {}, t);
        if (rows.length !== ids.length) throw appError('item.notFound');
        if (!rows.length) throw appError('request.invalid');
        if (rows.every((r) => r.parent_id === o.moveToId)) throw appError('move.sameFolder');
        refuseConverting(rows);
        const folders = rows.filter((r) => r.kind === 0 && r.parent_id !== o.moveToId);
        if (target) {
          const chain = await repo.ancestors(uid, target.id, t);
          if (folders.some((r) => chain.some((a) => a.id === r.id))) throw appError('move.intoItself');
          // a folder a parent loop has cut off from the top level: what went in would vanish with it
          if (!reachesRoot(chain)) throw appError('item.notFound');
        }
        await assertRoomBelow(uid, o.moveToId, await repo.folderHeight(uid, folders.map((r) => r.id), t), t);
        for (const r of rows) {
          if (r.parent_id === o.moveToId) continue;
          const name = await freeName(uid, o.moveToId, r.name, r.kind, !!o.autoRename, 'move.duplicate', undefined, t);
          await repo.update(uid, r.id, { parent_id: o.moveToId, name, modified_at: now }, t);
          moved.push(presentItem({ ...r, parent_id: o.moveToId, name, modified_at: now }, uid));
          if (r.kind === 1) {
            movedFiles.push(r.name, name);
            movedRows.push(r);
          }
        }
        return { moved, movedFiles, movedRows };
      });
      // a picture's folder decides which of two of the same name a drawing shows (a moved folder keeps what is in it together)
      await thumbnails.picturesChanged(uid, movedFiles);
      // and a moved drawing's own folder decides the same for it
      await thumbnails.afterMove(movedRows);
      return { list: moved };
    },

    /** deleteLevel 0: to the recycle bin; 1: permanently; 2: empty the recycle bin. */
    async delete(actor: Actor, o: { deleteLevel: number; fileIds: string[]; folderIds: string[] }) {
      const uid = actor.id;
      if (o.deleteLevel === 2) return service.emptyTrash(uid);
      const ids = [...new Set([...o.fileIds, ...o.folderIds])];
      if (!ids.length) throw appError('request.invalid');
      const live = await repo.findOwned(uid, ids);
      const trashed = o.deleteLevel === 1 ? await repo.findOwned(uid, ids, { deleted: true }) : [];
      if (live.length + trashed.length !== ids.length) throw appError('item.notFound');
      // a converting file, or a folder holding one, stays until its conversion ends
      refuseConverting(live);
      if (live.some((r) => r.kind === 0)) refuseConverting(await repo.subtree(uid, live.filter((r) => r.kind === 0).map((r) => r.id)));
      const now = Date.now();
      if (o.deleteLevel === 0) {
        const { released, binned } = await driveWrite(uid, async (trx) => {
          let released = 0;
          const binned: string[] = [];
          for (const r of live) {
            // a selected item inside another selected folder is already binned with it: its subtree is empty here
            const sub = await repo.subtree(uid, [r.id], {}, trx);
            if (!sub.length) continue;
            binned.push(...fileNames(sub));
            await repo.markDeleted(uid, sub.map((x) => x.id), r.id, now, trx);
            // where it is now (the first row is the root, read inside the drive write)
            await repo.update(uid, r.id, { trash_parent_id: sub[0].parent_id }, trx);
            // counted from the rows as binned, read again after marking them: a drawing published (modules/library) while
            // this ran has already left the used storage, and must not be released twice
            released += sumSize(await repo.itemsOfTrashRoots(uid, [r.id], trx));
          }
          return { released, binned };
        });
        await quota.release(uid, released);
        // pictures in the bin are not shown in drawings: those that showed them fall back to the plain thumbnail
        await thumbnails.picturesChanged(uid, binned);
        return { deleted: live.length };
      }
      // read and deleted in one drive write: nothing is created in a folder between the walk and the delete
      const { liveTree, unique } = await driveWrite(uid, async (t) => {
        const liveTree = await repo.subtree(uid, live.map((r) => r.id), {}, t);
        // permanent: live items leave quota now; trashed ones left it when they were binned
        const trashTree = trashed.length ? await repo.itemsOfTrashRoots(uid, trashed.filter((x) => x.trash_root === x.id).map((x) => x.id), t) : [];
        const all = [...liveTree, ...trashTree, ...trashed.filter((x) => x.trash_root !== x.id)];
        const unique = [...new Map(all.map((r) => [r.id, r])).values()];
        await repo.deleteRows(uid, unique.map((r) => r.id), t);
        return { liveTree, unique };
      });
      await quota.release(uid, sumSize(liveTree));
      await blobs.release(unique.filter((r) => r.kind === 1).map((r) => r.blob_md5));
      // a thumbnail drawn with their owner's pictures that no file shows now (the bytes may live on in others' files)
      await thumbnails.variants.release(unique.map((r) => r.thumbkey));
      // their version history goes with them (blob references, history storage)
      await releaseVersionsOfFiles(deps, uid, unique);
      // only live pictures were shown in drawings
      await thumbnails.picturesChanged(uid, fileNames(liveTree));
      return { deleted: ids.length };
    },

    async trashList(uid: string, kind: number) {
      const rows = await repo.trashRoots(uid, kind);
      const cutoff = TRASH_RETENTION_DAYS * 24 * 3600 * 1000;
      const list = rows.map((r) => ({ ...presentItem(r, uid), deleteTimestamp: r.deleted_at!, expireTimestamp: r.deleted_at! + cutoff }));
      return kind === 0 ? { subFolders: list, list, total: list.length } : { files: list, list, total: list.length };
    },

    async restore(actor: Actor, o: { fileIds: string[]; folderIds: string[] }) {
      const uid = actor.id;
      const ids = [...new Set([...o.fileIds, ...o.folderIds])];
      const roots = await repo.findOwned(uid, ids, { deleted: true });
      if (roots.length !== ids.length || roots.some((r) => r.trash_root !== r.id)) throw appError('item.notFound');
      const tree = await repo.itemsOfTrashRoots(uid, roots.map((r) => r.id));
      const bytes = sumSize(tree);
      await quota.reserve(uid, bytes, 'trash.restoreNoSpace');
      // restored pictures are found again (a root may come back under a new name)
      const restored = fileNames(tree);
      try {
        const names = await driveWrite(uid, async (trx) => {
          // still in the bin: a parallel restore of the same items has not brought them back already
          const still = await repo.findOwned(uid, ids, { deleted: true }, trx);
          if (still.length !== ids.length || still.some((r) => r.trash_root !== r.id)) throw appError('item.notFound');
          const names: string[] = [];
          for (const r of roots) {
            // back where it was; to the top level when that folder is gone, cut off by a loop, or now too deep for the folders coming back
            let parent = r.trash_parent_id ?? ROOT_FOLDER_ID;
            if (parent !== ROOT_FOLDER_ID && !(await repo.findOne(uid, parent, trx))) parent = ROOT_FOLDER_ID;
            const levels = folderLevels(new Set([r.id]), tree.filter((x) => x.trash_root === r.id));
            if ((await levelOf(uid, parent, trx)) + levels > MAX_FOLDER_DEPTH) parent = ROOT_FOLDER_ID;
            const name = await freeName(uid, parent, r.name, r.kind, true, 'name.duplicateFile', undefined, trx);
            await repo.restoreTrashRoot(uid, r.id, parent, name, trx);
            if (r.kind === 1) names.push(name);
          }
          return names;
        });
        restored.push(...names);
      } catch (e) {
        await quota.release(uid, bytes);
        throw e;
      }
      await thumbnails.picturesChanged(uid, restored);
      return { restored: roots.length };
    },

    async emptyTrash(uid: string) {
      const roots = [...(await repo.trashRoots(uid, 0)), ...(await repo.trashRoots(uid, 1))];
      return service.purgeTrashRoots(uid, roots.map((r) => r.id));
    },

    /** Deletes binned subtrees for good (empty bin, retention sweep). */
    async purgeTrashRoots(uid: string, rootIds: string[]) {
      const tree = await repo.itemsOfTrashRoots(uid, rootIds);
      await repo.deleteRows(uid, tree.map((r) => r.id));
      await blobs.release(tree.filter((r) => r.kind === 1).map((r) => r.blob_md5));
      await thumbnails.variants.release(tree.map((r) => r.thumbkey));
      await releaseVersionsOfFiles(deps, uid, tree);
      return { deleted: rootIds.length };
    },

    async capacity(uid: string) {
      // the state is read: bring the freeze flag up to date first (an entitlement may have ended)
      await refreshFreeze(deps.db, uid, Date.now());
      const u = await quota.usage(uid);
      return { used: u.used, total: u.total, freeze: u.freeze, usedSize: u.used, totalSize: u.total };
    },
  };
  return service;
}

export type FilesService = ReturnType<typeof createFilesService>;
