import { PUBLIC_MESSAGE_MAX, isPublishableName, type PublicSort } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { presentItem } from '../files/items.presenter.ts';
import { createLibraryRepository, type Mark, type PublicRow } from './library.repository.ts';

export interface LibraryActor {
  id: string;
}

/** A public item as the spec's clients read it (section 3), as seen by `viewer`. */
export function presentPublicItem(r: PublicRow, viewer: string) {
  return {
    ...presentItem(r, viewer),
    browseCount: Number(r.browse_count),
    likeCount: Number(r.like_count),
    collectionCount: Number(r.collection_count),
    leaveMessageCount: Number(r.leave_message_count),
    totalMessageCount: Number(r.leave_message_count),
    isLiked: r.liked_by ? 1 : 0,
    isCollected: r.collected_by ? 1 : 0,
    publishTimestamp: Number(r.published_at ?? 0),
    ownerName: r.owner_name,
    isOwner: r.uid === viewer ? 1 : 0,
  };
}

/**
 * The public library (spec sections 3, 4, 5, 7): publishing and unpublishing with the storage rules, the lists,
 * browse counts, likes, collections and messages.
 */
export function createLibraryService(deps: Pick<AppDeps, 'db'>) {
  const repo = createLibraryRepository(deps.db);
  const paging = (o: { pageNo: number; pageSize: number }) => ({ offset: (o.pageNo - 1) * o.pageSize, limit: o.pageSize });
  const presentPage = (viewer: string, p: { rows: PublicRow[]; total: number }) => ({ list: p.rows.map((r) => presentPublicItem(r, viewer)), total: p.total });

  /**
   * setFilePrivateType: '0' publishes, '1' makes private again, every file of the batch or none. Publishing needs the
   * caller's own live, private, non-folder drawing (section 4, 5); its size leaves the used storage in the same
   * transaction. Unpublishing needs a public one and counts its size again, even past the total: the account is
   * then frozen (section 4) until space is freed — refusing would leave a drawing public that its owner wants hidden.
   */
  async function setPrivateType(actor: LibraryActor, o: { fileIds: string[]; privateType: '0' | '1' }) {
    const ids = [...new Set(o.fileIds)];
    const from = o.privateType === '0' ? '1' : '0';
    const now = Date.now();
    const changed = await repo.db.transaction().execute(async (trx) => {
      const rows = await repo.ownedLive(actor.id, ids, trx);
      if (rows.length !== ids.length) throw appError('item.notFound');
      for (const r of rows) {
        if (r.kind !== 1 || !isPublishableName(r.name)) throw appError('library.notDrawing');
        if (r.private_type !== from) throw appError(o.privateType === '0' ? 'library.notPrivate' : 'library.notPublic');
      }
      let bytes = 0;
      const out = [];
      for (const r of rows) {
        if (!(await repo.flipVisibility(actor.id, r.id, from, now, trx))) throw appError(o.privateType === '0' ? 'library.notPrivate' : 'library.notPublic');
        bytes += Number(r.size);
        out.push({ ...r, private_type: o.privateType, published_at: o.privateType === '0' ? now : null });
      }
      await repo.adjustStorage(actor.id, o.privateType === '0' ? -bytes : bytes, trx);
      return out;
    });
    return { list: changed.map((r) => presentItem(r, actor.id)), count: changed.length };
  }

  /** Like or collect (`on` true), undo it (false), or toggle (undefined); one transaction, exact counters. */
  async function mark(actor: LibraryActor, kind: Mark, fileId: string, on: boolean | undefined) {
    return repo.db.transaction().execute(async (trx) => {
      const file = await repo.findPublicFile(fileId, trx);
      if (!file) throw appError('item.notFound');
      const want = on ?? !(await repo.hasMark(kind, fileId, actor.id, trx));
      const moved = want ? await repo.addMark(kind, fileId, actor.id, trx) : await repo.removeMark(kind, fileId, actor.id, trx);
      // the owner's cached drive lists show the counters too
      if (moved) await repo.bumpRev(file.uid, trx);
      const c = await repo.counters(fileId, trx);
      return { on: want, likeCount: Number(c.like_count), collectionCount: Number(c.collection_count) };
    });
  }

  return {
    repo,
    setPrivateType,

    async listPublic(viewer: string, o: { pageNo: number; pageSize: number; keywords?: string; sort: PublicSort }) {
      return presentPage(viewer, await repo.listPublic(viewer, { ...paging(o), keywords: o.keywords, sort: o.sort }));
    },
    async listMine(viewer: string, o: { pageNo: number; pageSize: number; keywords?: string }) {
      return presentPage(viewer, await repo.listMine(viewer, { ...paging(o), keywords: o.keywords }));
    },
    async listLiked(viewer: string, o: { pageNo: number; pageSize: number; keywords?: string }) {
      return presentPage(viewer, await repo.listMarked(viewer, 'likes', { ...paging(o), keywords: o.keywords }));
    },
    async listCollected(viewer: string, o: { pageNo: number; pageSize: number; keywords?: string }) {
      return presentPage(viewer, await repo.listMarked(viewer, 'collections', { ...paging(o), keywords: o.keywords }));
    },

    /** One public drawing; opening its detail counts one browse (anyone signed in, the owner too). */
    async detail(viewer: string, fileId: string) {
      if (!(await repo.countBrowse(fileId))) throw appError('item.notFound');
      const row = await repo.findPublic(viewer, fileId);
      if (!row) throw appError('item.notFound');
      return presentPublicItem(row, viewer);
    },

    async like(actor: LibraryActor, fileId: string, on?: boolean) {
      const r = await mark(actor, 'likes', fileId, on);
      return { isLiked: r.on ? 1 : 0, likeCount: r.likeCount };
    },
    async collect(actor: LibraryActor, fileId: string, on?: boolean) {
      const r = await mark(actor, 'collections', fileId, on);
      return { isCollected: r.on ? 1 : 0, collectionCount: r.collectionCount };
    },

    async addMessage(actor: LibraryActor, fileId: string, raw: string) {
      const content = raw.trim();
      if (!content) throw appError('library.messageEmpty');
      if ([...content].length > PUBLIC_MESSAGE_MAX) throw appError('library.messageTooLong', [PUBLIC_MESSAGE_MAX]);
      const row = { id: newId(), file_id: fileId, uid: actor.id, content, created_at: Date.now() };
      const userName = await repo.db.transaction().execute(async (trx) => {
        if (!(await repo.findPublicFile(fileId, trx))) throw appError('item.notFound');
        await repo.addMessage(row, trx);
        return repo.userName(actor.id, trx);
      });
      return { id: row.id, fileId, uid: actor.id, userName, content, createTimestamp: row.created_at, isMine: 1 };
    },

    async listMessages(viewer: string, o: { fileId: string; pageNo: number; pageSize: number }) {
      if (!(await repo.findPublicFile(o.fileId))) throw appError('item.notFound');
      const p = await repo.listMessages(o.fileId, paging(o));
      return {
        list: p.rows.map((m) => ({ id: m.id, fileId: m.file_id, uid: m.uid, userName: m.user_name, content: m.content, createTimestamp: Number(m.created_at), isMine: m.uid === viewer ? 1 : 0 })),
        total: p.total,
      };
    },

    /** Only the writer deletes a message; someone else's id is "not found". */
    async deleteMessage(actor: LibraryActor, messageId: string) {
      const ok = await repo.db.transaction().execute((trx) => repo.deleteOwnMessage(actor.id, messageId, trx));
      if (!ok) throw appError('item.notFound');
      return { deleted: 1 };
    },
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;
