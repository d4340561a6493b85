import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';

type User = { id: string; email: string; token: string };
const OK = '0000000';

for (const driver of testDatabaseDrivers()) {
  describe(`groups on ${driver.name}`, () => {
    let t: TestApp;
    let a: User; // owner
    let b: User; // member
    let c: User; // outsider
    const call = (p: string, data: unknown, u?: User, lang?: string) => t.call(`/cloud/v5/group/${p}`, data, u?.token, lang);

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
      c = await t.createUser();
    });
    afterAll(async () => t?.close());

    it('documents every group endpoint in /api/docs, each refusing the unsigned', async () => {
      const r = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(r.statusCode).toBe(200);
      const doc = r.json();
      for (const p of ['list', 'create', 'update', 'delete', 'detail', 'invite', 'inviteInfo', 'join', 'addMember', 'removeMember', 'leave', 'share', 'shares', 'openShare', 'cancelShare']) {
        expect(doc.paths[`/cloud/v5/group/${p}`], p).toBeTruthy();
        expect((await call(p, {})).rtnCode, p).toBe('101');
      }
      expect(JSON.stringify(doc.paths['/cloud/v5/group/share'])).toContain('canDump');
    });

    it('creates a group whose owner is its first member, lists it with member count and introduction', async () => {
      const r = await call('create', { name: '  Structure team ', introduction: 'Drawings of tower B' }, a);
      expect(r.rtnCode).toBe(OK);
      expect(r.bizData).toMatchObject({ name: 'Structure team', introduction: 'Drawings of tower B', memberCount: 1, role: 'owner', ownerUid: a.id });
      const l = await call('list', {}, a);
      expect(l.bizData.total).toBe(1);
      expect(l.bizData.list[0]).toMatchObject({ groupId: r.bizData.groupId, memberCount: 1, role: 'owner', introduction: 'Drawings of tower B' });
      expect(typeof l.bizData.list[0].createdAt).toBe('number');
      // others do not see it
      expect((await call('list', {}, c)).bizData).toEqual({ list: [], total: 0 });
    });

    it('refuses an empty or too long name and a too long introduction', async () => {
      expect((await call('create', { name: '   ' }, a)).rtnCode).toBe('1000001');
      expect((await call('create', { name: 'x'.repeat(51) }, a)).rtnCode).toBe('1000001');
      expect((await call('create', { name: 'ok', introduction: 'x'.repeat(501) }, a)).rtnCode).toBe('1000001');
    });

    it('invitation link: the owner makes it, a signed-in user opening it sees the group and joins', async () => {
      const g = (await call('create', { name: 'Invite me' }, a)).bizData;
      const inv = await call('invite', { groupId: g.groupId }, a);
      expect(inv.rtnCode).toBe(OK);
      expect(inv.bizData.url).toMatch(new RegExp(`/yun/group/join/${inv.bizData.token}$`));
      expect(inv.bizData.h5Url).toMatch(new RegExp(`/webH5/group/join/${inv.bizData.token}$`));
      expect(inv.bizData.expiresAt).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
      // the token itself is not stored
      const stored = await t.db.db.selectFrom('group_invitations').selectAll().where('group_id', '=', g.groupId).execute();
      expect(stored.map((s) => s.token_hash)).toEqual([createHash('sha256').update(inv.bizData.token).digest('hex')]);

      const info = await call('inviteInfo', { token: inv.bizData.token }, b);
      expect(info.bizData).toMatchObject({ groupId: g.groupId, name: 'Invite me', memberCount: 1, isMember: false });
      const j = await call('join', { token: inv.bizData.token }, b);
      expect(j.bizData).toMatchObject({ groupId: g.groupId, role: 'member', memberCount: 2 });
      // joining again is harmless
      expect((await call('join', { token: inv.bizData.token }, b)).bizData.memberCount).toBe(2);
      expect((await call('inviteInfo', { token: inv.bizData.token }, b)).bizData.isMember).toBe(true);
      const l = (await call('list', {}, b)).bizData;
      expect(l.list.map((x: any) => [x.groupId, x.role])).toEqual([[g.groupId, 'member']]);
      expect((await call('list', {}, a)).bizData.list.find((x: any) => x.groupId === g.groupId).memberCount).toBe(2);
      // not signed in: cannot join
      expect((await call('join', { token: inv.bizData.token })).rtnCode).toBe('101');
    });

    it('invitation misuse: unknown token, expired token, a member cannot invite', async () => {
      const g = (await call('create', { name: 'Expiry' }, a)).bizData;
      const bad = await call('join', { token: 'not-a-real-token' }, c);
      expect(bad.bizData.code).toBe('group.inviteInvalid');
      expect(bad.msg).toBe('The invitation link is invalid');
      const inv = (await call('invite', { groupId: g.groupId }, a)).bizData;
      await t.db.db.updateTable('group_invitations').set({ expires_at: Date.now() - 1 }).where('group_id', '=', g.groupId).execute();
      const exp = await call('join', { token: inv.token }, c);
      expect(exp.bizData.code).toBe('group.inviteExpired');
      expect((await call('inviteInfo', { token: inv.token }, c)).bizData.code).toBe('group.inviteExpired');
      expect((await call('detail', { groupId: g.groupId }, c)).bizData.code).toBe('group.notMember');
      // b joins with a fresh link, then cannot invite others
      const inv2 = (await call('invite', { groupId: g.groupId }, a)).bizData;
      expect((await call('join', { token: inv2.token }, b)).rtnCode).toBe(OK);
      expect((await call('invite', { groupId: g.groupId }, b)).bizData.code).toBe('group.ownerOnly');
      expect((await call('invite', { groupId: g.groupId }, c)).bizData.code).toBe('group.notMember');
      // a deleted group's link no longer works
      expect((await call('delete', { groupId: g.groupId }, a)).rtnCode).toBe(OK);
      expect((await call('join', { token: inv2.token }, c)).bizData.code).toBe('group.inviteInvalid');
    });

    it('detail with members is for members only; owner edits, members cannot', async () => {
      const g = (await call('create', { name: 'Rules', introduction: 'v1' }, a)).bizData;
      const inv = (await call('invite', { groupId: g.groupId }, a)).bizData;
      await call('join', { token: inv.token }, b);

      const d = await call('detail', { groupId: g.groupId }, b);
      expect(d.rtnCode).toBe(OK);
      expect(d.bizData.group).toMatchObject({ groupId: g.groupId, memberCount: 2, role: 'member' });
      expect(d.bizData.members.map((m: any) => [m.uid, m.role])).toEqual([[a.id, 'owner'], [b.id, 'member']]);
      expect(d.bizData.members[1].email).toBe(b.email);

      const nd = await call('detail', { groupId: g.groupId }, c);
      expect(nd.bizData.code).toBe('group.notMember');
      expect(nd.msg).toBe('You are not a member of this group');
      expect((await call('detail', { groupId: 'no-such-group' }, a)).bizData.code).toBe('group.notFound');

      const up = await call('update', { groupId: g.groupId, name: 'Rules 2', introduction: 'v2' }, a);
      expect(up.bizData).toMatchObject({ name: 'Rules 2', introduction: 'v2', memberCount: 2 });
      // only the introduction
      expect((await call('update', { groupId: g.groupId, introduction: '' }, a)).bizData).toMatchObject({ name: 'Rules 2', introduction: '' });
      const mu = await call('update', { groupId: g.groupId, name: 'Hijack' }, b);
      expect(mu.bizData.code).toBe('group.ownerOnly');
      expect(mu.msg).toBe('Only the group owner can do this');
      expect((await call('update', { groupId: g.groupId, name: 'Hijack' }, c)).bizData.code).toBe('group.notMember');
      expect((await call('delete', { groupId: g.groupId }, b)).bizData.code).toBe('group.ownerOnly');
      expect((await call('delete', { groupId: g.groupId }, c)).bizData.code).toBe('group.notMember');
      expect((await call('detail', { groupId: g.groupId }, a)).bizData.group.name).toBe('Rules 2');
    });

    it('add by e-mail, remove member (owner only), leave (members only), delete', async () => {
      const g = (await call('create', { name: 'Members' }, a)).bizData;
      const add = await call('addMember', { groupId: g.groupId, email: b.email.toUpperCase() }, a);
      expect(add.rtnCode).toBe(OK);
      expect(add.bizData).toMatchObject({ uid: b.id, role: 'member' });
      expect((await call('addMember', { groupId: g.groupId, email: b.email }, a)).bizData.code).toBe('group.alreadyMember');
      expect((await call('addMember', { groupId: g.groupId, email: 'nobody@nowhere.example' }, a)).bizData.code).toBe('group.userNotFound');
      expect((await call('addMember', { groupId: g.groupId, email: c.email }, b)).bizData.code).toBe('group.ownerOnly');
      await call('addMember', { groupId: g.groupId, email: c.email }, a);
      expect((await call('detail', { groupId: g.groupId }, a)).bizData.group.memberCount).toBe(3);

      // a member cannot remove others, nor the owner
      expect((await call('removeMember', { groupId: g.groupId, uid: c.id }, b)).bizData.code).toBe('group.ownerOnly');
      expect((await call('removeMember', { groupId: g.groupId, uid: a.id }, a)).bizData.code).toBe('group.ownerCannotLeave');
      expect((await call('removeMember', { groupId: g.groupId, uid: c.id }, a)).bizData).toEqual({ removed: 1 });
      expect((await call('detail', { groupId: g.groupId }, c)).bizData.code).toBe('group.notMember');
      expect((await call('removeMember', { groupId: g.groupId, uid: c.id }, a)).bizData.code).toBe('group.notMember');

      // the owner cannot leave; a member can
      expect((await call('leave', { groupId: g.groupId }, a)).bizData.code).toBe('group.ownerCannotLeave');
      expect((await call('leave', { groupId: g.groupId }, c)).bizData.code).toBe('group.notMember');
      expect((await call('leave', { groupId: g.groupId }, b)).bizData).toEqual({ left: 1 });
      expect((await call('list', {}, b)).bizData.list.some((x: any) => x.groupId === g.groupId)).toBe(false);
      expect((await call('detail', { groupId: g.groupId }, a)).bizData.group.memberCount).toBe(1);

      expect((await call('delete', { groupId: g.groupId }, a)).bizData).toEqual({ deleted: 1 });
      expect((await call('detail', { groupId: g.groupId }, a)).bizData.code).toBe('group.notFound');
      expect(await t.db.db.selectFrom('group_members').selectAll().where('group_id', '=', g.groupId).execute()).toEqual([]);
    });

    it('messages in the caller\'s language', async () => {
      const r = await call('detail', { groupId: 'nope' }, a, 'zh');
      expect(r.msg).toBe('群组不存在');
    });
  });
}
