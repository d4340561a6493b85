import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';

type User = { id: string; email: string; token: string };
const OK = '0000000';

const drawing = (label: string) =>
  Buffer.from(
    writeAsciiDxf({
      layers: ['0', 'Walls'],
      entities: [
        { type: 'LINE', pairs: [[8, 'Walls'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
        { type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 80], [40, 5], [1, label]] },
      ],
    }),
  );

for (const driver of testDatabaseDrivers()) {
  describe(`group share on ${driver.name}`, () => {
    let t: TestApp;
    let a: User; // owner, sharer
    let b: User; // member
    let m: User; // another member
    let c: User; // outsider
    let groupId: string;
    let otherGroupId: string;
    const call = (p: string, data: unknown, u?: User, lang?: string) => t.call(`/cloud/v5/${p}`, data, u?.token, lang);
    const scene = (fileId: string, shareToken: string, u?: User) =>
      t.app.inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${fileId}&shareToken=${encodeURIComponent(shareToken)}${u ? `&utoken=${encodeURIComponent(u.token)}` : ''}` });
    const upload = async (u: User, name: string, body = drawing(name)) => {
      const r = await t.upload(u.token, name, body);
      expect(r.rtnCode, name).toBe(OK);
      return r.bizData.id as string;
    };
    /** The group's shared items as `u` sees them. */
    const sharesOf = async (u: User, g = groupId) => (await call('group/shares', { groupId: g }, u)).bizData;
    const shareIdOf = async (fileId: string, g = groupId) => (await sharesOf(a, g)).list.find((s: any) => s.items.some((i: any) => i.id === fileId))?.shareId as string;

    beforeAll(async () => {
      t = await createTestApp(driver);
      [a, b, m, c] = [await t.createUser(), await t.createUser(), await t.createUser(), await t.createUser()];
      groupId = (await call('group/create', { name: 'Site team', introduction: 'tower B' }, a)).bizData.groupId;
      otherGroupId = (await call('group/create', { name: 'Second' }, a)).bizData.groupId;
      for (const u of [b, m]) expect((await call('group/addMember', { groupId, email: u.email }, a)).rtnCode).toBe(OK);
    });
    afterAll(async () => t?.close());

    it("needs at least one group ('Please select at least one group')", async () => {
      const f = await upload(a, 'nogroup.dxf');
      for (const groupIds of [[], undefined]) {
        const r = await call('group/share', { groupIds, fileIds: [f] }, a);
        expect(r.bizData.code).toBe('group.selectOne');
        expect(r.msg).toBe('Please select at least one group');
      }
      expect((await call('group/share', { groupIds: [], fileIds: [f] }, a, 'zh')).msg).toBe('请至少选择一个群组');
    });

    it("refuses someone else's file, nothing to share, and a group the sharer is not in ('group send fail')", async () => {
      const bs = await upload(b, 'bs-own.dxf');
      const r = await call('group/share', { groupIds: [groupId], fileIds: [bs] }, a);
      expect(r.bizData.code).toBe('group.sendFail');
      expect(r.msg).toBe('group send fail');
      expect((await call('group/share', { groupIds: [groupId], fileIds: [] }, a)).bizData.code).toBe('group.sendFail');
      // a group c is not in
      const cs = await upload(c, 'cs.dxf');
      expect((await call('group/share', { groupIds: [groupId], fileIds: [cs] }, c)).bizData.code).toBe('group.notMember');
      // one bad group of two: nothing is shared at all
      const f = await upload(a, 'half.dxf');
      expect((await call('group/share', { groupIds: [groupId, 'no-such-group'], fileIds: [f] }, a)).bizData.code).toBe('group.notFound');
      expect((await sharesOf(a)).list.some((s: any) => s.items.some((i: any) => i.id === f || i.id === bs))).toBe(false);
      // a's own file shared to two groups fails as a whole when one item is not a's
      expect((await call('group/share', { groupIds: [groupId, otherGroupId], fileIds: [f, bs] }, a)).bizData.code).toBe('group.sendFail');
      expect((await sharesOf(a)).total + (await sharesOf(a, otherGroupId)).total).toBe(0);
    });

    it('a public drawing keeps its own refusal; a frozen account cannot share', async () => {
      const f = await upload(a, 'public.dxf');
      await t.db.db.updateTable('items').set({ private_type: '0' }).where('id', '=', f).execute();
      const r = await call('group/share', { groupIds: [groupId], fileIds: [f] }, a);
      expect(r.bizData.code).toBe('share.notPrivate');
      const frozen = await t.createUser({ freeze: 1 });
      const fg = (await call('group/create', { name: 'Frozen' }, frozen)).bizData.groupId;
      const ff = (await t.db.db.selectFrom('items').select('id').where('uid', '=', frozen.id).executeTakeFirst())?.id ?? 'none';
      expect((await call('group/share', { groupIds: [fg], fileIds: [ff] }, frozen)).bizData.code).toBe('account.frozen');
    });

    it('view only: a member sees and opens it in the viewer, but cannot download or save it', async () => {
      const f = await upload(a, 'view-only.dxf');
      const r = await call('group/share', { groupIds: [groupId, otherGroupId], fileIds: [f], canDownload: false, canDump: false }, a);
      expect(r.rtnCode).toBe(OK);
      expect(r.bizData).toEqual({ shared: 2 });

      const l = await sharesOf(b);
      const s = l.list.find((x: any) => x.items.some((i: any) => i.id === f));
      expect(s).toMatchObject({ groupId, sharerUid: a.id, rights: { canView: true, canDownload: false, canSave: false }, canCancel: false });
      expect(s.items).toEqual([expect.objectContaining({ id: f, name: 'view-only.dxf', type: 'dxf', fileType: 1 })]);
      expect(s.sharerName).toBeTruthy();
      // the owner of the group (also the sharer) may cancel it
      expect((await sharesOf(a)).list.find((x: any) => x.shareId === s.shareId).canCancel).toBe(true);

      const o = await call('group/openShare', { groupId, shareId: s.shareId }, b);
      expect(o.rtnCode).toBe(OK);
      expect(o.bizData.rights).toMatchObject({ canView: true, canDownload: false, canSave: false });
      const tok = o.bizData.shareToken;
      // then exactly like a link recipient
      const files = await call('share/files', { shareToken: tok }, b);
      expect(files.bizData.list.map((i: any) => i.id)).toEqual([f]);
      const v = await scene(f, tok, b);
      expect(v.statusCode).toBe(200);
      expect(v.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      const dl = await call('share/download', { shareToken: tok, fileId: f }, b);
      expect(dl.rtnCode).not.toBe(OK);
      expect(dl.bizData.code).toBe('share.noDownload');
      const cp = await call('file/share/copyFoldersAndFiles', { shareToken: tok, fileIds: [f] }, b);
      expect(cp.rtnCode).not.toBe(OK);
      expect(cp.bizData.code).toBe('share.noSave');
      // without the token, b has no access to a's file
      const direct = await t.app.inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${f}&utoken=${encodeURIComponent(b.token)}` });
      expect(direct.json().bizData.code).toBe('drawing.noPermission');
    });

    it('downloadable: a member downloads the bytes, still cannot save', async () => {
      const body = drawing('downloadable');
      const f = await upload(a, 'downloadable.dxf', body);
      expect((await call('group/share', { groupIds: [groupId], fileIds: [f], canDownload: true }, a)).bizData).toEqual({ shared: 1 });
      const shareId = await shareIdOf(f);
      const o = (await call('group/openShare', { groupId, shareId }, m)).bizData;
      expect(o.rights).toMatchObject({ canDownload: true, canSave: false });
      const dl = await call('share/download', { shareToken: o.shareToken, fileId: f }, m);
      expect(dl.rtnCode).toBe(OK);
      // the link is the member's, like the token: with their session
      const got = await t.fetchSigned(dl.bizData.signedUrl, m.token);
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.body, body)).toBe(0);
      expect((await call('file/share/copyFoldersAndFiles', { shareToken: o.shareToken, fileIds: [f] }, m)).bizData.code).toBe('share.noSave');
    });

    it("can be dumped: a member saves it to their own cloud (and their storage), but cannot download when not allowed", async () => {
      const body = drawing('dump me');
      const f = await upload(a, 'dump.dxf', body);
      expect((await call('group/share', { groupIds: [groupId], fileIds: [f], canDump: 1 }, a)).rtnCode).toBe(OK);
      const shareId = await shareIdOf(f);
      const o = (await call('group/openShare', { groupId, shareId }, b)).bizData;
      expect(o.rights).toMatchObject({ canDownload: false, canSave: true });
      const before = await t.usage(b.id);
      const cp = await call('file/share/copyFoldersAndFiles', { shareToken: o.shareToken, fileIds: [f] }, b);
      expect(cp.rtnCode).toBe(OK);
      expect(cp.bizData.copied).toBe(1);
      const mine = await t.db.db.selectFrom('items').selectAll().where('id', '=', cp.bizData.items[0]).executeTakeFirstOrThrow();
      expect(mine).toMatchObject({ uid: b.id, name: 'dump.dxf', parent_id: '0' });
      expect((await t.usage(b.id)).used - before.used).toBe(body.length);
      expect((await call('share/download', { shareToken: o.shareToken, fileId: f }, b)).bizData.code).toBe('share.noDownload');
    });

    it("a non-member can neither list, open nor cancel a group's shares; an unknown share is refused", async () => {
      const f = await upload(a, 'secret.dxf');
      await call('group/share', { groupIds: [groupId], fileIds: [f], canDownload: true, canDump: true }, a);
      const shareId = await shareIdOf(f);
      const l = await call('group/shares', { groupId }, c);
      expect(l.bizData.code).toBe('group.notMember');
      expect(l.bizData.list).toBeUndefined();
      expect((await call('group/openShare', { groupId, shareId }, c)).bizData.code).toBe('group.notMember');
      expect((await call('group/cancelShare', { groupId, shareId }, c)).bizData.code).toBe('group.notMember');
      // the share of one group cannot be opened through another group
      const cg = (await call('group/create', { name: 'c group' }, c)).bizData.groupId;
      expect((await call('group/openShare', { groupId: cg, shareId }, c)).bizData.code).toBe('group.shareNotFound');
      expect((await call('group/openShare', { groupId, shareId: 'nope' }, b)).bizData.code).toBe('group.shareNotFound');
      // not signed in
      expect((await call('group/openShare', { groupId, shareId })).rtnCode).toBe('101');
    });

    it('cancel: not by another member; by the sharer or the group owner; tokens stop working at once', async () => {
      // b shares to the group; m (member) cannot cancel it, a (owner) can
      const bf = await upload(b, 'b-shares.dxf');
      expect((await call('group/share', { groupIds: [groupId], fileIds: [bf] }, b)).rtnCode).toBe(OK);
      const bShare = (await sharesOf(m)).list.find((x: any) => x.items.some((i: any) => i.id === bf));
      expect(bShare.canCancel).toBe(false);
      expect((await sharesOf(b)).list.find((x: any) => x.shareId === bShare.shareId).canCancel).toBe(true);
      const tok = (await call('group/openShare', { groupId, shareId: bShare.shareId }, m)).bizData.shareToken;
      const no = await call('group/cancelShare', { groupId, shareId: bShare.shareId }, m);
      expect(no.bizData.code).toBe('group.ownerOnly');
      expect((await call('group/cancelShare', { groupId, shareId: bShare.shareId }, a)).bizData).toEqual({ cancelled: 1 });
      expect((await sharesOf(m)).list.some((x: any) => x.shareId === bShare.shareId)).toBe(false);
      expect((await call('share/files', { shareToken: tok }, m)).rtnCode).not.toBe(OK);
      expect((await call('group/openShare', { groupId, shareId: bShare.shareId }, m)).rtnCode).not.toBe(OK);

      // the sharer cancels their own
      const bf2 = await upload(b, 'b-shares-2.dxf');
      await call('group/share', { groupIds: [groupId], fileIds: [bf2] }, b);
      const s2 = (await sharesOf(b)).list.find((x: any) => x.items.some((i: any) => i.id === bf2));
      expect((await call('group/cancelShare', { groupId, shareId: s2.shareId }, b)).rtnCode).toBe(OK);
    });

    it("leaving or being removed takes the member's shares out of the group and their access away; deleting the group cancels its shares", async () => {
      const g = (await call('group/create', { name: 'Short-lived' }, a)).bizData.groupId;
      await call('group/addMember', { groupId: g, email: b.email }, a);
      const af = await upload(a, 'a-in-g.dxf');
      const bf = await upload(b, 'b-in-g.dxf');
      await call('group/share', { groupIds: [g], fileIds: [af] }, a);
      await call('group/share', { groupIds: [g], fileIds: [bf] }, b);
      expect((await sharesOf(a, g)).total).toBe(2);
      const before = (await sharesOf(b, g)).list.find((x: any) => x.items.some((i: any) => i.id === af));
      const bTok = (await call('group/openShare', { groupId: g, shareId: before.shareId }, b)).bizData.shareToken;
      expect((await call('share/files', { shareToken: bTok }, b)).rtnCode).toBe(OK);
      expect((await call('group/leave', { groupId: g }, b)).rtnCode).toBe(OK);
      const after = (await sharesOf(a, g)).list;
      expect(after.map((x: any) => x.items[0].id)).toEqual([af]);
      const aShare = after[0].shareId;
      // a's share was re-issued: same items, rights and share time, new id; the token b still holds is dead at once
      expect(aShare).not.toBe(before.shareId);
      expect(after[0]).toMatchObject({ rights: before.rights, shareTime: before.shareTime, sharerUid: a.id });
      expect((await call('share/files', { shareToken: bTok }, b)).rtnCode).not.toBe(OK);
      expect((await scene(af, bTok, b)).json().rtnCode).not.toBe(OK);
      expect((await call('group/openShare', { groupId: g, shareId: aShare }, b)).bizData.code).toBe('group.notMember');
      expect((await call('group/openShare', { groupId: g, shareId: before.shareId }, a)).bizData.code).toBe('group.shareNotFound');

      // the owner removes a member: their shares go too
      await call('group/addMember', { groupId: g, email: m.email }, a);
      const mf = await upload(m, 'm-in-g.dxf');
      await call('group/share', { groupIds: [g], fileIds: [mf] }, m);
      const mShare = (await sharesOf(a, g)).list.find((x: any) => x.items[0].id === mf).shareId;
      const mTok = (await call('group/openShare', { groupId: g, shareId: mShare }, a)).bizData.shareToken;
      const heldByM = (await call('group/openShare', { groupId: g, shareId: aShare }, m)).bizData.shareToken;
      expect((await call('group/removeMember', { groupId: g, uid: m.id }, a)).rtnCode).toBe(OK);
      expect((await sharesOf(a, g)).list.map((x: any) => x.items[0].id)).toEqual([af]);
      expect((await call('share/files', { shareToken: mTok }, a)).rtnCode).not.toBe(OK);
      expect((await call('share/download', { shareToken: heldByM, fileId: af }, m)).rtnCode).not.toBe(OK);
      expect((await call('share/files', { shareToken: heldByM }, m)).rtnCode).not.toBe(OK);

      const current = (await sharesOf(a, g)).list[0].shareId;
      const tok = (await call('group/openShare', { groupId: g, shareId: current }, a)).bizData.shareToken;
      expect((await call('share/files', { shareToken: tok }, a)).rtnCode).toBe(OK);
      expect((await call('group/delete', { groupId: g }, a)).rtnCode).toBe(OK);
      expect((await call('share/files', { shareToken: tok }, a)).rtnCode).not.toBe(OK);
    });

    it('a shared folder: a member browses into it and opens a drawing inside it', async () => {
      const folder = (await call('folder/edit', { name: 'Tower B plans' }, a)).bizData.id;
      const r = await t.upload(a.token, 'inside.dxf', drawing('inside'), { parentId: folder });
      expect(r.rtnCode).toBe(OK);
      const inside = r.bizData.id;
      expect((await call('group/share', { groupIds: [groupId], folderIds: [folder] }, a)).bizData).toEqual({ shared: 1 });
      const s = (await sharesOf(b)).list.find((x: any) => x.items.some((i: any) => i.id === folder));
      expect(s.items).toEqual([expect.objectContaining({ id: folder, name: 'Tower B plans', type: 'folder', fileType: 0 })]);
      const tok = (await call('group/openShare', { groupId, shareId: s.shareId }, b)).bizData.shareToken;
      const l = await call('share/files', { shareToken: tok, folderId: folder }, b);
      expect(l.bizData.list.map((i: any) => i.id)).toEqual([inside]);
      expect((await scene(inside, tok, b)).statusCode).toBe(200);
      // the folder's drawing is not reachable without the token
      expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${inside}&utoken=${encodeURIComponent(b.token)}` })).json().bizData.code).toBe('drawing.noPermission');
    });

    it('a deleted shared file disappears from the group', async () => {
      const f = await upload(a, 'to-delete.dxf');
      await call('group/share', { groupIds: [groupId], fileIds: [f] }, a);
      expect(await shareIdOf(f)).toBeTruthy();
      await t.db.db.updateTable('items').set({ deleted_at: Date.now(), trash_root: f }).where('id', '=', f).execute();
      expect(await shareIdOf(f)).toBeUndefined();
    });
  });
}
