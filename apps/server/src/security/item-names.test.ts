/**
 * Issue 14, item 13 (names): Windows device names (CON, nul.txt, LPT1.tar.gz …), bidi controls such as U+202E
 * RIGHT-TO-LEFT OVERRIDE that disguise an extension, other control characters, stems of only dots and trailing
 * dots were accepted everywhere a name enters. Each is refused with the spec's bad-name message
 * ("Names cannot contain special characters …", code name.invalid), and nothing is created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../test/fixtures.ts';

const BAD_NAMES = [
  'CON', 'con.dwg', 'Aux.txt', 'NUL', 'prn.tar.gz', 'COM1.dwg', 'lpt9', 'CON .dwg', 'COM¹.dwg',
  'invoice\u202Egpj.exe', 'a\u202Db.dwg', 'x\u2066y.dwg', 'mark\u200F.dwg',
  'tab\there.dwg', 'bell\u0007.dwg', 'del\u007F.dwg', 'c1\u0085.dwg', 'line\u2028sep.dwg',
  '.', '..', '...', '. .', '..dwg', '...dwg', 'plan.', 'plan.dwg.',
];

for (const driver of testDatabaseDrivers()) {
  describe(`bad names on ${driver.name}`, () => {
    let t: TestApp;
    let u: Awaited<ReturnType<TestApp['createUser']>>;
    beforeAll(async () => {
      t = await createTestApp(driver);
      u = await t.createUser();
    });
    afterAll(async () => t?.close());

    const expectBadName = (r: { rtnCode: string; bizData: { code?: string }; msg: string }, what: string) => {
      expect(r.bizData?.code, what).toBe('name.invalid');
      expect(r.msg, what).toMatch(/special characters/);
    };

    /** Multipart with the name as RFC 5987 `filename*` (control characters cannot go in a quoted header value). */
    async function upload(token: string, url: string, name: string, body: Buffer, fields: Record<string, string> = {}) {
      const boundary = `----names${Math.random()}`;
      const parts: Buffer[] = [];
      for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename*=UTF-8''${encodeURIComponent(name)}\r\nContent-Type: application/octet-stream\r\n\r\n`), body, Buffer.from(`\r\n--${boundary}--\r\n`));
      const r = await t.app.inject({ method: 'POST', url: `${url}?utoken=${encodeURIComponent(token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' }, payload: Buffer.concat(parts) });
      return r.json();
    }

    const liveNames = async (uid: string) => (await t.db.db.selectFrom('items').select('name').where('uid', '=', uid).where('deleted_at', 'is', null).execute()).map((r) => r.name).sort();

    it('refuses them in folder create and rename, file rename, every upload path and folder upload paths', async () => {
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Ok' }, u.token)).bizData.id;
      const file = (await t.upload(u.token, 'ok.dwg', randomBytes(32))).bizData.id;
      // bytes the server knows (another user's), so the instant path reaches the name
      const known = randomBytes(48);
      const other = await t.createUser();
      await t.upload(other.token, 'known.dwg', known);
      const before = await liveNames(u.id);
      for (const name of BAD_NAMES) {
        expectBadName(await t.call('/cloud/v5/folder/edit', { parentId: '0', name }, u.token), `create ${JSON.stringify(name)}`);
        expectBadName(await t.call('/cloud/v5/folder/edit', { folderId: folder, name }, u.token), `rename folder ${JSON.stringify(name)}`);
        expectBadName(await t.call('/cloud/v5/file/edit', { fileId: file, name }, u.token), `rename file ${JSON.stringify(name)}`);
        expectBadName(await upload(u.token, '/cloud/v5/file/upload', name, randomBytes(16)), `upload ${JSON.stringify(name)}`);
        expectBadName(await t.call('/cloud/v5/file/detectUpload', { parentId: '0', name, md5: md5(known), size: known.length }, u.token), `instant ${JSON.stringify(name)}`);
        const body = randomBytes(24);
        expectBadName(await t.call('/cloud/v5/upload/init', { parentId: '0', name, md5: md5(body), size: body.length }, u.token), `chunked ${JSON.stringify(name)}`);
        // a folder upload: the bad part anywhere in the path, and no folder made before it was refused
        for (const relativePath of [`Project/${name}/a.dwg`, `${name}/a.dwg`, `Project/${name}`]) {
          expectBadName(await upload(u.token, '/cloud/v5/file/upload', 'a.dwg', randomBytes(16), { parentId: '0', relativePath }), `folder upload ${JSON.stringify(relativePath)}`);
        }
        expectBadName(await t.call('/cloud/v5/folder/detectUpload', { parentId: '0', name }, u.token), `detect folder ${JSON.stringify(name)}`);
      }
      expect(await liveNames(u.id)).toEqual(before);
      // names that only look odd are still fine
      for (const name of ['CONSOLE.dwg', 'COM10.dwg', '.gitignore', 'plan .dwg', '图纸 A.dwg', 'family 👨‍👩‍👧.png']) {
        expect((await upload(u.token, '/cloud/v5/file/upload', name, randomBytes(16))).bizData.name).toBe(name);
      }
    });

    it('refuses them for fonts (upload and rename)', async () => {
      const ttf = () => Buffer.concat([Buffer.from('0001000000010010000300000000', 'hex'), Buffer.from('head'), Buffer.alloc(12), randomBytes(8)]);
      for (const name of ['CON.ttf', 'nul.shx', 'x\u202Efft.ttf', 'bell\u0007.ttf', '..ttf']) expectBadName(await upload(u.token, '/cloud/v5/font/upload', name, ttf()), `font upload ${JSON.stringify(name)}`);
      const font = await upload(u.token, '/cloud/v5/font/upload', 'good.ttf', ttf());
      expect(font.rtnCode, font.msg).toBe('0000000');
      for (const name of ['CON', 'LPT1', 'a\u202Eb', 'tab\tx', '..']) expectBadName(await t.call('/cloud/v5/font/rename', { id: font.bizData.id, name }, u.token), `font rename ${JSON.stringify(name)}`);
    });

    it('refuses to save a shared folder holding a name stored before these rules', async () => {
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Legacy' }, u.token)).bizData.id;
      const file = (await t.upload(u.token, 'fine.dwg', randomBytes(32), { parentId: folder })).bizData.id;
      await t.db.db.updateTable('items').set({ name: 'CON.dwg' }).where('id', '=', file).execute();
      const share = (await t.call('/cloud/v5/share/create', { folderIds: [folder], validDays: 1, canSave: true }, u.token)).bizData;
      const x = await t.call('/cloud/v5/share/extract', { rand: share.rand, code: share.code, password: share.password ?? '' });
      const saver = await t.createUser();
      expectBadName(await t.call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: x.bizData.shareToken, folderIds: [folder], targetFolderId: '0' }, saver.token), 'save from a share');
      expect(await liveNames(saver.id)).toEqual([]);
      expect((await t.usage(saver.id)).used).toBe(0);
    });
  });
}
