import type { Item } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export type { Item };
export type SortField = 'name' | 'time' | 'size';
export interface Page {
  list: Item[];
  total: number;
}

export const filesApi = {
  unionList: (o: { parentId: string; page?: number; pageSize?: number; q?: string; isGlobal?: boolean; sort?: SortField; desc?: boolean }) => call<Page>('/cloud/v5/union/list', { page: 1, pageSize: 100, ...o }),
  listTypeFiles: (o: { includeTypes?: string[]; excludeTypes?: string[]; pageNo?: number; pageSize?: number; q?: string; sort?: SortField; desc?: boolean }) => call<Page>('/cloud/v5/file/listTypeFiles', { pageNo: 1, pageSize: 100, ...o }),
  getFileInfo: (fileId: string) => call<Item>('/cloud/v5/file/getFileInfo', { fileId }),
  /** a public (library) item's info, for anyone */
  getProductItem: (fileId: string) => call<Item>('/cloud/v5/file/getProductItemById', { fileId }),
  renameFile: (fileId: string, name: string) => call<Item>('/cloud/v5/file/edit', { fileId, name }),
  renameFolder: (folderId: string, name: string) => call<Item>('/cloud/v5/folder/edit', { folderId, name }),
  createFolder: (parentId: string, name: string) => call<Item>('/cloud/v5/folder/edit', { parentId, name }),
  folderList: (parentId: string) => call<{ subFolders: { id: string; name: string; count: number }[] }>('/cloud/v5/folder/list', { parentId, page: 1, pageSize: 9999 }),
  parentPath: (folderId: string) => call<{ list: { id: string; name: string }[] }>('/cloud/v5/folder/getParentFolderPath', { folderId }),
  detectFolder: (parentId: string, name: string) => call<{ hasRepeat: boolean; folderId: string | null }>('/cloud/v5/folder/detectUpload', { parentId, name }),
  capacity: () => call<{ used: number; total: number; freeze: number }>('/cloud/v5/folder/capacity', {}),
  move: (fileIds: string[], folderIds: string[], moveToId: string) => call('/cloud/v5/union/move', { fileIds, folderIds, moveToId, autoRename: false }),
  remove: (fileIds: string[], folderIds: string[], deleteLevel: 0 | 1 | 2 = 0) => call('/cloud/v5/union/delete', { deleteLevel, fileIds, folderIds }),
  trashFiles: () => call<Page>('/cloud/v5/trash/file/list', {}),
  trashFolders: () => call<Page>('/cloud/v5/trash/folder/list', {}),
  restore: (fileIds: string[], folderIds: string[]) => call('/cloud/v5/trash/restore', { fileIds, folderIds }),
  download: (fileId: string) => call<{ signedUrl: string; name: string }>('/cloud/v5/file/download', { fileId }),
  config: () => call<{ webUploadFileSize: number; webOpenFileSize: number; aiAssistant: boolean; aiAssistantScriptUrl?: string }>('/global/v5/common/getConfParamsByType', { type: 2 }),
};

/** Same-origin file save through a temporary link (the signed URL carries Content-Disposition). */
export function saveUrl(url: string, name: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
