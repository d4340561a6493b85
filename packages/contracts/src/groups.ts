import { z } from 'zod';
import { shareRightsSchema } from './shares.ts';

/**
 * Groups and group share (spec sections 1–5: "Group: members count, introduction"; "Group share rights: can view,
 * downloadable, can be dumped"; "Group share: at least one group"; 'group send fail'). The spec shows no group paths,
 * so these are ours, in the `/cloud/v5/group/...` family (all signed in):
 *
 *   POST /cloud/v5/group/list          {} → groupListResult                        (the groups the caller belongs to)
 *   POST /cloud/v5/group/create        groupCreateRequest → groupSchema            (the caller becomes the owner)
 *   POST /cloud/v5/group/update        groupUpdateRequest → groupSchema            (owner: name and introduction)
 *   POST /cloud/v5/group/delete        groupIdRequest → { deleted }                (owner; its group shares are cancelled)
 *   POST /cloud/v5/group/detail        groupIdRequest → groupDetailResult          (members only: the group and its members)
 *   POST /cloud/v5/group/invite        groupIdRequest → groupInviteResult          (owner: a link with a token, valid 7 days)
 *   POST /cloud/v5/group/inviteInfo    groupTokenRequest → groupInviteInfo         (signed in: what the link joins)
 *   POST /cloud/v5/group/join          groupTokenRequest → groupSchema             (signed in: joins as a member)
 *   POST /cloud/v5/group/addMember     groupAddMemberRequest → groupMemberSchema   (owner: by the account's e-mail)
 *   POST /cloud/v5/group/removeMember  groupMemberRequest → { removed }            (owner; not the owner themself)
 *   POST /cloud/v5/group/leave         groupIdRequest → { left }                   (member; the owner deletes instead)
 *   POST /cloud/v5/group/share         groupShareRequest → { shared }              (own private items to groups I belong to)
 *   POST /cloud/v5/group/shares        groupIdRequest → groupSharesResult          (members only: the group's shared items)
 *   POST /cloud/v5/group/openShare     groupOpenShareRequest → groupOpenShareResult (members only: a share token)
 *   POST /cloud/v5/group/cancelShare   groupOpenShareRequest → { cancelled }       (the sharer or the group owner)
 *
 * A member opening a group's shared item gets a share token (openShare) and then uses the share endpoints
 * (`share/files`, `share/download`, `file/share/copyFoldersAndFiles`, the viewer with shareToken) like a link recipient.
 * Rights: view always; downloadable → canDownload; can be dumped → canSave.
 */

export const GROUP_NAME_MAX = 50;
export const GROUP_INTRO_MAX = 500;
/** An invitation link is valid this long. */
export const GROUP_INVITE_DAYS = 7;
export const GROUP_ROLES = ['owner', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

const id = z.string().min(1).max(64);
const ids = z.array(id).max(10_000).default([]);
const flag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => v === true || v === 1 || v === '1' || v === 'true');
const groupName = z.string().trim().min(1, 'Group name is required').max(GROUP_NAME_MAX);
const introduction = z.string().trim().max(GROUP_INTRO_MAX);

export const groupSchema = z.object({
  groupId: z.string(),
  name: z.string(),
  introduction: z.string(),
  memberCount: z.number(),
  role: z.enum(GROUP_ROLES).describe("the caller's role"),
  ownerUid: z.string(),
  ownerName: z.string(),
  createdAt: z.number().describe('epoch ms'),
});
export type Group = z.infer<typeof groupSchema>;

export const groupMemberSchema = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string().describe("'' when unknown"),
  role: z.enum(GROUP_ROLES),
  joinedAt: z.number().describe('epoch ms'),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;

export const groupListRequest = z.object({ ctoken: z.any().optional() }).passthrough();
export const groupListResult = z.object({ list: z.array(groupSchema), total: z.number() });
export type GroupListResult = z.infer<typeof groupListResult>;

export const groupCreateRequest = z.object({ name: groupName, introduction: introduction.default('') });
export const groupUpdateRequest = z.object({ groupId: id, name: groupName.optional(), introduction: introduction.optional() });
export const groupIdRequest = z.object({ groupId: id });
export const groupDetailResult = z.object({ group: groupSchema, members: z.array(groupMemberSchema) });
export type GroupDetail = z.infer<typeof groupDetailResult>;

export const groupInviteResult = z.object({
  token: z.string(),
  url: z.string().describe('absolute /yun/group/join/{token} address to copy'),
  h5Url: z.string().describe('/webH5/group/join/{token}'),
  expiresAt: z.number().describe('epoch ms'),
});
export type GroupInvite = z.infer<typeof groupInviteResult>;
export const groupTokenRequest = z.object({ token: z.string().min(1).max(128) });
export const groupInviteInfo = z.object({
  groupId: z.string(),
  name: z.string(),
  introduction: z.string(),
  memberCount: z.number(),
  ownerName: z.string(),
  expiresAt: z.number(),
  isMember: z.boolean().describe('the caller already belongs to it'),
});
export type GroupInviteInfo = z.infer<typeof groupInviteInfo>;
export const groupAddMemberRequest = z.object({ groupId: id, email: z.string().trim().min(1).max(320) });
export const groupMemberRequest = z.object({ groupId: id, uid: id });

export const groupShareRequest = z.object({
  groupIds: z.array(id).max(1000).default([]).describe("at least one ('Please select at least one group')"),
  fileIds: ids,
  folderIds: ids,
  canDownload: flag.describe('downloadable'),
  canDump: flag.describe('can be dumped (saved to the member\'s own cloud)'),
});
export type GroupShareRequest = z.input<typeof groupShareRequest>;
export const groupShareResult = z.object({ shared: z.number().describe('group shares created (one per group)') });

export const groupSharedItemSchema = z.object({
  shareId: z.string(),
  groupId: z.string(),
  sharerUid: z.string(),
  sharerName: z.string(),
  shareTime: z.number().describe('epoch ms'),
  rights: shareRightsSchema,
  canCancel: z.boolean().describe('the caller is the sharer or the group owner'),
  items: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), fileType: z.number(), size: z.number() })),
});
export type GroupSharedItem = z.infer<typeof groupSharedItemSchema>;
export const groupSharesResult = z.object({ list: z.array(groupSharedItemSchema), total: z.number() });
export const groupOpenShareRequest = z.object({ groupId: id, shareId: id });
export const groupOpenShareResult = z.object({ shareToken: z.string(), rights: shareRightsSchema });
export type GroupOpenShareResult = z.infer<typeof groupOpenShareResult>;
