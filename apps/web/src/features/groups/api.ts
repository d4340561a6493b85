import type { z } from 'zod';
import type { Group, GroupDetail, GroupInvite, GroupInviteInfo, GroupListResult, GroupMember, GroupOpenShareResult, GroupSharedItem, Item, shareFilesResult, shareDownloadResult } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export type { Group, GroupDetail, GroupInvite, GroupInviteInfo, GroupMember, GroupOpenShareResult, GroupSharedItem, Item };
export type ShareFiles = z.infer<typeof shareFilesResult>;
export type ShareDownload = z.infer<typeof shareDownloadResult>;

/** The group API (packages/contracts/src/groups.ts); a group's shared items are then reached as a link recipient. */
export const groupsApi = {
  list: () => call<GroupListResult>('/cloud/v5/group/list', {}),
  create: (name: string, introduction: string) => call<Group>('/cloud/v5/group/create', { name, introduction }),
  update: (groupId: string, o: { name?: string; introduction?: string }) => call<Group>('/cloud/v5/group/update', { groupId, ...o }),
  remove: (groupId: string) => call<{ deleted: number }>('/cloud/v5/group/delete', { groupId }),
  detail: (groupId: string) => call<GroupDetail>('/cloud/v5/group/detail', { groupId }),
  invite: (groupId: string) => call<GroupInvite>('/cloud/v5/group/invite', { groupId }),
  inviteInfo: (token: string) => call<GroupInviteInfo>('/cloud/v5/group/inviteInfo', { token }),
  join: (token: string) => call<Group>('/cloud/v5/group/join', { token }),
  addMember: (groupId: string, email: string) => call<GroupMember>('/cloud/v5/group/addMember', { groupId, email }),
  removeMember: (groupId: string, uid: string) => call<{ removed: number }>('/cloud/v5/group/removeMember', { groupId, uid }),
  leave: (groupId: string) => call<{ left: number }>('/cloud/v5/group/leave', { groupId }),
  shares: (groupId: string) => call<{ list: GroupSharedItem[]; total: number }>('/cloud/v5/group/shares', { groupId }),
  openShare: (groupId: string, shareId: string) => call<GroupOpenShareResult>('/cloud/v5/group/openShare', { groupId, shareId }),
  cancelShare: (groupId: string, shareId: string) => call<{ cancelled: number }>('/cloud/v5/group/cancelShare', { groupId, shareId }),

  // with the share token of openShare: the share endpoints, as a link recipient
  files: (shareToken: string, folderId?: string) => call<ShareFiles>('/cloud/v5/share/files', { shareToken, ...(folderId ? { folderId } : {}) }),
  download: (shareToken: string, fileId: string) => call<ShareDownload>('/cloud/v5/share/download', { shareToken, fileId }),
  item: (shareToken: string, fileId: string) => call<Item>('/cloud/v5/file/getProductItemById', { shareToken, fileId }),
  save: (shareToken: string, fileIds: string[], folderIds: string[], targetFolderId = '0') => call<{ copied: number }>('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken, fileIds, folderIds, targetFolderId }),
};

/** Drawings the viewer opens. */
export const VIEWABLE = ['dwg', 'dxf', 'dwt', 'dws'];

export { groupPathIn, groupsBase } from './paths.ts';
