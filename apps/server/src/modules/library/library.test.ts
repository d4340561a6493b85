import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerThumbnailJobs } from '../thumbnails/thumbnails.jobs.ts';

/** A small real drawing, distinct bytes per call (so every upload is its own file, not a repeat). */
function drawing(label = randomBytes(4).toString('hex')): Buffer {
  return Buffer.from(
    writeAsciiDxf({
      layers: ['0'],
      entities: [
        { type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
        { type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 80], [40, 5], [1, label]] },
      ],
    }),
  );
}

type User = { id: string; token: string };

for (const driver of testDatabaseDrivers()) {
  describe(`public library on ${driver.name}`, () => {
    let t: TestApp;
    let a: User;
    let b: User;

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
    });
    afterAll(async () => t?.close());

    const ok = async (path: string, data: unknown, u: User) => {
      const r = await t.call(path, data, u.token);
      expect(r.rtnCode, `${path} ${r.msg}`).toBe('0000000');
      return r.bizData;
    };
    const upload = async (u: User, name: string, body = drawing()) => {
      const r = await t.upload(u.token, name, body);
      expect(r.rtnCode, r.msg).toBe('0000000');
      return { id: r.bizData.id as string, size: body.length };
    };
    const setType = (u: User, fileIds: string[], privateType: '0' | '1') => t.call('/cloud/v5/file/setFilePrivateType', { fileIds, privateType, userName: 'x' }, u.token);
    const frozen = async (uid: string) => Number((await t.db.db.selectFrom('users').select('freeze').where('id', '=', uid).executeTakeFirstOrThrow()).freeze);
    const ids = (l: { list: { id: string }[] }) => l.list.map((i) => i.id);

    it('publishing takes the drawing out of the used storage, unpublishing counts it again (exact bytes)', async () => {
      const u = await t.createUser();
      const keep = await upload(u, 'keep.dwg', Buffer.concat([Buffer.from('AC1015'), randomBytes(1000)]));
      const d = await upload(u, 'plan.dxf');
      expect((await t.usage(u.id)).used).toBe(keep.size + d.size);
      const r = await setType(u, [d.id], '0');
      expect(r.rtnCode, r.msg).toBe('0000000');
      expect(r.bizData.count).toBe(1);
      expect(r.bizData.list[0]).toMatchObject({ id: d.id, privateType: '0' });
      expect((await t.usage(u.id)).used).toBe(keep.size);
      expect((await ok('/cloud/v5/file/getFileInfo', { fileId: d.id }, u)).privateType).toBe('0');
      const back = await setType(u, [d.id], '1');
      expect(back.rtnCode, back.msg).toBe('0000000');
      expect((await t.usage(u.id)).used).toBe(keep.size + d.size);
      expect((await ok('/cloud/v5/file/getFileInfo', { fileId: d.id }, u)).privateType).toBe('1');
    });

    it('only the owner\'s private non-folder drawings can be published; a bad batch changes nothing', async () => {
      const u = await t.createUser();
      const d = await upload(u, 'a.dxf');
      const pic = await upload(u, 'photo.png', randomBytes(200));
      const doc = await upload(u, 'notes.txt', randomBytes(50));
      const folder = await ok('/cloud/v5/folder/edit', { name: 'Plans' }, u);
      const before = (await t.usage(u.id)).used;
      for (const [fid, code] of [[folder.id, 'library.notDrawing'], [pic.id, 'library.notDrawing'], [doc.id, 'library.notDrawing'], ['no-such-id', 'item.notFound']] as const) {
        const r = await setType(u, [d.id, fid], '0');
        expect(r.bizData?.code, fid).toBe(code);
      }
      const notDrawing = await t.call('/cloud/v5/file/setFilePrivateType', { fileIds: [pic.id], privateType: '0' }, u.token, 'en');
      expect(notDrawing.msg).toBe('Public sharing only for drawing formats');
      // nothing of the refused batches happened
      expect((await ok('/cloud/v5/file/getFileInfo', { fileId: d.id }, u)).privateType).toBe('1');
      expect((await t.usage(u.id)).used).toBe(before);
      // someone else cannot publish it, nor unpublish it once it is public
      expect((await setType(b, [d.id], '0')).bizData.code).toBe('item.notFound');
      expect((await setType(u, [d.id], '0')).rtnCode).toBe('0000000');
      expect((await setType(u, [d.id], '0')).bizData.code).toBe('library.notPrivate');
      expect((await setType(b, [d.id], '1')).bizData.code).toBe('item.notFound');
      expect((await ok('/cloud/v5/file/getFileInfo', { fileId: d.id }, u)).privateType).toBe('0');
      // making private something that is not public
      const other = await upload(u, 'b.dxf');
      expect((await setType(u, [other.id], '1')).bizData.code).toBe('library.notPublic');
      // a binned drawing cannot be published
      await ok('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [other.id] }, u);
      expect((await setType(u, [other.id], '0')).bizData.code).toBe('item.notFound');
    });

    it('unpublishing past the total is allowed and freezes the account; publishing again unfreezes it', async () => {
      const u = await t.createUser({ quota: 3000 });
      const body = Buffer.concat([drawing(), Buffer.alloc(2000 - drawing('x').length, 10)]);
      const big = await upload(u, 'big.dxf', body);
      await setType(u, [big.id], '0');
      expect((await t.usage(u.id)).used).toBe(0);
      const more = await upload(u, 'more.dxf', Buffer.concat([drawing(), Buffer.alloc(1500, 10)]));
      expect(await frozen(u.id)).toBe(0);
      expect((await setType(u, [big.id], '1')).rtnCode).toBe('0000000');
      expect((await t.usage(u.id)).used).toBe(big.size + more.size);
      expect(await frozen(u.id)).toBe(1);
      expect((await setType(u, [big.id], '0')).rtnCode).toBe('0000000');
      expect((await t.usage(u.id)).used).toBe(more.size);
      expect(await frozen(u.id)).toBe(0);
    });

    it('binning, restoring and deleting a public drawing never counts it in storage; binned ones leave the library', async () => {
      const u = await t.createUser();
      const priv = await upload(u, 'private.dxf');
      const pub = await upload(u, 'public.dxf');
      await setType(u, [pub.id], '0');
      expect((await t.usage(u.id)).used).toBe(priv.size);
      await ok('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [pub.id] }, u);
      expect((await t.usage(u.id)).used).toBe(priv.size);
      expect(ids(await ok('/cloud/v5/public/list', { keywords: 'public.dxf' }, b))).not.toContain(pub.id);
      expect((await t.call('/cloud/v5/public/detail', { fileId: pub.id }, b.token)).bizData.code).toBe('item.notFound');
      await ok('/cloud/v5/trash/restore', { fileIds: [pub.id] }, u);
      expect((await t.usage(u.id)).used).toBe(priv.size);
      expect(ids(await ok('/cloud/v5/public/list', {}, b))).toContain(pub.id);
      await ok('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [pub.id] }, u);
      await ok('/cloud/v5/union/delete', { deleteLevel: 2 }, u);
      expect((await t.usage(u.id)).used).toBe(priv.size);
      const pub2 = await upload(u, 'public2.dxf');
      await setType(u, [pub2.id], '0');
      await ok('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [pub2.id] }, u);
      expect((await t.usage(u.id)).used).toBe(priv.size);
      // the quota's own recount agrees with what publishing kept
      const { createQuotaService } = await import('../quota/quota.service.ts');
      expect(await createQuotaService(t.deps).recalculate(u.id)).toBe(priv.size);
    });

    it('50 users liking at once give exactly 50, 50 unlikes give 0; collections likewise; one user twice at once is one', async () => {
      const d = await upload(a, 'popular.dxf');
      await setType(a, [d.id], '0');
      const users = await Promise.all(Array.from({ length: 50 }, () => t.createUser()));
      const likes = await Promise.all(users.map((u) => t.call('/cloud/v5/public/like', { fileId: d.id, like: true }, u.token)));
      expect(likes.every((r) => r.rtnCode === '0000000' && r.bizData.isLiked === 1)).toBe(true);
      const collects = await Promise.all(users.map((u) => t.call('/cloud/v5/public/collect', { fileId: d.id, collect: true }, u.token)));
      expect(collects.every((r) => r.rtnCode === '0000000' && r.bizData.isCollected === 1)).toBe(true);
      let detail = await ok('/cloud/v5/public/detail', { fileId: d.id }, b);
      expect(detail).toMatchObject({ likeCount: 50, collectionCount: 50, isLiked: 0, isCollected: 0 });
      expect(Math.max(...likes.map((r) => r.bizData.likeCount))).toBe(50);
      // the same user clicking "like" twice at once (and again later) is still one like
      await Promise.all([t.call('/cloud/v5/public/like', { fileId: d.id, like: true }, b.token), t.call('/cloud/v5/public/like', { fileId: d.id, like: true }, b.token)]);
      await ok('/cloud/v5/public/like', { fileId: d.id, like: true }, b);
      detail = await ok('/cloud/v5/public/detail', { fileId: d.id }, b);
      expect(detail).toMatchObject({ likeCount: 51, isLiked: 1 });
      await ok('/cloud/v5/public/like', { fileId: d.id }, b); // toggle off
      const unlikes = await Promise.all(users.map((u) => t.call('/cloud/v5/public/like', { fileId: d.id, like: false }, u.token)));
      expect(unlikes.every((r) => r.rtnCode === '0000000' && r.bizData.isLiked === 0)).toBe(true);
      const uncollects = await Promise.all(users.map((u) => t.call('/cloud/v5/public/collect', { fileId: d.id, collect: false }, u.token)));
      expect(uncollects.every((r) => r.rtnCode === '0000000')).toBe(true);
      // unliking twice does not go below zero
      await ok('/cloud/v5/public/like', { fileId: d.id, like: false }, users[0]);
      detail = await ok('/cloud/v5/public/detail', { fileId: d.id }, b);
      expect(detail).toMatchObject({ likeCount: 0, collectionCount: 0 });
      const rows = await t.db.db.selectFrom('public_likes').select((eb) => eb.fn.countAll<number>().as('n')).where('file_id', '=', d.id).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(0);
    });

    it('counts every detail opening as a browse, also 30 at once', async () => {
      const d = await upload(a, 'browsed.dxf');
      await setType(a, [d.id], '0');
      await Promise.all(Array.from({ length: 30 }, () => t.call('/cloud/v5/public/detail', { fileId: d.id }, b.token)));
      const r = await ok('/cloud/v5/public/detail', { fileId: d.id }, b);
      expect(r.browseCount).toBe(31);
      // a private drawing has no public detail and counts nothing
      const p = await upload(a, 'private-browse.dxf');
      expect((await t.call('/cloud/v5/public/detail', { fileId: p.id }, b.token)).bizData.code).toBe('item.notFound');
    });

    it('the library and the three my-lists show exactly the right items; unpublished ones leave every list and come back with their counts', async () => {
      const u = await t.createUser();
      const v = await t.createUser();
      const p1 = await upload(u, 'house-one.dxf');
      const p2 = await upload(u, 'house-two.dwg', Buffer.concat([Buffer.from('AC1015'), randomBytes(300)]));
      const priv = await upload(u, 'house-private.dxf');
      await setType(u, [p1.id], '0');
      await new Promise((r) => setTimeout(r, 5));
      await setType(u, [p2.id], '0');
      expect(ids(await ok('/cloud/v5/file/queryMyPublicList', {}, u))).toEqual([p2.id, p1.id]);
      expect((await ok('/cloud/v5/file/queryMyPublicList', {}, u)).total).toBe(2);
      expect(ids(await ok('/cloud/v5/file/queryMyPublicList', {}, v))).toEqual([]);
      await ok('/cloud/v5/public/like', { fileId: p1.id, like: true }, v);
      await ok('/cloud/v5/public/collect', { fileId: p2.id, collect: true }, v);
      expect(ids(await ok('/cloud/v5/file/queryMyLikePublicList', {}, v))).toEqual([p1.id]);
      expect(ids(await ok('/cloud/v5/file/queryMyCollectionrecordList', {}, v))).toEqual([p2.id]);
      expect(ids(await ok('/cloud/v5/file/queryMyLikePublicList', {}, u))).toEqual([]);
      const liked = (await ok('/cloud/v5/file/queryMyLikePublicList', {}, v)).list[0];
      expect(liked).toMatchObject({ isLiked: 1, isCollected: 0, likeCount: 1, privateType: '0', isOwner: 0 });
      expect(liked.publishTimestamp).toBeGreaterThan(0);
      // keyword search in the library; the private sibling never shows
      const lib = await ok('/cloud/v5/public/list', { keywords: 'house-' }, v);
      expect(ids(lib).sort()).toEqual([p1.id, p2.id].sort());
      expect(ids(lib)).not.toContain(priv.id);
      expect(ids(await ok('/cloud/v5/public/list', { keywords: 'house-two' }, v))).toEqual([p2.id]);
      expect(ids(await ok('/cloud/v5/public/list', { keywords: 'house-', sort: 'likes' }, v))[0]).toBe(p1.id);
      // unpublish: gone from every list (likes kept, hidden), back with its count when published again
      await setType(u, [p1.id], '1');
      expect(ids(await ok('/cloud/v5/file/queryMyLikePublicList', {}, v))).toEqual([]);
      expect(ids(await ok('/cloud/v5/file/queryMyPublicList', {}, u))).toEqual([p2.id]);
      expect(ids(await ok('/cloud/v5/public/list', { keywords: 'house-' }, v))).toEqual([p2.id]);
      expect((await t.call('/cloud/v5/public/like', { fileId: p1.id, like: false }, v.token)).bizData.code).toBe('item.notFound');
      await setType(u, [p1.id], '0');
      const again = await ok('/cloud/v5/file/queryMyLikePublicList', {}, v);
      expect(ids(again)).toEqual([p1.id]);
      expect(again.list[0].likeCount).toBe(1);
    });

    it('messages: add, list newest first, delete only one\'s own; counts follow', async () => {
      const d = await upload(a, 'talk.dxf');
      await setType(a, [d.id], '0');
      expect((await t.call('/cloud/v5/public/message/add', { fileId: d.id, content: '   ' }, b.token)).bizData.code).toBe('library.messageEmpty');
      expect((await t.call('/cloud/v5/public/message/add', { fileId: d.id, content: 'x'.repeat(501) }, b.token)).bizData.code).toBe('library.messageTooLong');
      const m1 = await ok('/cloud/v5/public/message/add', { fileId: d.id, content: 'Nice plan' }, b);
      await new Promise((r) => setTimeout(r, 5));
      const m2 = await ok('/cloud/v5/public/message/add', { fileId: d.id, content: 'Thanks!' }, a);
      const l = await ok('/cloud/v5/public/message/list', { fileId: d.id }, b);
      expect(l.total).toBe(2);
      expect(l.list.map((m: any) => [m.content, m.isMine])).toEqual([['Thanks!', 0], ['Nice plan', 1]]);
      expect((await ok('/cloud/v5/public/detail', { fileId: d.id }, b))).toMatchObject({ leaveMessageCount: 2, totalMessageCount: 2 });
      expect((await t.call('/cloud/v5/public/message/delete', { messageId: m2.id }, b.token)).bizData.code).toBe('item.notFound');
      await ok('/cloud/v5/public/message/delete', { messageId: m1.id }, b);
      expect((await t.call('/cloud/v5/public/message/delete', { messageId: m1.id }, b.token)).bizData.code).toBe('item.notFound');
      expect((await ok('/cloud/v5/public/detail', { fileId: d.id }, b)).leaveMessageCount).toBe(1);
      const p = await upload(a, 'quiet.dxf');
      expect((await t.call('/cloud/v5/public/message/add', { fileId: p.id, content: 'hi' }, b.token)).bizData.code).toBe('item.notFound');
    });

    it('documents its endpoints in /api/docs and refuses the unsigned', async () => {
      const r = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(r.statusCode).toBe(200);
      const doc = r.json();
      for (const p of ['/cloud/v5/file/setFilePrivateType', '/cloud/v5/file/queryMyPublicList', '/cloud/v5/file/queryMyLikePublicList', '/cloud/v5/file/queryMyCollectionrecordList', '/cloud/v5/public/list', '/cloud/v5/public/detail', '/cloud/v5/public/like', '/cloud/v5/public/collect', '/cloud/v5/public/message/add', '/cloud/v5/public/message/list', '/cloud/v5/public/message/delete']) {
        expect(doc.paths[p], p).toBeTruthy();
        expect((await t.call(p, {})).rtnCode, p).toBe('101');
      }
      expect(JSON.stringify(doc.paths['/cloud/v5/public/list'])).toContain('browses');
    });

    it('a public drawing\'s thumbnail reaches other users through the library route, a private one never', async () => {
      registerThumbnailJobs(t.deps.queue, t.deps);
      const d = await upload(a, 'thumbed.dxf');
      const thumbkey = await until(async () => (await t.db.db.selectFrom('items').select('thumbkey').where('id', '=', d.id).executeTakeFirstOrThrow()).thumbkey ?? undefined, 60_000);
      const get = (fileId: string, u?: User) => t.app.inject({ method: 'GET', url: `/cloud/v5/public/thumb/${fileId}${u ? `?utoken=${encodeURIComponent(u.token)}` : ''}` });
      // B cannot read A's thumbnail by its key, nor through the library while it is private
      expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/file/thumb/${thumbkey}?utoken=${encodeURIComponent(b.token)}` })).statusCode).toBe(404);
      expect((await get(d.id, b)).statusCode).toBe(404);
      await setType(a, [d.id], '0');
      const r = await get(d.id, b);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      expect(r.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      expect((await get(d.id)).statusCode).toBe(401);
      await setType(a, [d.id], '1');
      expect((await get(d.id, b)).statusCode).toBe(404);
      // the thumbnail job is waited for up to 60 s (a worker thread started from the sources under a loaded CI)
    }, 90_000);

    it('another user opens a public drawing\'s scene, never a private one (nor after unpublishing)', async () => {
      const d = await upload(a, 'shown.dxf');
      const scene = (fileId: string, u: User) => t.app.inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${fileId}&utoken=${encodeURIComponent(u.token)}` });
      expect((await scene(d.id, b)).json().bizData.code).toBe('drawing.noPermission');
      await setType(a, [d.id], '0');
      const r = await scene(d.id, b);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${d.id}` })).statusCode).toBe(401);
      await setType(a, [d.id], '1');
      expect((await scene(d.id, b)).json().bizData.code).toBe('drawing.noPermission');
      expect((await scene(d.id, a)).statusCode).toBe(200);
    });
  });
}
