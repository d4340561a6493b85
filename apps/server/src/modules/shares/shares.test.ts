import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { decodeScene } from '@cadcloud/cad/scene';
import { sb, writeShapesFont } from '../../../../../packages/cad/src/text/testing/shx-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { extractWithProof, postExtract } from '../../test/share-proof.ts';
import { createSharesService, setSharesClock } from './shares.service.ts';

const DAY = 24 * 3600 * 1000;
/** Cheap proofs of work (2^10 times cheaper), and an attacker 2^10 times weaker: the same code-length rules. */
export const CHEAP_PROOFS = { SHARE_POW_BASE_BITS: '8', SHARE_ATTACKER_HASH_RATE: String(1e11 / 1024) };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

const dxf = Buffer.from(
  writeAsciiDxf({
    layers: ['0', 'Walls'],
    entities: [
      { type: 'LINE', pairs: [[8, 'Walls'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
      { type: 'CIRCLE', pairs: [[8, 'Walls'], [10, 50], [20, 50], [30, 0], [40, 10]] },
    ],
  }),
);

/** A shape font whose 'A' is a Z of three strokes, and a drawing whose text style asks for it (as drawings.test.ts). */
const ZFONT = Buffer.from(writeShapesFont('ZFONT', 6, 2, [{ code: 65, name: 'A', bytes: [2, 8, 0, 6, 1, 0x60, 8, sb(-6), sb(-6), 0x60, 2, 8, 2, 0] }, { code: 32, name: 'SPACE', bytes: [2, 0x80] }]));
function drawingWithStyle(font: string): Buffer {
  const s = Buffer.from(writeAsciiDxf({ entities: [{ type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, 0], [40, 6], [7, 'Z'], [1, 'AAA']] }] })).toString('latin1');
  const at = s.indexOf('  0\r\nENDTAB\r\n') + '  0\r\nENDTAB\r\n'.length;
  const style = ['  0', 'TABLE', '  2', 'STYLE', '  0', 'STYLE', '  2', 'Z', ' 70', '0', ' 40', '0', ' 41', '1', ' 50', '0', '  3', font, '  4', '', '  0', 'ENDTAB', ''].join('\r\n');
  return Buffer.from(s.slice(0, at) + style + s.slice(at), 'latin1');
}

type User = { id: string; token: string; email: string };

for (const driver of testDatabaseDrivers()) {
  describe(`shares on ${driver.name}`, () => {
    let t: TestApp;
    let a: User; // the sharer
    let b: User; // another signed-in user
    let clock = T0;
    let n = 0;

    beforeAll(async () => {
      t = await createTestApp(driver, CHEAP_PROOFS);
      setSharesClock(t.deps, () => clock);
      a = await t.createUser();
      b = await t.createUser();
    });
    afterAll(async () => t?.close());
    beforeEach(() => {
      clock = T0;
    });

    /** A's folder "Plans-n" with sub/inner.dxf and top.dxf, and a loose file. */
    async function tree() {
      n++;
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: `Plans-${n}` }, a.token)).bizData.id as string;
      const sub = (await t.call('/cloud/v5/folder/edit', { parentId: folder, name: 'sub' }, a.token)).bizData.id as string;
      const inner = (await t.upload(a.token, 'inner.dxf', dxf, { parentId: sub })).bizData.id as string;
      const top = (await t.upload(a.token, 'top.bin', randomBytes(300), { parentId: folder })).bizData.id as string;
      const loose = (await t.upload(a.token, `loose-${n}.dxf`, Buffer.concat([dxf, Buffer.from(`999\r\n${n}\r\n`)]))).bizData.id as string;
      return { folder, sub, inner, top, loose };
    }
    const create = (data: object, token = a.token) => t.call('/cloud/v5/share/create', data, token);
    const ext = (rand: string, code: string, password = '', ip = '10.0.0.1') => extractWithProof(t, { rand, code, password }, ip);
    async function shareAndToken(data: object) {
      const s = (await create(data)).bizData;
      const x = await ext(s.rand, s.code, s.password);
      expect(x.rtnCode).toBe('0000000');
      return { s, token: x.bizData.shareToken as string };
    }

    it('creates a link share of own items with code, url, linkToken and rights', async () => {
      const f = await tree();
      const r = await create({ fileIds: [f.loose], folderIds: [f.folder], validDays: 3, password: 'ab12', canDownload: 1 });
      expect(r.rtnCode).toBe('0000000');
      const s = r.bizData;
      expect(s.code).toMatch(/^\d{4}$/);
      expect(s.codeKind).toBe('digits4');
      expect(s.rand.length).toBeGreaterThanOrEqual(12);
      expect(s.rand).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(s).toMatchObject({ kind: 'link', password: 'ab12', validDays: 3, shareTime: T0, expiresAt: T0 + 3 * DAY, remainingMs: 3 * DAY, state: 'active' });
      expect(s.rights).toEqual({ canView: true, canDownload: true, canSave: false, showNotes: false });
      expect(s.url).toMatch(new RegExp(`^http://localhost(:80)?/share/${s.rand}$`)); // the host the request came to
      expect(s.shareUrl).toBe(s.url);
      expect(s.h5Url).toMatch(new RegExp(`/webH5/share/${s.shareId}/${s.rand}$`));
      expect(JSON.parse(Buffer.from(s.linkToken, 'base64url').toString())).toEqual({ fileId: f.loose, from: 'share', isShare: 1, rand: s.rand, position: 0 });
      expect(s.items.map((i: { id: string }) => i.id).sort()).toEqual([f.loose, f.folder].sort());
      const easy = (await create({ fileIds: [f.loose], kind: 'easy' })).bizData;
      expect(easy).toMatchObject({ kind: 'easy', validDays: 7, password: '' });
      expect(easy.h5Url).toMatch(new RegExp(`/webH5/simple/${easy.rand}$`));
    }, 60_000);

    it('refuses bad passwords, days, foreign, missing and public items', async () => {
      const f = await tree();
      const cases: [object, string][] = [
        [{ fileIds: [f.loose], password: 'abc' }, 'share.passwordInvalid'],
        [{ fileIds: [f.loose], password: 'ab-1' }, 'share.passwordInvalid'],
        [{ fileIds: [f.loose], validDays: 100 }, 'share.daysInvalid'],
        [{ fileIds: [f.loose], validDays: -1 }, 'share.daysInvalid'],
        [{ fileIds: [f.loose], validDays: 1.5 }, 'share.daysInvalid'],
        [{ fileIds: [f.loose], validDays: 'x' }, 'share.daysInvalid'],
        [{ fileIds: [] }, 'share.createFailed'],
        [{ fileIds: ['nope'] }, 'share.createFailed'],
      ];
      for (const [data, code] of cases) expect([data, (await create(data)).bizData.code]).toEqual([data, code]);
      expect((await create({ fileIds: [f.loose] }, b.token)).bizData.code).toBe('share.createFailed');
      const days = await create({ fileIds: [f.loose], validDays: 100 });
      expect(days.msg).toBe('Please enter a positive integer 0-99!');
      await t.db.db.updateTable('items').set({ private_type: '0' }).where('id', '=', f.top).execute();
      const pub = await create({ fileIds: [f.top] });
      expect(pub.bizData.code).toBe('share.notPrivate');
      expect(pub.msg).toBe('Non-private items cannot be shared again');
      await t.call('/cloud/v5/union/delete', { fileIds: [f.loose] }, a.token);
      expect((await create({ fileIds: [f.loose] })).bizData.code).toBe('share.createFailed');
    }, 60_000);

    it('lists only own shares, newest first, and only the owner may update or cancel', async () => {
      const f = await tree();
      const first = (await create({ fileIds: [f.loose] })).bizData;
      clock += 1000;
      const second = (await create({ folderIds: [f.folder], validDays: 0 })).bizData;
      const bFile = (await t.upload(b.token, `b-${n}.dxf`, randomBytes(50))).bizData.id;
      const bShare = (await create({ fileIds: [bFile] }, b.token)).bizData;
      const list = (await t.call('/cloud/v5/share/list', {}, a.token)).bizData;
      const ids = list.list.map((s: { shareId: string }) => s.shareId);
      expect(ids.indexOf(second.shareId)).toBeLessThan(ids.indexOf(first.shareId));
      expect(ids).not.toContain(bShare.shareId);
      expect(list.list.find((s: { shareId: string }) => s.shareId === second.shareId)).toMatchObject({ expiresAt: null, remainingMs: null, state: 'active' });
      expect((await t.call('/cloud/v5/share/list', {}, b.token)).bizData.list.map((s: { shareId: string }) => s.shareId)).toEqual([bShare.shareId]);

      expect((await t.call('/cloud/v5/share/update', { shareId: first.shareId, password: '1234' }, b.token)).bizData.code).toBe('share.notFound');
      expect((await t.call('/cloud/v5/share/cancel', { shareIds: [first.shareId] }, b.token)).bizData.code).toBe('share.notFound');
      expect((await t.call('/cloud/v5/share/email', { shareId: first.shareId, emails: ['x@example.com'] }, b.token)).bizData.code).toBe('share.notFound');
      expect((await t.db.db.selectFrom('shares').select(['password', 'cancelled_at']).where('id', '=', first.shareId).executeTakeFirstOrThrow())).toEqual({ password: '', cancelled_at: null });

      const bad = await t.call('/cloud/v5/share/update', { shareId: first.shareId, password: 'ab12' }, a.token);
      expect([bad.bizData.code, bad.msg]).toEqual(['share.passwordDigits', 'Password must be 4 digits']);
      const up = (await t.call('/cloud/v5/share/update', { shareId: first.shareId, password: '4321', validDays: 2 }, a.token)).bizData;
      expect(up).toMatchObject({ password: '4321', validDays: 2, expiresAt: T0 + 2 * DAY });
      expect((await t.call('/cloud/v5/share/update', { shareId: first.shareId, password: '' }, a.token)).bizData.password).toBe('');
      // a 4-digit code does not outlast a permanent share (contracts share-extraction.ts): refused, nothing changed
      const longer = await t.call('/cloud/v5/share/update', { shareId: first.shareId, validDays: 0 }, a.token);
      expect([longer.bizData.code, longer.msg]).toEqual(['share.codeTooShort', 'This extraction code is too short for a share valid this long: choose a longer code or set an extraction password']);
      expect((await t.call('/cloud/v5/share/update', { shareId: first.shareId, validDays: 0, password: '2468' }, a.token)).bizData).toMatchObject({ expiresAt: null, remainingMs: null, password: '2468' });
      expect((await t.call('/cloud/v5/share/cancel', { shareIds: [first.shareId, second.shareId] }, a.token)).bizData).toEqual({ cancelled: 2 });
      const after = (await t.call('/cloud/v5/share/list', {}, a.token)).bizData.list.find((s: { shareId: string }) => s.shareId === first.shareId);
      expect(after.state).toBe('cancelled');
    }, 60_000);

    // every state and right, through the visitor's calls
    it('enforces code, password, expiry at the boundary, cancel and deletion', async () => {
      const f = await tree();
      const s = (await create({ fileIds: [f.loose], validDays: 1, password: 'Zz99' })).bizData;
      const info = await t.call('/cloud/v5/share/getInfoByRand', { rand: s.rand });
      expect(info.bizData).toMatchObject({ shareId: s.shareId, needsPassword: true, itemCount: 1, expiresAt: T0 + DAY });
      expect(info.bizData.code).toBeUndefined();
      expect(JSON.stringify(info.bizData)).not.toContain('Zz99');

      const wrongCode = String((Number(s.code) + 1) % 10000).padStart(4, '0');
      // which of code and password was wrong is not said: a guesser must cover both at once
      const table: [string, string, string, string | null][] = [
        ['no code', '', 'Zz99', 'share.wrongCodeOrPassword'],
        ['wrong code', wrongCode, 'Zz99', 'share.wrongCodeOrPassword'],
        ['no password', s.code, '', 'share.wrongCodeOrPassword'],
        ['wrong password', s.code, 'zz99', 'share.wrongCodeOrPassword'],
        ['right', s.code, 'Zz99', null],
      ];
      for (const [name, code, pw, err] of table) {
        const r = await ext(s.rand, code, pw, `10.1.${n}.${table.findIndex((x) => x[0] === name)}`);
        expect([name, r.bizData.code ?? null]).toEqual([name, err]);
      }
      expect((await ext(s.rand, s.code, 'nope', '10.9.9.8')).msg).toBe('Wrong extraction code or password');
      const plain = (await create({ fileIds: [f.loose] })).bizData;
      expect((await ext(plain.rand, String((Number(plain.code) + 1) % 10000).padStart(4, '0'), '', '10.9.9.9')).msg).toBe('Wrong extraction code');

      clock = T0 + DAY - 1;
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: s.rand })).rtnCode).toBe('0000000');
      const token = (await ext(s.rand, s.code, 'Zz99', '10.2.0.1')).bizData.shareToken;
      expect((await t.call('/cloud/v5/share/files', { shareToken: token })).rtnCode).toBe('0000000');
      clock = T0 + DAY; // exactly the end of the valid day
      const gone = await t.call('/cloud/v5/share/getInfoByRand', { rand: s.rand });
      expect([gone.bizData.code, gone.bizData.reason]).toEqual(['share.expired', 'expired']);
      expect(gone.msg).toMatch(/^This share no longer exists/);
      expect((await ext(s.rand, s.code, 'Zz99', '10.2.0.2')).bizData.code).toBe('share.expired');
      expect((await t.call('/cloud/v5/share/files', { shareToken: token })).bizData.code).toBe('share.tokenInvalid');
      const listed = (await t.call('/cloud/v5/share/list', {}, a.token)).bizData.list.find((x: { shareId: string }) => x.shareId === s.shareId);
      expect(listed).toMatchObject({ state: 'expired', remainingMs: 0 });
      // easyShare/getInfoByRand answers the same
      expect((await t.call('/cloud/v5/easyShare/getInfoByRand', { rand: s.rand })).bizData.reason).toBe('expired');

      // cancel takes effect at once, also for a token already given out
      clock = T0;
      const c = await shareAndToken({ fileIds: [f.loose], validDays: 0 });
      expect((await t.call('/cloud/v5/share/files', { shareToken: c.token })).rtnCode).toBe('0000000');
      await t.call('/cloud/v5/share/cancel', { shareIds: [c.s.shareId] }, a.token);
      const cancelled = await t.call('/cloud/v5/share/files', { shareToken: c.token });
      expect([cancelled.bizData.code, cancelled.bizData.reason]).toEqual(['share.cancelled', 'cancelled']);
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: c.s.rand })).bizData.reason).toBe('cancelled');

      // a share whose every item is in the recycle bin no longer exists
      const d = await shareAndToken({ fileIds: [f.top] });
      await t.call('/cloud/v5/union/delete', { fileIds: [f.top] }, a.token);
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: d.s.rand })).bizData.reason).toBe('deleted');
      expect((await t.call('/cloud/v5/share/files', { shareToken: d.token })).bizData.code).toBe('share.deleted');
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: 'unknown-rand' })).bizData.code).toBe('share.notFound');
    }, 120_000);

    it('browses into shared folders only, and view-only shares cannot download or save', async () => {
      const f = await tree();
      const view = await shareAndToken({ folderIds: [f.folder] });
      const top = (await t.call('/cloud/v5/share/files', { shareToken: view.token })).bizData;
      expect(top.list.map((i: { id: string }) => i.id)).toEqual([f.folder]);
      const inside = (await t.call('/cloud/v5/share/files', { shareToken: view.token, folderId: f.folder })).bizData;
      expect(inside.list.map((i: { name: string }) => i.name)).toEqual(['sub', 'top.bin']);
      const deeper = (await t.call('/cloud/v5/share/files', { shareToken: view.token, folderId: f.sub })).bizData;
      expect(deeper.list.map((i: { id: string }) => i.id)).toEqual([f.inner]);
      expect(deeper.path.map((p: { id: string }) => p.id)).toEqual([f.folder, f.sub]);
      // outside the share: A's root folder, another folder of A
      const other = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: `Other-${n}` }, a.token)).bizData.id;
      for (const folderId of [other, f.inner, 'nope']) expect((await t.call('/cloud/v5/share/files', { shareToken: view.token, folderId })).bizData.code).toBe('item.notFound');
      // '0' is the share's top level, never the sharer's root
      expect((await t.call('/cloud/v5/share/files', { shareToken: view.token, folderId: '0' })).bizData.list.map((i: { id: string }) => i.id)).toEqual([f.folder]);
      expect((await t.call('/cloud/v5/share/download', { shareToken: view.token, fileId: f.inner })).bizData.code).toBe('share.noDownload');
      expect((await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: view.token, folderIds: [f.folder] }, b.token)).bizData.code).toBe('share.noSave');
      expect((await t.call('/cloud/v5/file/getProductItemById', { shareToken: view.token, fileId: f.inner })).bizData).toMatchObject({ id: f.inner, name: 'inner.dxf' });
      expect((await t.call('/cloud/v5/file/getProductItemById', { shareToken: view.token, fileId: f.loose })).bizData.code).toBe('item.notFound');
      expect((await t.call('/cloud/v5/file/getProductItemById', { fileId: f.loose })).bizData.code).toBe('item.notFound');

      const dl = await shareAndToken({ folderIds: [f.folder], canDownload: true });
      const r = (await t.call('/cloud/v5/share/download', { shareToken: dl.token, fileId: f.inner })).bizData;
      expect(r.name).toBe('inner.dxf');
      const got = await t.fetchSigned(r.signedUrl);
      expect(got.status).toBe(200);
      expect(got.body.equals(dxf)).toBe(true);
      expect((await t.call('/cloud/v5/share/download', { shareToken: dl.token, fileId: f.loose })).bizData.code).toBe('item.notFound');
      // an item moved out of the shared folder is no longer reachable
      await t.call('/cloud/v5/union/move', { fileIds: [f.top], moveToId: other }, a.token);
      expect((await t.call('/cloud/v5/share/download', { shareToken: dl.token, fileId: f.top })).bizData.code).toBe('item.notFound');
    }, 120_000);

    it('refuses tampered, foreign and expired tokens', async () => {
      const f = await tree();
      const one = await shareAndToken({ fileIds: [f.loose], canDownload: true, validDays: 0 });
      const two = await shareAndToken({ fileIds: [f.top], canDownload: true, validDays: 0 });
      const [body, mac] = one.token.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), shareId: two.s.shareId })).toString('base64url');
      const longer = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), exp: T0 + 1000 * DAY })).toString('base64url');
      for (const bad of [`${forged}.${mac}`, `${longer}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, body, 'x', `${body}.`]) {
        expect((await t.call('/cloud/v5/share/files', { shareToken: bad })).bizData.code).toBe('share.tokenInvalid');
      }
      // a real token of another share does not reach this share's file
      expect((await t.call('/cloud/v5/share/download', { shareToken: two.token, fileId: f.loose })).bizData.code).toBe('item.notFound');
      expect((await t.call('/cloud/v5/share/download', { shareToken: one.token, fileId: f.loose })).rtnCode).toBe('0000000');
      // tokens live a day at most, even for a share that never expires
      clock = T0 + DAY + 1;
      expect((await t.call('/cloud/v5/share/files', { shareToken: one.token })).bizData.code).toBe('share.tokenInvalid');
    }, 60_000);

    it("saves shared folders into another user's cloud: same blobs, storage counted, clashes renamed, refused when full", async () => {
      const f = await tree();
      const sv = await shareAndToken({ folderIds: [f.folder], fileIds: [f.loose], canSave: true });
      const sizes = await t.db.db.selectFrom('items').select(['id', 'size', 'blob_md5']).where('id', 'in', [f.inner, f.top, f.loose]).execute();
      const total = sizes.reduce((x, r) => x + Number(r.size), 0);
      const c = await t.createUser({ quota: total * 2 + 10 });
      expect((await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, folderIds: [f.folder], fileIds: [f.loose] })).rtnCode).toBe('101');
      const before = await t.db.db.selectFrom('blobs').select(['md5', 'ref_count']).where('md5', 'in', sizes.map((r) => r.blob_md5!)).execute();
      const r1 = await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, folderIds: [f.folder], fileIds: [f.loose, f.inner] }, c.token);
      expect(r1.rtnCode).toBe('0000000');
      expect(r1.bizData.copied).toBe(2); // inner.dxf comes with its folder
      expect((await t.usage(c.id)).used).toBe(total);
      const root = (await t.call('/cloud/v5/union/list', { parentId: '0' }, c.token)).bizData.list;
      expect(root.map((i: { name: string }) => i.name).sort()).toEqual([`Plans-${n}`, `loose-${n}.dxf`].sort());
      const plans = root.find((i: { name: string }) => i.name === `Plans-${n}`);
      const inPlans = (await t.call('/cloud/v5/union/list', { parentId: plans.id }, c.token)).bizData.list;
      expect(inPlans.map((i: { name: string }) => i.name)).toEqual(['sub', 'top.bin']);
      const sub = (await t.call('/cloud/v5/union/list', { parentId: inPlans[0].id }, c.token)).bizData.list;
      expect(sub.map((i: { name: string }) => i.name)).toEqual(['inner.dxf']);
      const after = await t.db.db.selectFrom('blobs').select(['md5', 'ref_count']).where('md5', 'in', sizes.map((r) => r.blob_md5!)).execute();
      for (const b0 of before) expect(Number(after.find((x) => x.md5 === b0.md5)!.ref_count)).toBe(Number(b0.ref_count) + 1);
      // the copy is C's own: downloadable with C's ticket
      const dl = await t.call('/cloud/v5/file/download', { fileId: sub[0].id }, c.token);
      expect((await t.fetchSigned(dl.bizData.signedUrl)).body.equals(dxf)).toBe(true);

      // again: names clash and get " (1)"
      const r2 = await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, folderIds: [f.folder], fileIds: [f.loose] }, c.token);
      expect(r2.rtnCode).toBe('0000000');
      const names = (await t.call('/cloud/v5/union/list', { parentId: '0' }, c.token)).bizData.list.map((i: { name: string }) => i.name).sort();
      expect(names).toEqual([`Plans-${n}`, `Plans-${n} (1)`, `loose-${n}.dxf`, `loose-${n} (1).dxf`].sort());
      expect((await t.usage(c.id)).used).toBe(2 * total);

      // a third copy does not fit: refused whole, nothing added
      const count = async () => Number((await t.db.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', c.id).executeTakeFirstOrThrow()).n);
      const itemsBefore = await count();
      const full = await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, folderIds: [f.folder], fileIds: [f.loose] }, c.token);
      expect([full.bizData.code, full.msg]).toEqual(['upload.noSpace', 'Not enough space']);
      expect(await count()).toBe(itemsBefore);
      expect((await t.usage(c.id)).used).toBe(2 * total);
      // into a folder C does not own, or items outside the share: refused
      expect((await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, fileIds: [f.loose], targetFolderId: f.folder }, c.token)).bizData.code).toBe('item.notFound');
      const outside = (await t.upload(a.token, `outside-${n}.bin`, randomBytes(10))).bizData.id;
      expect((await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: sv.token, fileIds: [outside] }, b.token)).bizData.code).toBe('item.notFound');
    }, 120_000);

    it('sends the share by e-mail in the asked language, validates addresses, reports a failing mailer', async () => {
      const f = await tree();
      const s = (await create({ fileIds: [f.loose], password: '7777' })).bizData;
      expect((await t.call('/cloud/v5/share/email', { shareId: s.shareId, emails: [] }, a.token)).msg).toBe('Please enter the sending email address');
      expect((await t.call('/cloud/v5/share/email', { shareId: s.shareId, emails: ['ok@example.com', 'not-an-address'] }, a.token)).msg).toBe('E-mail format is incorrect');
      const to = `friend-${n}@example.com`;
      const r = await t.call('/cloud/v5/share/email', { shareId: s.shareId, emails: [to], language: 'de' }, a.token);
      expect(r.bizData).toEqual({ sent: 1 });
      const mail = await t.db.db.selectFrom('mail_outbox').selectAll().where('to_addr', 'like', `%${to}%`).executeTakeFirstOrThrow();
      expect(mail.subject).toBe('Ein CADCloud-Nutzer hat Dateien mit Ihnen geteilt');
      // the link of a mail is on PUBLIC_URL, whatever host the request named
      expect(mail.text).toContain(`${t.deps.config.publicUrl}/share/${s.rand}`);
      expect(mail.text).toContain(`Extraktionscode: ${s.code}`);
      expect(mail.text).toContain('Extraktionspasswort: 7777');
      const zh = `zh-${n}@example.com`;
      await t.call('/cloud/v5/share/email', { shareId: s.shareId, emails: [zh], language: 'zh' }, a.token);
      expect((await t.db.db.selectFrom('mail_outbox').select('text').where('to_addr', 'like', `%${zh}%`).executeTakeFirstOrThrow()).text).toContain(`提取码: ${s.code}`);

      const real = t.deps.mailer;
      t.deps.mailer = { name: 'smtp', send: async () => { throw new Error('smtp down'); } };
      try {
        const fail = await t.call('/cloud/v5/share/email', { shareId: s.shareId, emails: [to] }, a.token);
        expect([fail.bizData.code, fail.msg]).toEqual(['share.emailFailed', 'email send fail']);
      } finally {
        t.deps.mailer = real;
      }
    }, 60_000);

    it('opens a shared drawing in the viewer for a visitor with the share token, not with another share\'s token', async () => {
      const f = await tree();
      const scene = (fileId: string, shareToken?: string, header = false) =>
        t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${fileId}${shareToken && !header ? `&shareToken=${encodeURIComponent(shareToken)}` : ''}`, headers: { 'accept-language': 'en', ...(header && shareToken ? { 'x-share-token': shareToken } : {}) } });
      const folder = await shareAndToken({ folderIds: [f.folder] });
      const file = await shareAndToken({ fileIds: [f.loose] });
      const inFolder = await scene(f.inner, folder.token);
      expect(inFolder.statusCode).toBe(200);
      expect(inFolder.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      expect((await scene(f.loose, file.token, true)).headers['content-type']).toBe('application/vnd.cadcloud.scene');
      // the other share's token does not open this file; no token at all needs a ticket
      const foreign = await scene(f.inner, file.token);
      expect(foreign.json().bizData.code).toBe('drawing.noPermission');
      expect((await scene(f.loose, folder.token)).json().bizData.code).toBe('drawing.noPermission');
      expect((await scene(f.inner)).statusCode).toBe(401);
      // drawn with the sharer's fonts, whoever looks (a visitor, or B signed in without that font)
      const boundary = `----font${Date.now()}`;
      const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="zfont-${n}.shx"\r\nContent-Type: application/octet-stream\r\n\r\n`), ZFONT, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      expect((await t.app.inject({ method: 'POST', url: `/cloud/v5/font/upload?utoken=${encodeURIComponent(a.token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body })).json().rtnCode).toBe('0000000');
      const styled = (await t.upload(a.token, `styled-${n}.dxf`, drawingWithStyle(`zfont-${n}.shx`))).bizData.id;
      const st = await shareAndToken({ fileIds: [styled] });
      for (const url of [`/cloud/v5/drawing/scene?fileId=${styled}&shareToken=${encodeURIComponent(st.token)}`, `/cloud/v5/drawing/scene?fileId=${styled}&shareToken=${encodeURIComponent(st.token)}&utoken=${encodeURIComponent(b.token)}`]) {
        const sc = decodeScene(new Uint8Array((await t.app.inject({ method: 'GET', url })).rawPayload));
        expect(sc.meta.fonts?.substituted).toEqual([]);
        expect(sc.lineEntities.length).toBe(9);
      }
      // cancelled: refused with the reason
      await t.call('/cloud/v5/share/cancel', { shareIds: [folder.s.shareId] }, a.token);
      expect((await scene(f.inner, folder.token)).json().bizData.code).toBe('share.cancelled');
    }, 180_000);

    it('authorization: sharer calls need a ticket, visitor calls need none', async () => {
      const f = await tree();
      const s = (await create({ fileIds: [f.loose] })).bizData;
      for (const [p, data] of [
        ['/cloud/v5/share/create', { fileIds: [f.loose] }],
        ['/cloud/v5/share/list', {}],
        ['/cloud/v5/share/update', { shareId: s.shareId, password: '1111' }],
        ['/cloud/v5/share/cancel', { shareIds: [s.shareId] }],
        ['/cloud/v5/share/email', { shareId: s.shareId, emails: ['x@example.com'] }],
        ['/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: 'x', fileIds: [f.loose] }],
      ] as const) {
        const r = await t.call(p, data);
        expect([p, r.rtnCode]).toEqual([p, '101']);
      }
      expect((await t.db.db.selectFrom('shares').select(['password', 'cancelled_at']).where('id', '=', s.shareId).executeTakeFirstOrThrow())).toEqual({ password: '', cancelled_at: null });
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: s.rand })).rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/easyShare/getInfoByRand', { rand: s.rand })).rtnCode).toBe('0000000');
      expect((await ext(s.rand, s.code, '', '10.200.0.1')).rtnCode).toBe('0000000');
      // all documented in /api/docs
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['share/create', 'share/list', 'share/update', 'share/cancel', 'share/email', 'share/getInfoByRand', 'easyShare/getInfoByRand', 'share/extract', 'share/files', 'share/download', 'file/share/copyFoldersAndFiles', 'file/getProductItemById']) {
        expect(doc.paths[`/cloud/v5/${p}`]?.post, p).toBeTruthy();
      }
      // a public item is readable without a ticket
      await t.db.db.updateTable('items').set({ private_type: '0' }).where('id', '=', f.top).execute();
      expect((await t.call('/cloud/v5/file/getProductItemById', { fileId: f.top })).bizData).toMatchObject({ id: f.top, privateType: '0' });
    }, 60_000);

    it('offers the groups module createShareRecord, issueShareToken, findActive and cancelShareRecord', async () => {
      const f = await tree();
      const svc = createSharesService(t.deps);
      const g = (await t.call('/cloud/v5/group/create', { name: `g-${n}`, introduction: '' }, a.token)).bizData.groupId as string;
      const row = await svc.createShareRecord(a.id, { folderIds: [f.folder], kind: 'group', groupId: g, rights: { canDownload: true, canSave: false, showNotes: true }, validDays: 0 });
      expect(row).toMatchObject({ kind: 'group', group_id: g, can_download: 1, can_save: 0, show_notes: 1, expires_at: null });
      // a group share's token is its member's: with their session only
      const token = await svc.issueShareToken(row.id, a.id);
      expect((await t.call('/cloud/v5/share/files', { shareToken: token, folderId: f.folder }, a.token)).rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/share/files', { shareToken: token, folderId: f.folder })).bizData.code).toBe('share.tokenInvalid');
      expect((await svc.findActive(row.id))?.live.map((r) => r.id)).toEqual([f.folder]);
      await svc.cancelShareRecord(row.id);
      expect((await t.call('/cloud/v5/share/files', { shareToken: token }, a.token)).bizData.code).toBe('share.cancelled');
      expect(await svc.findActive(row.id)).toBeUndefined();
      await expect(svc.issueShareToken(row.id)).rejects.toMatchObject({ code: 'share.cancelled' });
      await expect(svc.createShareRecord(b.id, { fileIds: [f.loose], kind: 'group', groupId: 'g1', rights: { canDownload: false, canSave: false, showNotes: false }, validDays: 0 })).rejects.toMatchObject({ code: 'share.createFailed' });
    }, 60_000);
  });
}
