import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, s3TestEnv, type TestApp } from '../../test/fixtures.ts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { until } from '../../test/until.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { sampleDxf } from '../../test/dxf-fixtures.ts';
import type { StorageDriver } from '../../infra/storage/storage.types.ts';
import { registerUnzipJobs } from './unzip.jobs.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createUnzipService, derivedId, UNZIP_ATTEMPTS } from './unzip.service.ts';
import { claiming, lieAboutSize, makeWith7Zip, makeZip, overlapping, rawZip, type TestEntry } from './test-archives.ts';
import { readFileSync } from 'node:fs';

type User = Awaited<ReturnType<TestApp['createUser']>>;

async function readAll(s: NodeJS.ReadableStream) {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const SOURCE: TestEntry[] = [
  { name: '图纸/', data: null },
  { name: '图纸/平面图.dxf', data: new Uint8Array(sampleDxf()) },
  { name: '图纸/空文件夹/', data: null },
  { name: '图纸/立面/东立面.bin', data: new Uint8Array(randomBytes(300_000)) },
  { name: 'empty.txt', data: new Uint8Array() },
  { name: 'nested.zip', data: new Uint8Array(randomBytes(500)) },
];

for (const driver of testDatabaseDrivers()) {
  describe(`decompression on ${driver.name}`, () => {
    let t: TestApp;
    let a: User;
    let jobsOn = false;
    const runJobs = () => {
      if (!jobsOn) registerUnzipJobs(t.deps.queue, t.deps);
      jobsOn = true;
    };
    const call = (token: string, p: string, data: unknown) => t.call(p, data, token);
    const status = async (token: string, taskId: string) => (await call(token, '/cloud/v5/zip/task/taskStatus', { taskId })).bizData;
    const settled = (token: string, taskId: string, done = [2, 3, 5, 6]) =>
      until(async () => {
        const s = await status(token, taskId);
        return done.includes(s.status) ? s : undefined;
      }, 60_000);
    /** The tree under a folder: path → bytes (folders as null). */
    async function tree(uid: string, folderId: string): Promise<Map<string, Buffer | null>> {
      const out = new Map<string, Buffer | null>();
      const walk = async (id: string, prefix: string) => {
        const rows = await t.db.db.selectFrom('items').selectAll().where('uid', '=', uid).where('parent_id', '=', id).where('deleted_at', 'is', null).execute();
        for (const r of rows) {
          const p = prefix + r.name;
          if (r.kind === 0) {
            out.set(`${p}/`, null);
            await walk(r.id, `${p}/`);
          } else out.set(p, await readAll(await t.deps.storage.get(blobKey(r.blob_md5!))));
        }
      };
      await walk(folderId, '');
      return out;
    }
    /** The tree an archive's entries make: its folders (those its paths imply too) and files. */
    const expected = (entries: TestEntry[]) => {
      const m = new Map<string, Buffer | null>();
      for (const e of entries) {
        const parts = e.name.replace(/\/$/, '').split('/');
        for (let i = 1; i < parts.length; i++) m.set(`${parts.slice(0, i).join('/')}/`, null);
        m.set(e.name, e.data === null ? null : Buffer.from(e.data));
      }
      return m;
    };
    const itemCount = async (uid: string) => Number((await t.db.db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')).where('uid', '=', uid).executeTakeFirstOrThrow()).n);

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser({ quota: 500 * 1024 * 1024 });
    });
    afterAll(async () => t?.close());

    it('queue rule: a second unzip of an archive with an unfinished task is refused; a frozen account cannot decompress', async () => {
      const zip = (await t.upload(a.token, 'queued.zip', Buffer.from(await makeZip([{ name: 'a.txt', data: new Uint8Array([1]) }])))).bizData;
      const first = await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id });
      expect(first.rtnCode).toBe('0000000');
      expect(first.bizData).toMatchObject({ taskType: 2, status: 0, name: 'queued.zip', unzip: { fileId: zip.id, entriesDone: 0 } });
      const again = await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id, mode: 'new' });
      expect(again.bizData.code).toBe('unzip.alreadyQueued');
      expect((await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: zip.id })).bizData.taskId).toBe(first.bizData.taskId);
      const frozen = await t.createUser();
      const fz = (await t.upload(frozen.token, 'f.zip', Buffer.from(await makeZip([{ name: 'a.txt', data: new Uint8Array([1]) }])))).bizData;
      await t.db.db.updateTable('users').set({ freeze: 1 }).where('id', '=', frozen.id).execute();
      expect((await call(frozen.token, '/cloud/v5/file/unzip', { fileId: fz.id })).bizData.code).toBe('account.frozen');
      // one decompression per user at a time: with one running, the next one waits its turn
      const service = createUnzipService(t.deps);
      const other = (await t.upload(a.token, 'second.zip', Buffer.from(await makeZip([{ name: 'b.txt', data: new Uint8Array([2]) }])))).bizData;
      const second = await service.request({ ...a, freeze: 0 }, { fileId: other.id });
      await t.db.db.updateTable('zip_tasks').set({ status: 1 }).where('id', '=', first.bizData.taskId).execute();
      expect(await service.run(second.taskId, { attempt: 1, progress: async () => undefined })).toBe('later');
      await t.db.db.updateTable('zip_tasks').set({ status: 0 }).where('id', '=', first.bizData.taskId).execute();
      runJobs();
      expect(await settled(a.token, first.bizData.taskId)).toMatchObject({ status: 2 });
      expect(await settled(a.token, second.taskId)).toMatchObject({ status: 2 });
    });

    it('extracts a zip (nested and empty folders, Chinese names, a 0-byte file, a nested archive kept as a file) byte for byte, next to it, quota counted, drawings get their thumbnail job', async () => {
      runJobs();
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Inbox' }, a.token)).bizData;
      const bytes = Buffer.from(await makeZip(SOURCE, { gbkNames: true }));
      const zip = (await t.upload(a.token, 'plans.zip', bytes, { parentId: folder.id })).bizData;
      const before = (await t.usage(a.id)).used;
      const d = (await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: zip.id })).bizData;
      const total = SOURCE.reduce((s, e) => s + (e.data?.length ?? 0), 0);
      expect(d).toMatchObject({ format: 'zip', hasRepeat: false, folderId: null, folderName: 'plans', needPassword: false, entryCount: SOURCE.length, totalSize: total, taskId: null });
      const task = (await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
      const done = await settled(a.token, task.taskId);
      expect(done).toMatchObject({ status: 2, progress: 100, response: null, unzip: { fileId: zip.id, format: 'zip', entriesDone: 4, entriesTotal: 4, bytesDone: total, bytesTotal: total, reports: [] } });
      const out = (await t.db.db.selectFrom('items').selectAll().where('id', '=', done.unzip.folderId).executeTakeFirstOrThrow());
      expect(out).toMatchObject({ name: 'plans', parent_id: folder.id, kind: 0 });
      expect(await tree(a.id, out.id)).toEqual(expected(SOURCE));
      expect((await t.usage(a.id)).used).toBe(before + total);
      const dxf = await t.db.db.selectFrom('items').select(['blob_md5']).where('uid', '=', a.id).where('name', '=', '平面图.dxf').executeTakeFirstOrThrow();
      const jobs = await t.db.db.selectFrom('jobs').select(['id', 'name']).execute();
      expect(jobs.some((j) => j.id.includes(dxf.blob_md5!))).toBe(true);
      // the same archive again: the same-name folder is found, refused without mode, renamed with mode "new"
      const d2 = (await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: zip.id })).bizData;
      expect(d2).toMatchObject({ hasRepeat: true, folderId: out.id, newFolderName: 'plans (1)' });
      expect((await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData.code).toBe('unzip.folderExists');
      const again = (await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id, mode: 'new' })).bizData;
      const done2 = await settled(a.token, again.taskId);
      expect(done2.status).toBe(2);
      const out2 = await t.db.db.selectFrom('items').selectAll().where('id', '=', done2.unzip.folderId).executeTakeFirstOrThrow();
      expect(out2.name).toBe('plans (1)');
      expect(await tree(a.id, out2.id)).toEqual(expected(SOURCE));
      // stored once: the second copy added no blob
      const blobs = await t.db.db.selectFrom('blobs').select('md5').where('md5', '=', md5(Buffer.from(SOURCE[3].data!))).execute();
      expect(blobs).toHaveLength(1);
      expect((await t.usage(a.id)).used).toBe(before + 2 * total);
      const listed = (await call(a.token, '/cloud/v5/zip/task/list', { taskType: 2 })).bizData.list;
      expect(listed.map((x: any) => x.taskId)).toEqual(expect.arrayContaining([task.taskId, again.taskId]));
      expect(listed.every((x: any) => x.taskType === 2 && x.unzip)).toBe(true);
    });

    it.each([
      ['ZipCrypto', { zipCrypto: true }],
      ['AES-256', { encryptionStrength: 3 as const }],
    ])('password flow (%s): status 6 without, 5 wrong with unzip.wrongPassword, then the right one extracts', async (_l, o) => {
      runJobs();
      const entries: TestEntry[] = [{ name: '机密/图.bin', data: new Uint8Array(randomBytes(50_000)) }];
      const zip = (await t.upload(a.token, `secret-${_l}.zip`, Buffer.from(await makeZip(entries, { password: '正确pw', ...o })))).bizData;
      const before = (await t.usage(a.id)).used;
      expect((await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: zip.id })).bizData.needPassword).toBe(true);
      expect((await call(a.token, '/cloud/v5/file/unzipHasPassword', { fileId: zip.id, password: 'nope' })).bizData).toEqual({ correct: false });
      expect((await call(a.token, '/cloud/v5/file/unzipHasPassword', { fileId: zip.id, password: '正确pw' })).bizData).toEqual({ correct: true });
      const task = (await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
      expect(await settled(a.token, task.taskId)).toMatchObject({ status: 6, response: 'unzip.passwordRequired' });
      const row = await t.db.db.selectFrom('zip_tasks').selectAll().where('id', '=', task.taskId).executeTakeFirstOrThrow();
      expect(row.password_enc).toBeNull();
      expect((await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id, password: 'wrong' })).bizData.taskId).toBe(task.taskId);
      expect(await settled(a.token, task.taskId)).toMatchObject({ status: 5, response: 'unzip.wrongPassword' });
      // sealed at rest: the password is not in the row in clear
      const sealed = (await t.db.db.selectFrom('zip_tasks').select('password_enc').where('id', '=', task.taskId).executeTakeFirstOrThrow()).password_enc;
      expect(sealed).toBeTruthy();
      expect(sealed).not.toContain('wrong');
      expect((await t.usage(a.id)).used).toBe(before);
      await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id, password: '正确pw' });
      const done = await settled(a.token, task.taskId);
      expect(done).toMatchObject({ status: 2 });
      expect(await tree(a.id, done.unzip.folderId)).toEqual(expected([{ name: '机密/', data: null }, ...entries]));
      // erased when the task ended
      expect((await t.db.db.selectFrom('zip_tasks').select('password_enc').where('id', '=', task.taskId).executeTakeFirstOrThrow()).password_enc).toBeNull();
    });

    // 7z, rar and tar through the whole task (issue 18 part 1): detect, the password's statuses, the tree byte for byte
    const RAR_ABCD: TestEntry[] = ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((n) => ({ name: n, data: new Uint8Array(Buffer.from(`This is from ${n}`)) }));
    const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));
    it.each([
      ['7z with encrypted headers', 'plans.7z', '7z', async () => makeWith7Zip(SOURCE, '7z', { password: '正确pw', encryptHeaders: true }), '正确pw', SOURCE],
      ['RAR 5 with encrypted headers', 'abcd.rar', 'rar', async () => fixture('rar5-solid-encrypted-filenames.rar'), 'password', RAR_ABCD],
      ['RAR 4 with a password', 'abcd4.rar', 'rar', async () => fixture('rar4-solid-encrypted.rar'), 'password', RAR_ABCD],
    ] as const)('%s: detect needs the password, status 6 without it, 5 with a wrong one, then the right one extracts byte for byte', async (_l, name, format, make, password, entries) => {
      runJobs();
      const archive = (await t.upload(a.token, name, Buffer.from(await make()))).bizData;
      const before = (await t.usage(a.id)).used;
      expect((await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: archive.id })).bizData).toMatchObject({ format, needPassword: true, hasRepeat: false });
      expect((await call(a.token, '/cloud/v5/file/unzipHasPassword', { fileId: archive.id, password: 'nope' })).bizData).toEqual({ correct: false });
      expect((await call(a.token, '/cloud/v5/file/unzipHasPassword', { fileId: archive.id, password })).bizData).toEqual({ correct: true });
      const task = (await call(a.token, '/cloud/v5/file/unzip', { fileId: archive.id })).bizData;
      expect(await settled(a.token, task.taskId)).toMatchObject({ status: 6, response: 'unzip.passwordRequired' });
      await call(a.token, '/cloud/v5/file/unzip', { fileId: archive.id, password: 'wrong' });
      expect(await settled(a.token, task.taskId)).toMatchObject({ status: 5, response: 'unzip.wrongPassword' });
      expect((await t.usage(a.id)).used).toBe(before);
      await call(a.token, '/cloud/v5/file/unzip', { fileId: archive.id, password });
      const done = await settled(a.token, task.taskId);
      const total = entries.reduce((s, e) => s + (e.data?.length ?? 0), 0);
      expect(done).toMatchObject({ status: 2, response: null, unzip: { format, bytesDone: total } });
      expect(await tree(a.id, done.unzip.folderId)).toEqual(expected(entries));
      expect((await t.usage(a.id)).used).toBe(before + total);
    });

    it('RAR 4 without a password and a tar.gz (nested and empty folders, Chinese names, a 0-byte file) extract byte for byte', async () => {
      runJobs();
      const rar = (await t.upload(a.token, 'test4.rar', fixture('rar4.rar'))).bizData;
      const task = (await call(a.token, '/cloud/v5/file/unzip', { fileId: rar.id })).bizData;
      const done = await settled(a.token, task.taskId);
      expect(done).toMatchObject({ status: 2, unzip: { format: 'rar' } });
      const doc = Buffer.from('test text document\r\n');
      // 7-Zip reads RAR 4's Unix link as a plain file holding its target's name: a file, never a link
      expect(await tree(a.id, done.unzip.folderId)).toEqual(new Map<string, Buffer | null>([['test.txt', doc], ['testlink', Buffer.from('test.txt')], ['testdir/', null], ['testdir/test.txt', doc], ['testemptydir/', null]]));
      const tgz = (await t.upload(a.token, '图纸集.tar.gz', await makeWith7Zip(SOURCE, 'tar.gz'))).bizData;
      expect((await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: tgz.id })).bizData).toMatchObject({ format: 'tar', folderName: '图纸集', needPassword: false });
      const task2 = (await call(a.token, '/cloud/v5/file/unzip', { fileId: tgz.id })).bizData;
      const done2 = await settled(a.token, task2.taskId);
      expect(done2).toMatchObject({ status: 2, unzip: { format: 'tar' } });
      expect((await t.db.db.selectFrom('items').select('name').where('id', '=', done2.unzip.folderId).executeTakeFirstOrThrow()).name).toBe('图纸集');
      expect(await tree(a.id, done2.unzip.folderId)).toEqual(expected(SOURCE));
    });

    it('a 7z bomb fails on its ratio (unzip.ratio) and leaves storage and the drive as they were', async () => {
      runJobs();
      const u = await t.createUser({ quota: 500 * 1024 * 1024 });
      const bomb = await makeWith7Zip([{ name: 'zeros.bin', data: new Uint8Array(64 << 20) }], '7z');
      expect(bomb.length).toBeLessThan(1 << 20);
      const archive = (await t.upload(u.token, 'bomb.7z', bomb)).bizData;
      const before = { used: (await t.usage(u.id)).used, items: await itemCount(u.id) };
      expect((await call(u.token, '/cloud/v5/file/detectUnzip', { fileId: archive.id })).bizData.code).toBe('unzip.ratio');
      const task = (await call(u.token, '/cloud/v5/file/unzip', { fileId: archive.id })).bizData;
      expect(await settled(u.token, task.taskId)).toMatchObject({ status: 3, response: 'unzip.ratio' });
      expect((await t.usage(u.id)).used).toBe(before.used);
      expect(await itemCount(u.id)).toBe(before.items);
    });

    it("reads a zip's legacy names as EUC-KR for a Korean user and Shift-JIS for a Japanese one (the task keeps the language)", async () => {
      runJobs();
      const b = (...x: number[]) => new Uint8Array(x);
      // '도면/도면.dwg' in EUC-KR; '図面ｶ.dxf' in Shift-JIS (no UTF-8 flag, as Korean and Japanese Windows write them)
      const korean = rawZip([{ name: b(0xb5, 0xb5, 0xb8, 0xe9, 0x2f, 0xb5, 0xb5, 0xb8, 0xe9, 0x2e, 0x64, 0x77, 0x67), data: b(1, 2, 3) }]);
      const japanese = rawZip([{ name: b(0x90, 0x7d, 0x96, 0xca, 0xb6, 0x2e, 0x64, 0x78, 0x66), data: b(4) }]);
      for (const [name, bytes, lang, want] of [['ko.zip', korean, 'ko-KR', '도면/도면.dwg'], ['ja.zip', japanese, 'ja', '図面ｶ.dxf']] as const) {
        const zip = (await t.upload(a.token, name, Buffer.from(bytes))).bizData;
        const task = (await t.call('/cloud/v5/file/unzip', { fileId: zip.id }, a.token, lang)).bizData;
        expect((await t.db.db.selectFrom('zip_tasks').select('names_language').where('id', '=', task.taskId).executeTakeFirstOrThrow()).names_language).toBe(lang);
        const done = await settled(a.token, task.taskId);
        expect(done.status).toBe(2);
        expect([...(await tree(a.id, done.unzip.folderId)).keys()].filter((k) => !k.endsWith('/'))).toEqual([want]);
      }
      // the web app sends its UI language ("en": it has no Japanese); the browser's Accept-Language still says ja
      const zip = (await t.upload(a.token, 'ja-browser.zip', Buffer.from(japanese))).bizData;
      const r = await t.app.inject({ method: 'POST', url: `/cloud/v5/file/unzip?utoken=${encodeURIComponent(a.token)}`, headers: { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.8' }, payload: { data: { fileId: zip.id }, clientInfo: { clientType: 'Web_PC', language: 'en' } } });
      const task = r.json().bizData;
      expect((await t.db.db.selectFrom('zip_tasks').select('names_language').where('id', '=', task.taskId).executeTakeFirstOrThrow()).names_language).toBe('ja-JP');
      const done = await settled(a.token, task.taskId);
      expect([...(await tree(a.id, done.unzip.folderId)).keys()]).toEqual(['図面ｶ.dxf']);
    });

    it('rights: open to every account by default; UNZIP_MEMBERS_ONLY=true refuses non-members (unzip.membersOnly) and lets members decompress', async () => {
      expect((await t.db.db.selectFrom('users').select('vip_type').where('id', '=', a.id).executeTakeFirstOrThrow()).vip_type).toBe(0);
      const open = (await t.upload(a.token, 'open.zip', Buffer.from(await makeZip([{ name: 'x.txt', data: new Uint8Array([1]) }])))).bizData;
      expect((await call(a.token, '/cloud/v5/file/detectUnzip', { fileId: open.id })).rtnCode).toBe('0000000');
      const m = await createTestApp(driver, { UNZIP_MEMBERS_ONLY: 'true' });
      try {
        registerUnzipJobs(m.deps.queue, m.deps);
        const u = await m.createUser();
        const zip = (await m.upload(u.token, 'm.zip', Buffer.from(await makeZip([{ name: 'x.txt', data: new Uint8Array([1]) }])))).bizData;
        for (const p of ['/cloud/v5/file/detectUnzip', '/cloud/v5/file/unzip']) {
          const r = await m.call(p, { fileId: zip.id }, u.token, 'de');
          expect([p, r.rtnCode, r.bizData.code]).toEqual([p, '1016013', 'unzip.membersOnly']);
          expect(r.msg).toContain('Mitgliedern');
        }
        expect(await m.db.db.selectFrom('zip_tasks').selectAll().where('uid', '=', u.id).execute()).toEqual([]);
        await m.db.db.updateTable('users').set({ vip_type: 1 }).where('id', '=', u.id).execute();
        const task = (await m.call('/cloud/v5/file/unzip', { fileId: zip.id }, u.token)).bizData;
        const end = await until(async () => {
          const s = (await m.call('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId }, u.token)).bizData;
          return s.status >= 2 ? s : undefined;
        }, 60_000);
        expect(end.status).toBe(2);
      } finally {
        await m.close();
      }
    });

    it('hostile archives end with a clear status and message; nothing outside the folder, used storage unchanged', async () => {
      runJobs();
      const u = await t.createUser({ quota: 500 * 1024 * 1024 });
      const many = rawZip(Array.from({ length: 100_000 }, (_, i) => ({ name: `f${i}`, data: new Uint8Array([i & 255]) })));
      const truncated = (await makeZip([{ name: 'x.bin', data: new Uint8Array(randomBytes(100_000)) }], { level: 0 })).subarray(0, 50_000);
      const cut = Buffer.from(await makeZip([{ name: 'x.bin', data: new Uint8Array(randomBytes(100_000)) }], { level: 0 }));
      cut.fill(0, 40, 60_000);
      const cases: [string, Uint8Array, string, number?][] = [
        // 10 GB of zeros (said in zip64 fields over 1 MiB of deflated zeros: the listing refuses it on its ratio)
        ['bomb.zip', claiming(10 * 1024 ** 3, 1 << 20), 'unzip.ratio'],
        ['large.zip', claiming(3_000_000_000, 0, randomBytes(16 << 20)), 'unzip.tooLarge'],
        ['ratio.zip', await makeZip([{ name: 'zeros.bin', data: new Uint8Array(64 << 20) }]), 'unzip.ratio'],
        ['liar.zip', lieAboutSize(await makeZip([{ name: 'liar.bin', data: new Uint8Array(500_000).fill(7) }, { name: 'after.txt', data: new Uint8Array([1]) }]), 'liar.bin', 1000), 'unzip.damaged'],
        ['many.zip', many, 'unzip.tooManyEntries'],
        // an overlapping bomb: 50 names for one entry's bytes; within every limit on paper, refused on reading
        ['overlap.zip', overlapping(await makeZip([{ name: 'shared.bin', data: new Uint8Array(randomBytes(20_000)) }]), 50), 'unzip.damaged'],
        ['truncated.zip', truncated, 'unzip.notArchive'],
        ['cut.zip', cut, 'unzip.damaged'],
        ['random.zip', new Uint8Array(randomBytes(10_000)), 'unzip.notArchive'],
      ];
      for (const [name, bytes, code] of cases) {
        const zip = (await t.upload(u.token, name, Buffer.from(bytes))).bizData;
        const before = { used: (await t.usage(u.id)).used, items: await itemCount(u.id) };
        const task = (await call(u.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
        expect(task.taskId, name).toBeTruthy();
        const end = await settled(u.token, task.taskId);
        expect([name, end.status, end.response]).toEqual([name, 3, code]);
        expect((await t.usage(u.id)).used, name).toBe(before.used);
        expect(await itemCount(u.id), name).toBe(before.items);
      }
      // zip-slip and links: refused one by one and reported, the safe entries extracted inside the folder only
      const slip = rawZip([
        { name: '../evil.txt', data: new Uint8Array([1]) },
        { name: '/abs.txt', data: new Uint8Array([2]) },
        { name: 'C:\\win.txt', data: new Uint8Array([3]) },
        { name: 'ok/../../../up.txt', data: new Uint8Array([4]) },
        { name: 'link', data: new TextEncoder().encode('/etc/passwd'), unixMode: 0o120777 },
        { name: 'safe/a:b.txt', data: new Uint8Array([5]) },
      ]);
      const zip = (await t.upload(u.token, 'slip.zip', Buffer.from(slip))).bizData;
      const rootBefore = (await t.db.db.selectFrom('items').select('name').where('uid', '=', u.id).where('parent_id', '=', '0').execute()).map((r) => r.name).sort();
      const task = (await call(u.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
      const end = await settled(u.token, task.taskId);
      expect(end.status).toBe(2);
      expect(end.unzip.reports).toEqual([
        { name: '../evil.txt', action: 'refused', to: null, reason: 'parent-path' },
        { name: '/abs.txt', action: 'refused', to: null, reason: 'absolute-path' },
        { name: 'C:\\win.txt', action: 'refused', to: null, reason: 'drive-letter' },
        { name: 'ok/../../../up.txt', action: 'refused', to: null, reason: 'parent-path' },
        { name: 'link', action: 'refused', to: null, reason: 'symlink' },
        { name: 'safe/a:b.txt', action: 'renamed', to: 'safe/a_b.txt', reason: 'forbidden-chars' },
      ]);
      expect(await tree(u.id, end.unzip.folderId)).toEqual(new Map([['safe/', null], ['safe/a_b.txt', Buffer.from([5])]]));
      const rootAfter = (await t.db.db.selectFrom('items').select('name').where('uid', '=', u.id).where('parent_id', '=', '0').execute()).map((r) => r.name).sort();
      expect(rootAfter).toEqual([...rootBefore, 'slip'].sort());
    }, 120_000);

    it('duplicate names inside one folder are numbered and reported', async () => {
      runJobs();
      const zip = (await t.upload(a.token, 'dups.zip', Buffer.from(rawZip([{ name: 'd/x.txt', data: new Uint8Array([1]) }, { name: 'd/x.txt', data: new Uint8Array([2]) }, { name: 'd/x?.txt', data: new Uint8Array([3]) }, { name: 'd/x_.txt', data: new Uint8Array([4]) }])))).bizData;
      const task = (await call(a.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
      const end = await settled(a.token, task.taskId);
      expect(end.status).toBe(2);
      expect(await tree(a.id, end.unzip.folderId)).toEqual(new Map([['d/', null], ['d/x.txt', Buffer.from([1])], ['d/x (1).txt', Buffer.from([2])], ['d/x_.txt', Buffer.from([3])], ['d/x_ (1).txt', Buffer.from([4])]]));
      expect(end.unzip.reports).toEqual([
        { name: 'd/x.txt', action: 'renamed', to: 'd/x (1).txt', reason: 'duplicate' },
        { name: 'd/x?.txt', action: 'renamed', to: 'd/x_.txt', reason: 'forbidden-chars' },
        { name: 'd/x_.txt', action: 'renamed', to: 'd/x_ (1).txt', reason: 'duplicate' },
      ]);
    });

    it('quota: an archive larger than the free space fails with upload.noSpace before anything is written; two at once never overshoot', async () => {
      runJobs();
      const u = await t.createUser({ quota: 3_500_000 });
      const one = Buffer.from(await makeZip([{ name: 'a.bin', data: new Uint8Array(randomBytes(1_000_000)) }], { level: 0 }));
      const two = Buffer.from(await makeZip([{ name: 'b.bin', data: new Uint8Array(randomBytes(1_000_000)) }], { level: 0 }));
      const z1 = (await t.upload(u.token, 'one.zip', one)).bizData;
      const z2 = (await t.upload(u.token, 'two.zip', two)).bizData;
      const before = (await t.usage(u.id)).used;
      const [t1, t2] = await Promise.all([call(u.token, '/cloud/v5/file/unzip', { fileId: z1.id }), call(u.token, '/cloud/v5/file/unzip', { fileId: z2.id })]);
      const ends = await Promise.all([settled(u.token, t1.bizData.taskId), settled(u.token, t2.bizData.taskId)]);
      expect(ends.map((e) => e.status).sort()).toEqual([2, 3]);
      expect(ends.find((e) => e.status === 3).response).toBe('upload.noSpace');
      const after = await t.usage(u.id);
      expect(after.used).toBe(before + 1_000_000);
      expect(after.used).toBeLessThanOrEqual(after.quota);
    });

    it('cancel stops a running extraction and takes away what it extracted; quota as before', async () => {
      runJobs();
      const u = await t.createUser({ quota: 500 * 1024 * 1024 });
      const entries = Array.from({ length: 400 }, (_, i) => ({ name: `f/${i}.bin`, data: new Uint8Array(randomBytes(20_000)) }));
      const zip = (await t.upload(u.token, 'long.zip', Buffer.from(await makeZip(entries, { level: 0 })))).bizData;
      const before = { used: (await t.usage(u.id)).used, items: await itemCount(u.id) };
      const task = (await call(u.token, '/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
      await until(async () => {
        const s = await status(u.token, task.taskId);
        return s.status === 1 && s.unzip.entriesDone > 0;
      }, 60_000);
      expect((await call(u.token, '/cloud/v5/zip/task/cancel', { taskId: task.taskId })).bizData).toEqual({ cancelled: true });
      expect((await call(u.token, '/cloud/v5/zip/task/taskStatus', { taskId: task.taskId })).bizData.code).toBe('item.notFound');
      // the job notices at its next file; nothing of the archive stays
      await new Promise((r) => setTimeout(r, 1500));
      expect(await itemCount(u.id)).toBe(before.items);
      expect((await t.usage(u.id)).used).toBe(before.used);
    });

    // once, on SQLite (skipped on PostgreSQL): the 200 MB go through the reader and storage, which no database
    // touches; the database's part of a task (progress rows, items) is the same as every other case here runs on both
    it.runIf(driver.name === 'sqlite')('a 200 MB entry: extracted whole, its progress shown while it unpacks', async () => {
      runJobs();
      const u = await t.createUser({ quota: 1024 ** 3 });
      const chunk = randomBytes(1 << 20);
      const big = new Uint8Array(200 << 20);
      for (let i = 0; i < 200; i++) big.set(chunk, i << 20);
      big[12345] = 7;
      const bytes = Buffer.from(await makeZip([{ name: 'big.bin', data: big }], { level: 0 }));
      // placed directly (an upload of 200 MB through inject would hold it twice more in memory)
      const hash = md5(bytes);
      await t.deps.storage.put(blobKey(hash), bytes, { size: bytes.length });
      await createBlobsService(t.deps).register(hash, bytes.length);
      await createBlobsService(t.deps).addRef(hash);
      const now = Date.now();
      await t.db.db.insertInto('items').values({ id: 'big-zip', uid: u.id, parent_id: '0', kind: 1, name: 'big.zip', type: 'zip', size: bytes.length, blob_md5: hash, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null, transform_status: 3, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null }).execute();
      const started = Date.now();
      const task = (await call(u.token, '/cloud/v5/file/unzip', { fileId: 'big-zip' })).bizData;
      let partial = false;
      const end = await until(async () => {
        const s = await status(u.token, task.taskId);
        if (s.status === 1 && s.unzip.bytesDone > 0 && s.unzip.bytesDone < s.unzip.bytesTotal) partial = true;
        return s.status >= 2 ? s : undefined;
      }, 60_000);
      const seconds = (Date.now() - started) / 1000;
      console.log(`200 MB entry extracted in ${seconds.toFixed(1)} s (${(200 / seconds).toFixed(0)} MB/s)`);
      expect(end).toMatchObject({ status: 2, unzip: { bytesDone: 200 << 20 } });
      expect(partial).toBe(true);
      const row = await t.db.db.selectFrom('items').selectAll().where('uid', '=', u.id).where('name', '=', 'big.bin').executeTakeFirstOrThrow();
      expect(row.blob_md5).toBe(md5(Buffer.from(big.buffer, big.byteOffset, big.byteLength)));
      expect(seconds).toBeLessThan(20);
    }, 60_000);

    it('documents the decompression endpoints and the unzip detail of the task calls in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['detectUnzip', 'unzip', 'unzipHasPassword']) expect(Object.keys(doc.paths)).toContain(`/cloud/v5/file/${p}`);
      expect(JSON.stringify(doc.paths['/cloud/v5/zip/task/taskStatus'])).toContain('entriesDone');
    });

    it('restart: a run that died midway resumes (files stored before are skipped); killed on the last attempt it fails cleanly', async () => {
      const u = await t.createUser({ quota: 500 * 1024 * 1024 });
      const entries = Array.from({ length: 30 }, (_, i) => ({ name: `r/${i}.bin`, data: new Uint8Array(randomBytes(10_000)) }));
      const zip = (await t.upload(u.token, 'resume.zip', Buffer.from(await makeZip(entries)))).bizData;
      const before = { used: (await t.usage(u.id)).used, items: await itemCount(u.id) };
      // the process dies while storing the 11th file: what a kill -9 leaves (task running, 10 files placed, quota held);
      // the file is named by its bytes, since files are stored a few at a time, in any order
      let dieOn = '';
      const dieAt = (e: TestEntry) => (dieOn = blobKey(md5(Buffer.from(e.data!))));
      const dying: StorageDriver = {
        ...t.deps.storage,
        async importFile(key, file) {
          if (key === dieOn) throw new Error('killed');
          return t.deps.storage.importFile(key, file);
        },
        async put(key, body, o) {
          if (key === dieOn) throw new Error('killed');
          return t.deps.storage.put(key, body, o);
        },
      };
      // the runs are driven by hand here: no queued job may run the same task alongside
      const noQueue = { ...t.deps.queue, enqueue: async () => 'not queued' };
      const crashing = createUnzipService({ ...t.deps, storage: dying, queue: noQueue });
      const service = createUnzipService({ ...t.deps, queue: noQueue });
      const task = await service.request({ ...u, freeze: 0 }, { fileId: zip.id });
      dieAt(entries[10]);
      await expect(crashing.run(task.taskId, { attempt: 1, progress: async () => undefined })).rejects.toThrow('killed');
      const mid = await t.db.db.selectFrom('zip_tasks').selectAll().where('id', '=', task.taskId).executeTakeFirstOrThrow();
      expect(mid.status).toBe(1);
      expect(Number(mid.reserved)).toBe(300_000);
      expect(await itemCount(u.id)).toBe(before.items + 1 + 1 + 10);
      const firstIds = (await t.db.db.selectFrom('items').select(['id', 'created_at']).where('uid', '=', u.id).where('kind', '=', 1).where('id', '!=', zip.id).execute());
      // started again: the same task resumes; the ten files are kept as they were, the rest extracted
      expect(await service.run(task.taskId, { attempt: 2, progress: async () => undefined })).toBe('done');
      const done = await status(u.token, task.taskId);
      expect(done).toMatchObject({ status: 2, unzip: { entriesDone: 30, bytesDone: 300_000 } });
      expect(await tree(u.id, done.unzip.folderId)).toEqual(expected([{ name: 'r/', data: null }, ...entries]));
      const kept = await t.db.db.selectFrom('items').select(['id', 'created_at']).where('id', 'in', firstIds.map((r) => r.id)).execute();
      expect(kept).toEqual(expect.arrayContaining(firstIds));
      expect((await t.usage(u.id)).used).toBe(before.used + 300_000);

      // killed again and again: after the last attempt the task fails, its files go, the quota comes back
      const fresh = Array.from({ length: 5 }, (_, i) => ({ name: `r/${i}.bin`, data: new Uint8Array(randomBytes(10_000)) }));
      const zip2 = (await t.upload(u.token, 'doomed.zip', Buffer.from(await makeZip(fresh)))).bizData;
      const before2 = { used: (await t.usage(u.id)).used, items: await itemCount(u.id) };
      dieAt(fresh[2]);
      const task2 = await service.request({ ...u, freeze: 0 }, { fileId: zip2.id });
      await expect(crashing.run(task2.taskId, { attempt: 1, progress: async () => undefined })).rejects.toThrow('killed');
      expect(await itemCount(u.id)).toBe(before2.items + 1 + 1 + 2);
      expect((await t.usage(u.id)).used).toBe(before2.used + 50_000);
      expect(await service.run(task2.taskId, { attempt: UNZIP_ATTEMPTS + 1, progress: async () => undefined })).toBe('ended');
      expect(await status(u.token, task2.taskId)).toMatchObject({ status: 3, response: 'unzip.failed' });
      expect(await itemCount(u.id)).toBe(before2.items);
      expect(await t.db.db.selectFrom('items').select('id').where('id', '=', derivedId(task2.taskId, 'root')).executeTakeFirst()).toBeUndefined();
      expect((await t.usage(u.id)).used).toBe(before2.used);

      // a job the queue gave up on (BullMQ: stalled too often): the sweep ends the task, files and quota back
      const task4 = await service.request({ ...u, freeze: 0 }, { fileId: zip2.id, mode: 'new' });
      dieAt(fresh[3]);
      await expect(crashing.run(task4.taskId, { attempt: 1, progress: async () => undefined })).rejects.toThrow('killed');
      expect(await itemCount(u.id)).toBeGreaterThan(before2.items);
      expect(await service.sweepStranded(60_000)).toEqual({ failed: 0, requeued: 0 });
      await t.db.db.updateTable('zip_tasks').set({ updated_at: Date.now() - 120_000 }).where('id', '=', task4.taskId).execute();
      expect(await service.sweepStranded(60_000)).toEqual({ failed: 1, requeued: 0 });
      expect(await status(u.token, task4.taskId)).toMatchObject({ status: 3, response: 'unzip.failed' });
      expect(await itemCount(u.id)).toBe(before2.items);
      expect((await t.usage(u.id)).used).toBe(before2.used);
    });
  });
}

const s3 = s3TestEnv('unzip');
/** On S3 the archive is copied to a local temp file first (zip.js reads by ranges), and the copy goes afterwards. */
describe.skipIf(!s3)('decompression on S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], s3!);
    registerUnzipJobs(t.deps.queue, t.deps);
  });
  afterAll(async () => t?.close());

  it('extracts an archive kept on S3 byte for byte and leaves no temp file', async () => {
    const a = await t.createUser();
    const data = new Uint8Array(randomBytes(200_000));
    const zip = (await t.upload(a.token, 's3.zip', Buffer.from(await makeZip([{ name: 'dir/x.bin', data }], { password: 'pw' })))).bizData;
    expect((await t.call('/cloud/v5/file/unzipHasPassword', { fileId: zip.id, password: 'pw' }, a.token)).bizData).toEqual({ correct: true });
    const task = (await t.call('/cloud/v5/file/unzip', { fileId: zip.id, password: 'pw' }, a.token)).bizData;
    const end = await until(async () => {
      const s = (await t.call('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId }, a.token)).bizData;
      return s.status >= 2 ? s : undefined;
    }, 60_000);
    expect(end.status).toBe(2);
    const row = await t.db.db.selectFrom('items').selectAll().where('uid', '=', a.id).where('name', '=', 'x.bin').executeTakeFirstOrThrow();
    expect(await readAll(await t.deps.storage.get(blobKey(row.blob_md5!)))).toEqual(Buffer.from(data));
    expect(readdirSync(path.join(t.dataDir, 'uploads')).filter((f) => f.includes('unzip'))).toEqual([]);
  });
});
