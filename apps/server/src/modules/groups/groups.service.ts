import { createHash, randomBytes } from 'node:crypto';
import { GROUP_INVITE_DAYS, type Group, type GroupInvite, type GroupInviteInfo, type GroupMember, type GroupRole } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { createUsersService } from '../users/users.service.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createGroupsRepository } from './groups.repository.ts';

const INVITE_MS = GROUP_INVITE_DAYS * 24 * 3600 * 1000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type GroupMetaRow = NonNullable<Awaited<ReturnType<ReturnType<typeof createGroupsRepository>['findGroup']>>>;

function presentGroup(r: GroupMetaRow): Group {
  return {
    groupId: r.id,
    name: r.name,
    introduction: r.introduction,
    memberCount: Number(r.member_count ?? 0),
    role: (r.role === 'owner' ? 'owner' : 'member') as GroupRole,
    ownerUid: r.owner_uid,
    ownerName: r.owner_name,
    createdAt: Number(r.created_at),
  };
}

/**
 * Groups (spec: "Groups: create, invite members, introduction, member count"). The owner is a member with role
 * 'owner'; only the owner edits, deletes, invites and removes members; a member may leave. Non-members learn
 * nothing about a group beyond 'You are not a member of this group'.
 */
export function createGroupsService(deps: AppDeps) {
  const repo = createGroupsRepository(deps.db);
  const users = createUsersService(deps);
  const membership = createMembershipService(deps);

  /** The group as `uid` sees it; refuses a non-member (or a missing group). */
  async function requireMember(uid: string, groupId: string) {
    const g = await repo.findGroup(groupId, uid);
    if (!g) throw appError('group.notFound');
    if (!g.role) throw appError('group.notMember');
    return g;
  }
  async function requireOwner(uid: string, groupId: string) {
    const g = await requireMember(uid, groupId);
    if (g.role !== 'owner') throw appError('group.ownerOnly');
    return g;
  }
  /** An invitation that exists and has not expired, with its group as `uid` sees it. */
  async function resolveInvitation(uid: string, token: string) {
    const inv = await repo.findInvitation(hashToken(token));
    if (!inv) throw appError('group.inviteInvalid');
    if (Number(inv.expires_at) <= Date.now()) throw appError('group.inviteExpired');
    const g = await repo.findGroup(inv.group_id, uid);
    if (!g) throw appError('group.inviteInvalid');
    return { inv, g };
  }
  async function fresh(uid: string, groupId: string) {
    const g = await repo.findGroup(groupId, uid);
    if (!g) throw appError('group.notFound');
    return presentGroup(g);
  }

  return {
    requireMember,
    requireOwner,

    async list(uid: string) {
      const rows = await repo.listForMember(uid);
      return { list: rows.map(presentGroup), total: rows.length };
    },

    /** A free account owns up to FREE_GROUPS groups (unlimited by default); the 'groups' right lifts it. */
    async create(uid: string, o: { name: string; introduction: string }) {
      const limit = deps.config.freeGroups;
      if (limit !== null && (await repo.countOwned(uid)) >= limit && !(await membership.may(uid, 'groups'))) throw appError('group.membersOnly', [limit]);
      const now = Date.now();
      const id = newId();
      await repo.transaction(async (trx) => {
        await repo.insertGroup({ id, name: o.name, introduction: o.introduction, owner_uid: uid, created_at: now, modified_at: now }, trx);
        await repo.addMember({ group_id: id, uid, role: 'owner', joined_at: now }, trx);
      });
      return fresh(uid, id);
    },

    async update(uid: string, o: { groupId: string; name?: string; introduction?: string }) {
      await requireOwner(uid, o.groupId);
      const patch: { name?: string; introduction?: string; modified_at: number } = { modified_at: Date.now() };
      if (o.name !== undefined) patch.name = o.name;
      if (o.introduction !== undefined) patch.introduction = o.introduction;
      await repo.updateGroup(o.groupId, patch);
      return fresh(uid, o.groupId);
    },

    /** Deletes the group with its members and invitations; `beforeDelete` cancels its group shares. */
    async remove(uid: string, groupId: string, beforeDelete?: (groupId: string) => Promise<void>) {
      await requireOwner(uid, groupId);
      if (beforeDelete) await beforeDelete(groupId);
      await repo.transaction((trx) => repo.deleteGroup(groupId, trx));
      return { deleted: 1 };
    },

    async detail(uid: string, groupId: string): Promise<{ group: Group; members: GroupMember[] }> {
      const g = await requireMember(uid, groupId);
      const members = await repo.members(groupId);
      return {
        group: presentGroup(g),
        members: members.map((m) => ({ uid: m.uid, name: m.name, email: m.email ?? '', role: m.role === 'owner' ? 'owner' : 'member', joinedAt: Number(m.joined_at) })),
      };
    },

    /** A new invitation link (owner): the token is shown once, only its hash is kept. */
    async invite(uid: string, groupId: string): Promise<GroupInvite> {
      await requireOwner(uid, groupId);
      const token = randomBytes(18).toString('base64url');
      const now = Date.now();
      await repo.deleteExpiredInvitations(now);
      await repo.insertInvitation({ token_hash: hashToken(token), group_id: groupId, created_by: uid, created_at: now, expires_at: now + INVITE_MS });
      const base = deps.config.publicUrl;
      return { token, url: `${base}/yun/group/join/${token}`, h5Url: `${base}/webH5/group/join/${token}`, expiresAt: now + INVITE_MS };
    },

    async inviteInfo(uid: string, token: string): Promise<GroupInviteInfo> {
      const { inv, g } = await resolveInvitation(uid, token);
      return {
        groupId: g.id,
        name: g.name,
        introduction: g.introduction,
        memberCount: Number(g.member_count ?? 0),
        ownerName: g.owner_name,
        expiresAt: Number(inv.expires_at),
        isMember: !!g.role,
      };
    },

    /** Joins through an invitation link; joining a group one already belongs to just answers the group. */
    async join(uid: string, token: string) {
      const { g } = await resolveInvitation(uid, token);
      if (!g.role) await repo.addMember({ group_id: g.id, uid, role: 'member', joined_at: Date.now() });
      return fresh(uid, g.id);
    },

    /** Owner adds a member by their account e-mail. */
    async addMember(uid: string, o: { groupId: string; email: string }): Promise<GroupMember> {
      await requireOwner(uid, o.groupId);
      const u = await users.repo.findByEmail(o.email.trim());
      if (!u) throw appError('group.userNotFound');
      const now = Date.now();
      const added = await repo.addMember({ group_id: o.groupId, uid: u.id, role: 'member', joined_at: now });
      if (!added) throw appError('group.alreadyMember');
      return { uid: u.id, name: u.name, email: u.email, role: 'member', joinedAt: now };
    },

    async removeMember(uid: string, o: { groupId: string; uid: string }) {
      const g = await requireOwner(uid, o.groupId);
      if (o.uid === g.owner_uid) throw appError('group.ownerCannotLeave');
      const removed = await repo.removeMember(o.groupId, o.uid);
      if (!removed) throw appError('group.notMember');
      return { removed: 1 };
    },

    async leave(uid: string, groupId: string) {
      const g = await requireMember(uid, groupId);
      if (g.role === 'owner') throw appError('group.ownerCannotLeave');
      await repo.removeMember(groupId, uid);
      return { left: 1 };
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
