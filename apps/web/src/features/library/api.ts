import type { PublicItem, PublicMessage, PublicSort } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export type { PublicItem, PublicMessage, PublicSort };
export interface PublicPage {
  list: PublicItem[];
  total: number;
}
/** The four lists: everyone's public drawings and the spec's my public / my collection / my like. */
export type LibraryKind = 'public' | 'myPublic' | 'myCollection' | 'myLike';

const LIST_PATHS: Record<LibraryKind, string> = {
  public: '/cloud/v5/public/list',
  myPublic: '/cloud/v5/file/queryMyPublicList',
  myCollection: '/cloud/v5/file/queryMyCollectionrecordList',
  myLike: '/cloud/v5/file/queryMyLikePublicList',
};

const recentDetails = new Map<string, { at: number; p: Promise<PublicItem> }>();

/** The public library calls (paths in packages/contracts/src/library.ts). */
export const libraryApi = {
  list: (kind: LibraryKind, o: { pageNo?: number; pageSize?: number; keywords?: string; sort?: PublicSort } = {}) =>
    call<PublicPage>(LIST_PATHS[kind], { pageNo: o.pageNo ?? 1, pageSize: o.pageSize ?? 60, keywords: o.keywords || undefined, ...(kind === 'public' ? { sort: o.sort ?? 'newest' } : {}) }),
  setPrivateType: (fileIds: string[], privateType: '0' | '1', userName?: string) => call<{ count: number }>('/cloud/v5/file/setFilePrivateType', { fileIds, privateType, userName }),
  /**
   * The detail counts a browse: a page mounted twice in a row (React's strict mode, a quick remount) shares one request,
   * so one opening is one browse.
   */
  detail(fileId: string): Promise<PublicItem> {
    const hit = recentDetails.get(fileId);
    if (hit && Date.now() - hit.at < 2000) return hit.p;
    const p = call<PublicItem>('/cloud/v5/public/detail', { fileId });
    recentDetails.set(fileId, { at: Date.now(), p });
    p.catch(() => recentDetails.delete(fileId));
    return p;
  },
  like: (fileId: string, like: boolean) => call<{ isLiked: number; likeCount: number }>('/cloud/v5/public/like', { fileId, like }),
  collect: (fileId: string, collect: boolean) => call<{ isCollected: number; collectionCount: number }>('/cloud/v5/public/collect', { fileId, collect }),
  messages: (fileId: string, pageNo = 1, pageSize = 100) => call<{ list: PublicMessage[]; total: number }>('/cloud/v5/public/message/list', { fileId, pageNo, pageSize }),
  addMessage: (fileId: string, content: string) => call<PublicMessage>('/cloud/v5/public/message/add', { fileId, content }),
  deleteMessage: (messageId: string) => call<{ deleted: number }>('/cloud/v5/public/message/delete', { messageId }),
};

/** A public drawing's thumbnail for any signed-in user (the owner's thumbkey is not readable by others). */
export const publicThumbUrl = (item: { id: string; thumbkey: string }) => `/cloud/v5/public/thumb/${encodeURIComponent(item.id)}?k=${encodeURIComponent(item.thumbkey)}`;
