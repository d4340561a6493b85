import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, GroupInvitationsTable, GroupsTable } from '../../infra/db/schema.ts';

export type GroupRow = Selectable<GroupsTable>;
export type InvitationRow = Selectable<GroupInvitationsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The only place that touches `groups`, `group_members`, `group_invitations` and `group_shares`. */
export function createGroupsRepository(db: Kysely<Database>) {
  /** A group with its owner's name and member count, as seen by `uid` (its role; null when not a member). */
  const withMeta = (t: Db, uid: string) =>
    t
      .selectFrom('groups')
      .innerJoin('users as owner', 'owner.id', 'groups.owner_uid')
      .leftJoin('group_members as me', (j) => j.onRef('me.group_id', '=', 'groups.id').on('me.uid', '=', uid))
      .select((eb) => [
        'groups.id',
        'groups.name',
        'groups.introduction',
        'groups.owner_uid',
        'groups.created_at',
        'groups.modified_at',
        'owner.name as owner_name',
        'me.role as role',
        eb.selectFrom('group_members as m').whereRef('m.group_id', '=', 'groups.id').select((e) => e.fn.countAll<number>().as('n')).as('member_count'),
      ]);

  return {
    async transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>) {
      return db.transaction().execute(fn);
    },
    async countOwned(uid: string, t: Db = db): Promise<number> {
      const r = await t.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_uid', '=', uid).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insertGroup(row: GroupRow, t: Db = db) {
      await t.insertInto('groups').values(row).execute();
    },
    async updateGroup(id: string, patch: Partial<Pick<GroupRow, 'name' | 'introduction' | 'modified_at'>>) {
      await db.updateTable('groups').set(patch).where('id', '=', id).execute();
    },
    async deleteGroup(id: string, t: Db = db) {
      // members and invitations go with it (foreign keys cascade; deleted explicitly too so both dialects agree)
      await t.deleteFrom('group_shares').where('group_id', '=', id).execute();
      await t.deleteFrom('group_invitations').where('group_id', '=', id).execute();
      await t.deleteFrom('group_members').where('group_id', '=', id).execute();
      await t.deleteFrom('groups').where('id', '=', id).execute();
    },
    async findGroup(id: string, asUid: string) {
      return withMeta(db, asUid).where('groups.id', '=', id).executeTakeFirst();
    },
    /** Groups `uid` belongs to, newest membership first. */
    async listForMember(uid: string) {
      return withMeta(db, uid).where('me.uid', '=', uid).orderBy('me.joined_at', 'desc').orderBy('groups.id').execute();
    },
    async findGroupsForMember(uid: string, ids: string[]) {
      if (!ids.length) return [];
      return withMeta(db, uid).where('me.uid', '=', uid).where('groups.id', 'in', ids).execute();
    },
    async membership(groupId: string, uid: string) {
      return db.selectFrom('group_members').selectAll().where('group_id', '=', groupId).where('uid', '=', uid).executeTakeFirst();
    },
    async members(groupId: string) {
      return db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.uid')
        .select(['group_members.uid', 'group_members.role', 'group_members.joined_at', 'users.name', 'users.email'])
        .where('group_members.group_id', '=', groupId)
        // the owner first, then by joining time
        .orderBy('group_members.role', 'desc')
        .orderBy('group_members.joined_at', 'asc')
        .orderBy('group_members.uid')
        .execute();
    },
    /** Adds a member; false when they already were one. */
    async addMember(row: { group_id: string; uid: string; role: string; joined_at: number }, t: Db = db) {
      const r = await t.insertInto('group_members').values(row).onConflict((oc) => oc.columns(['group_id', 'uid']).doNothing()).executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async removeMember(groupId: string, uid: string) {
      const r = await db.deleteFrom('group_members').where('group_id', '=', groupId).where('uid', '=', uid).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async insertInvitation(row: InvitationRow) {
      await db.insertInto('group_invitations').values(row).execute();
    },
    async findInvitation(tokenHash: string) {
      return db.selectFrom('group_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async deleteExpiredInvitations(now: number) {
      await db.deleteFrom('group_invitations').where('expires_at', '<', now - 30 * 24 * 3600 * 1000).execute();
    },
    async insertGroupShares(rows: { group_id: string; share_id: string; sharer_uid: string; created_at: number }[]) {
      if (rows.length) await db.insertInto('group_shares').values(rows).execute();
    },
    /** A group's shares, newest first. */
    async groupShares(groupId: string) {
      return db.selectFrom('group_shares').selectAll().where('group_id', '=', groupId).orderBy('created_at', 'desc').orderBy('share_id').execute();
    },
    async findGroupShare(groupId: string, shareId: string) {
      return db.selectFrom('group_shares').selectAll().where('group_id', '=', groupId).where('share_id', '=', shareId).executeTakeFirst();
    },
    async deleteGroupShare(groupId: string, shareId: string) {
      await db.deleteFrom('group_shares').where('group_id', '=', groupId).where('share_id', '=', shareId).execute();
    },
    async userNames(uids: string[]) {
      if (!uids.length) return new Map<string, string>();
      const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', uids).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
