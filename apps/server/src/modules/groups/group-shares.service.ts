import type { GroupSharedItem, GroupOpenShareResult } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { AppError, appError } from '../../infra/http/app-error.ts';
import { createFilesService, type Actor } from '../files/files.service.ts';
import { createSharesService } from '../shares/shares.service.ts';
import { createGroupsRepository } from './groups.repository.ts';
import { createGroupsService } from './groups.service.ts';

/**
 * Group share (spec: "share with view/download/dump rights"; "Group share: at least one group"; 'group send fail').
 * A group share is a share of kind 'group' in the shares module (one per group), recorded here against the group.
 * Members open it by asking for a share token (membership checked every time) and then use the share endpoints
 * exactly like a link recipient: there is no second way to reach the files.
 * Rights: view always; downloadable → canDownload; can be dumped → canSave.
 */
export function createGroupSharesService(deps: AppDeps) {
  const repo = createGroupsRepository(deps.db);
  const groups = createGroupsService(deps);
  const shares = createSharesService(deps);
  const files = createFilesService(deps);

  /** The active share behind a group share, with its live items; undefined when it no longer exists. */
  const activeShare = (shareId: string) => shares.findActive(shareId);

  /** Cancels group shares (in the shares module) and forgets them here. */
  async function cancel(rows: { group_id: string; share_id: string }[]) {
    for (const r of rows) {
      await shares.cancelShareRecord(r.share_id);
      await repo.deleteGroupShare(r.group_id, r.share_id);
    }
  }

  /**
   * Someone left the group: their own shares to it are cancelled, and every other share of the group is re-issued
   * (a new share of the same items and rights, the old one cancelled), so share tokens the departed member still
   * holds stop working at once instead of when they expire. A share that can no longer be re-issued (its items
   * deleted or no longer private) leaves the group.
   */
  async function afterDeparture(groupId: string, uid: string) {
    const rows = await repo.groupShares(groupId);
    await cancel(rows.filter((r) => r.sharer_uid === uid));
    for (const r of rows.filter((x) => x.sharer_uid !== uid)) {
      const s = await activeShare(r.share_id);
      if (s) {
        try {
          const row = await shares.createShareRecord(r.sharer_uid, {
            fileIds: s.live.filter((i) => i.kind === 1).map((i) => i.id),
            folderIds: s.live.filter((i) => i.kind === 0).map((i) => i.id),
            kind: 'group',
            groupId,
            rights: { canDownload: s.share.can_download === 1, canSave: s.share.can_save === 1, showNotes: s.share.show_notes === 1 },
            validDays: 0,
          });
          // the group keeps showing when it was first shared
          await repo.insertGroupShares([{ group_id: groupId, share_id: row.id, sharer_uid: r.sharer_uid, created_at: Number(r.created_at) }]);
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
        }
      }
      await cancel([r]);
    }
  }

  return {
    async share(actor: Actor, o: { groupIds: string[]; fileIds: string[]; folderIds: string[]; canDownload: boolean; canDump: boolean }) {
      const groupIds = [...new Set(o.groupIds)];
      if (!groupIds.length) throw appError('group.selectOne');
      files.assertNotFrozen(actor);
      for (const g of groupIds) await groups.requireMember(actor.id, g);
      const created: { group_id: string; share_id: string; sharer_uid: string; created_at: number }[] = [];
      try {
        for (const groupId of groupIds) {
          const row = await shares.createShareRecord(actor.id, {
            fileIds: o.fileIds,
            folderIds: o.folderIds,
            kind: 'group',
            groupId,
            rights: { canDownload: o.canDownload, canSave: o.canDump, showNotes: false },
            validDays: 0,
          });
          created.push({ group_id: groupId, share_id: row.id, sharer_uid: actor.id, created_at: Number(row.created_at) });
        }
        await repo.insertGroupShares(created);
      } catch (e) {
        for (const c of created) await shares.cancelShareRecord(c.share_id);
        // "Non-private items cannot be shared again" keeps its own message; every other failure is 'group send fail'
        if (e instanceof AppError && (e.code === 'share.notPrivate' || e.code === 'account.frozen')) throw e;
        throw appError('group.sendFail');
      }
      return { shared: created.length };
    },

    /** The group's active shares (members only), newest first. Cancelled, expired or emptied shares are left out. */
    async list(uid: string, groupId: string): Promise<{ list: GroupSharedItem[]; total: number }> {
      const g = await groups.requireMember(uid, groupId);
      const rows = await repo.groupShares(groupId);
      const names = await repo.userNames([...new Set(rows.map((r) => r.sharer_uid))]);
      const list: GroupSharedItem[] = [];
      for (const r of rows) {
        const s = await activeShare(r.share_id);
        if (!s) continue;
        const p = shares.present(s.share, s.live, deps.config.publicUrl);
        list.push({
          shareId: r.share_id,
          groupId,
          sharerUid: r.sharer_uid,
          sharerName: names.get(r.sharer_uid) ?? '',
          shareTime: Number(r.created_at),
          rights: p.rights,
          canCancel: r.sharer_uid === uid || g.role === 'owner',
          items: p.items,
        });
      }
      return { list, total: list.length };
    },

    /**
     * A share token for a member (as extraction gives a link recipient), bound to that member: it works only with
     * their session, and only while they are a member.
     */
    async open(uid: string, o: { groupId: string; shareId: string }): Promise<GroupOpenShareResult> {
      await groups.requireMember(uid, o.groupId);
      if (!(await repo.findGroupShare(o.groupId, o.shareId))) throw appError('group.shareNotFound');
      // a share that no longer exists answers 'This share no longer exists' with its reason
      const token = await shares.issueShareToken(o.shareId, uid);
      const share = (await shares.findActive(o.shareId))!.share;
      return { shareToken: token, rights: { canView: true, canDownload: share.can_download === 1, canSave: share.can_save === 1, showNotes: share.show_notes === 1 } };
    },

    /** The sharer or the group owner cancels a group share. */
    async cancelOne(uid: string, o: { groupId: string; shareId: string }) {
      const g = await groups.requireMember(uid, o.groupId);
      const gs = await repo.findGroupShare(o.groupId, o.shareId);
      if (!gs) throw appError('group.shareNotFound');
      if (gs.sharer_uid !== uid && g.role !== 'owner') throw appError('group.ownerOnly');
      await cancel([gs]);
      return { cancelled: 1 };
    },

    /** Deleting a group cancels every share sent to it. */
    async removeGroup(uid: string, groupId: string) {
      return groups.remove(uid, groupId, async () => cancel(await repo.groupShares(groupId)));
    },

    /** A member who leaves or is removed takes their shares out of the group and loses access at once. */
    async leave(uid: string, groupId: string) {
      const r = await groups.leave(uid, groupId);
      await afterDeparture(groupId, uid);
      return r;
    },
    async removeMember(uid: string, o: { groupId: string; uid: string }) {
      const r = await groups.removeMember(uid, o);
      await afterDeparture(o.groupId, o.uid);
      return r;
    },
  };
}
