import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createGroupsService } from './groups.service.ts';
import { createGroupSharesService } from './group-shares.service.ts';

/** Groups and group share (`/cloud/v5/group/...`, documented in packages/contracts/src/groups.ts). All signed in. */
export const groupsRoutes: RouteModule = async (app, { deps }) => {
  const groups = createGroupsService(deps);
  const groupShares = createGroupSharesService(deps);
  const tag = 'groups';

  defineEndpoint(app, {
    path: '/cloud/v5/group/list', tag, auth: 'user', summary: 'The groups the caller belongs to (owner or member), with member counts and introductions',
    request: c.groupListRequest, response: c.groupListResult,
    handler: (_d, { user }) => groups.list(user.id),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/create', tag, auth: 'user', summary: 'Create a group (name 1–50 characters, introduction up to 500); the caller is its owner',
    request: c.groupCreateRequest, response: c.groupSchema,
    handler: (d, { user }) => groups.create(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/update', tag, auth: 'user', summary: 'Rename a group or edit its introduction (owner only)',
    request: c.groupUpdateRequest, response: c.groupSchema,
    handler: (d, { user }) => groups.update(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/detail', tag, auth: 'user', summary: 'A group and its members (members only)',
    request: c.groupIdRequest, response: c.groupDetailResult,
    handler: (d, { user }) => groups.detail(user.id, d.groupId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/invite', tag, auth: 'user', summary: `A new invitation link (owner only), valid ${c.GROUP_INVITE_DAYS} days: a signed-in user opening it joins`,
    request: c.groupIdRequest, response: c.groupInviteResult,
    handler: (d, { user }) => groups.invite(user.id, d.groupId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/inviteInfo', tag, auth: 'user', summary: 'What an invitation link joins (group name, introduction, members, owner); invalid or expired links are refused',
    request: c.groupTokenRequest, response: c.groupInviteInfo,
    handler: (d, { user }) => groups.inviteInfo(user.id, d.token),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/join', tag, auth: 'user', summary: 'Join a group through an invitation link (already a member: answers the group)',
    request: c.groupTokenRequest, response: c.groupSchema,
    handler: (d, { user }) => groups.join(user.id, d.token),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/addMember', tag, auth: 'user', summary: 'Add a member by their account e-mail (owner only)',
    request: c.groupAddMemberRequest, response: c.groupMemberSchema,
    handler: (d, { user }) => groups.addMember(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/removeMember', tag, auth: 'user', summary: "Remove a member (owner only; the owner cannot be removed); their shares to the group are cancelled and the group's other shares re-issued (new shareIds), so share tokens they hold stop working at once",
    request: c.groupMemberRequest, response: z.object({ removed: z.number() }),
    handler: (d, { user }) => groupShares.removeMember(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/leave', tag, auth: 'user', summary: "Leave a group (members; the owner deletes the group instead); my shares to the group are cancelled and its other shares re-issued (new shareIds)",
    request: c.groupIdRequest, response: z.object({ left: z.number() }),
    handler: (d, { user }) => groupShares.leave(user.id, d.groupId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/delete', tag, auth: 'user', summary: 'Delete a group (owner only): its members, invitations and group shares go with it',
    request: c.groupIdRequest, response: z.object({ deleted: z.number() }),
    handler: (d, { user }) => groupShares.removeGroup(user.id, d.groupId),
  });

  defineEndpoint(app, {
    path: '/cloud/v5/group/share', tag, auth: 'user',
    summary: "Share own private files/folders with groups I belong to (one group share each): downloadable → canDownload, can be dumped → canSave; no group: 'Please select at least one group'; failure: 'group send fail'",
    request: c.groupShareRequest, response: c.groupShareResult,
    handler: (d, { user }) => groupShares.share(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/shares', tag, auth: 'user', summary: "A group's active shared items, newest first (members only)",
    request: c.groupIdRequest, response: c.groupSharesResult,
    handler: (d, { user }) => groupShares.list(user.id, d.groupId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/openShare', tag, auth: 'user',
    summary: 'A share token for one of the group\'s shares (members only): then share/files, share/download, file/share/copyFoldersAndFiles and the viewer, as a link recipient',
    request: c.groupOpenShareRequest, response: c.groupOpenShareResult,
    handler: (d, { user }) => groupShares.open(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/group/cancelShare', tag, auth: 'user', summary: 'Cancel a group share (the sharer or the group owner)',
    request: c.groupOpenShareRequest, response: z.object({ cancelled: z.number() }),
    handler: (d, { user }) => groupShares.cancelOne(user.id, d),
  });
};
