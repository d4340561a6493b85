import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { repoRoot } from '../../test/server-process.ts';
import { findFontBytes, fontSetFingerprint } from './fonts.service.ts';
import { sniffFont } from './font-format.ts';
import { unzip } from '../../test/unzip.ts';

// A real TrueType font from an installed package when present; otherwise a generated TrueType header
const liberation = path.join(repoRoot, 'node_modules/pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
if (!existsSync(liberation)) console.warn(`${liberation} not found: the font tests use a generated TrueType header`);
const realTtf = existsSync(liberation) ? readFileSync(liberation) : null;
function ttf(seed = randomBytes(8)): Buffer {
  // sfnt version 1.0, one table directory entry; enough for the content check, distinct bytes per call
  return Buffer.concat([Buffer.from('0001000000010010000300000000', 'hex'), Buffer.from('head'), Buffer.alloc(12), seed]);
}
/** A minimal SHX shape font: header, shape count, one shape (a line) with its name. */
function shx(kind: 'shapes' | 'bigfont' = 'shapes'): Buffer {
  const header = Buffer.from(`AutoCAD-86 ${kind} 1.0\r\n\x1a`, 'latin1');
  const def = Buffer.concat([Buffer.from('A\0', 'latin1'), Buffer.from([0x01, 0x08, 0x00])]); // name, pen down, length 1 at 0°, end
  const table = Buffer.alloc(6 + 4);
  table.writeUInt16LE(65, 0); // first
  table.writeUInt16LE(65, 2); // last
  table.writeUInt16LE(1, 4); // count
  table.writeUInt16LE(65, 6); // shape number
  table.writeUInt16LE(def.length, 8);
  return Buffer.concat([header, table, def, randomBytes(4)]);
}


describe('font content check', () => {
  it('accepts TrueType/OpenType/collection magics and SHX headers, refuses the rest', () => {
    expect(sniffFont('ttf', ttf())).toEqual({ type: 'ttf', isSubfont: false });
    expect(sniffFont('TTC', Buffer.concat([Buffer.from('ttcf'), Buffer.alloc(12)]))).toEqual({ type: 'ttc', isSubfont: false });
    expect(sniffFont('ttf', Buffer.concat([Buffer.from('OTTO'), Buffer.alloc(12)]))?.type).toBe('ttf');
    expect(sniffFont('ttf', Buffer.concat([Buffer.from('true'), Buffer.alloc(12)]))?.type).toBe('ttf');
    expect(sniffFont('shx', shx())).toEqual({ type: 'shx', isSubfont: false });
    expect(sniffFont('shx', shx('bigfont'))).toEqual({ type: 'shx', isSubfont: true });
    expect(sniffFont('shx', Buffer.from('AutoCAD-86 unifont 1.0\r\n\x1a'))?.type).toBe('shx');
    expect(sniffFont('ttf', Buffer.from('%PDF-1.7 not a font at all'))).toBeNull();
    expect(sniffFont('shx', ttf())).toBeNull();
    expect(sniffFont('ttf', shx())).toBeNull();
    expect(sniffFont('otf', ttf())).toBeNull();
    if (realTtf) expect(sniffFont('ttf', realTtf.subarray(0, 32))?.type).toBe('ttf');
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`fonts on ${driver.name}`, () => {
    let t: TestApp;
    let a: { id: string; token: string };
    let b: { id: string; token: string };

    async function upload(token: string, name: string, body: Buffer, fields: Record<string, string> = {}, lang = 'en') {
      const boundary = `----font${Date.now()}${Math.random()}`;
      const parts: Buffer[] = [];
      for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), body, Buffer.from(`\r\n--${boundary}--\r\n`));
      const r = await t.app.inject({ method: 'POST', url: `/cloud/v5/font/upload?utoken=${encodeURIComponent(token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': lang }, payload: Buffer.concat(parts) });
      return r.json();
    }
    const list = async (token: string, data: object = {}) => (await t.call('/cloud/v5/font/list', data, token)).bizData;

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
    });
    afterAll(async () => t?.close());

    it('uploads a real TrueType font into blobs and the quota, and lists it', async () => {
      const body = realTtf ?? ttf();
      const r = await upload(a.token, 'LiberationSans-Regular.TTF', body);
      expect(r.rtnCode).toBe('0000000');
      expect(r.bizData).toMatchObject({ name: 'LiberationSans-Regular.TTF', fileName: 'LiberationSans-Regular.TTF', fileType: 'ttf', size: body.length, fileSize: body.length, ispublic: 0, issubfont: 0, isbold: 0, isitalic: 0, codepage: 1200, fileMD5: md5(body) });
      expect((await t.usage(a.id)).used).toBe(body.length);
      const blob = await t.db.db.selectFrom('blobs').selectAll().where('md5', '=', md5(body)).executeTakeFirstOrThrow();
      expect(blob.ref_count).toBe(1);
      const l = await list(a.token);
      expect(l.total).toBe(1);
      expect(l.fontsList.map((f: any) => f.id)).toEqual([r.bizData.id]);
      expect(l.list).toEqual(l.fontsList);
    });

    it('uploads a generated SHX shape font and a big font (sub font) with fields', async () => {
      const s = await upload(a.token, 'txt.shx', shx());
      expect(s.bizData).toMatchObject({ fileType: 'shx', issubfont: 0, codepage: 1 });
      const big = await upload(a.token, 'gbcbig.SHX', shx('bigfont'), { codepage: '40', bold: '1', italic: 'true' });
      expect(big.bizData).toMatchObject({ fileType: 'shx', issubfont: 1, codepage: 40, isbold: 1, isitalic: 1 });
    });

    it('refuses other extensions and wrong content with the spec message, in the caller\'s language', async () => {
      const before = await t.usage(a.id);
      for (const [name, body] of [['drawing.dwg', ttf()], ['font.otf', ttf()], ['fake.ttf', Buffer.from('%PDF-1.7 '.repeat(10))], ['fake.shx', ttf()], ['fake.ttc', shx()]] as const) {
        const r = await upload(a.token, name, body);
        expect(r.rtnCode, name).toBe('1009001');
        expect(r.bizData.code).toBe('font.unsupported');
        expect(r.msg).toBe('Only ttf, ttc and shx fonts can be uploaded');
      }
      expect((await upload(a.token, 'fake.ttf', Buffer.from('nope'), {}, 'zh')).msg).toBe('字体上传仅支持 ttf、ttc、shx 格式');
      expect((await upload(a.token, 'empty.ttf', Buffer.alloc(0))).bizData.code).toBe('upload.empty');
      expect((await upload(a.token, 'bad.ttf', ttf(), { codepage: '999' })).bizData.code).toBe('request.invalid');
      expect(await t.usage(a.id)).toEqual(before);
      expect((await list(a.token)).total).toBe(3);
    });

    it('same name and bytes is a repeat; same name, other bytes is renamed "name (1).ext" (any case)', async () => {
      const body = ttf();
      const first = await upload(a.token, 'Dup.ttf', body);
      expect(first.bizData.name).toBe('Dup.ttf');
      expect((await upload(a.token, 'dup.TTF', body)).bizData.code).toBe('upload.repeated');
      const second = await upload(a.token, 'DUP.ttf', ttf());
      expect(second.bizData.name).toBe('DUP (1).ttf');
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fontIds: [first.bizData.id, second.bizData.id] }, a.token);
    });

    it('refuses an upload over the quota and when the account is frozen', async () => {
      const small = await t.createUser({ quota: 10 });
      expect((await upload(small.token, 'x.ttf', ttf())).bizData.code).toBe('upload.noSpace');
      const frozen = await t.createUser({ freeze: 1 });
      expect((await upload(frozen.token, 'x.ttf', ttf())).bizData.code).toBe('account.frozen');
      expect((await list(small.token)).total).toBe(0);
    });

    it('pages by startIndex/maxCount and refuses maxCount over 100000', async () => {
      const all = await list(a.token, { startIndex: 0, maxCount: 100 });
      const one = await list(a.token, { startIndex: 1, maxCount: 1 });
      expect(one.total).toBe(all.total);
      expect(one.fontsList.map((f: any) => f.id)).toEqual([all.fontsList[1].id]);
      expect((await list(a.token, { startIndex: all.total, maxCount: 10 })).fontsList).toEqual([]);
      expect((await t.call('/cloud/v5/font/list', { maxCount: 100_001 }, a.token)).rtnCode).toBe('1000001');
      expect((await list(a.token, { q: 'TXT' })).fontsList.map((f: any) => f.name)).toEqual(['txt.shx']);
    });

    it('renames keeping the extension; empty names, special characters and taken names are refused', async () => {
      const f = (await upload(a.token, 'Rn.ttf', ttf())).bizData;
      const r = await t.call('/cloud/v5/font/rename', { id: f.id, name: 'Renamed' }, a.token);
      expect(r.bizData).toMatchObject({ id: f.id, name: 'Renamed.ttf', fileName: 'Renamed.ttf' });
      expect((await t.call('/cloud/v5/font/rename', { id: f.id, name: 'Other.TTF' }, a.token)).bizData.name).toBe('Other.TTF');
      const empty = await t.call('/cloud/v5/font/rename', { id: f.id, name: '   ' }, a.token);
      expect(empty.bizData.code).toBe('font.nameRequired');
      expect(empty.msg).toBe('Font name required');
      expect((await t.call('/cloud/v5/font/rename', { id: f.id, name: 'a/b' }, a.token)).bizData.code).toBe('name.invalid');
      expect((await t.call('/cloud/v5/font/rename', { id: f.id, name: 'TXT.shx' }, a.token)).bizData.name).toBe('TXT.shx.ttf');
      expect((await t.call('/cloud/v5/font/rename', { id: f.id, name: 'liberationsans-regular' }, a.token)).bizData.code).toBe('name.duplicateFile');
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fontIds: [f.id] }, a.token);
    });

    it('edits name (required), code page from the spec list, bold and italic', async () => {
      const f = (await upload(a.token, 'Ed.ttf', ttf())).bizData;
      const r = await t.call('/cloud/v5/font/edit', { id: f.id, name: 'Edited', codepage: 39, bold: true, italic: 1 }, a.token);
      expect(r.bizData).toMatchObject({ name: 'Edited.ttf', codepage: 39, isbold: 1, isitalic: 1 });
      expect((await list(a.token)).fontsList.find((x: any) => x.id === f.id)).toMatchObject({ codepage: 39, isbold: 1, isitalic: 1 });
      const noName = await t.call('/cloud/v5/font/edit', { id: f.id, codepage: 1 }, a.token, 'de');
      expect(noName.bizData.code).toBe('font.nameRequired');
      expect(noName.msg).toBe('Schriftname erforderlich');
      expect((await t.call('/cloud/v5/font/edit', { id: f.id, name: 'Edited', codepage: 936 }, a.token)).bizData.code).toBe('request.invalid');
      for (const cp of [1, 38, 39, 40, 41, 42, 1200]) expect((await t.call('/cloud/v5/font/edit', { id: f.id, name: 'Edited', codepage: cp, bold: 0 }, a.token)).bizData).toMatchObject({ codepage: cp, isbold: 0, isitalic: 1 });
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fontIds: [f.id] }, a.token);
    });

    it('downloads through a signed URL, and several fonts as one zip', async () => {
      const fonts = (await list(a.token)).fontsList;
      const txt = fonts.find((f: any) => f.name === 'txt.shx');
      const d = await t.call('/cloud/v5/font/download', { id: txt.id }, a.token);
      expect(d.bizData.name).toBe('txt.shx');
      const got = await t.fetchSigned(d.bizData.signedUrl);
      expect(got.status).toBe(200);
      expect(md5(got.body)).toBe(txt.fileMD5);
      expect(String(got.headers['content-disposition'])).toContain('txt.shx');

      const ids = fonts.map((f: any) => f.id);
      const z = await t.app.inject({ method: 'POST', url: `/cloud/v5/font/downloadBatch?utoken=${a.token}`, payload: { data: { ids } } });
      expect(z.statusCode).toBe(200);
      expect(z.headers['content-type']).toBe('application/zip');
      const entries = unzip(z.rawPayload);
      expect([...entries.keys()].sort()).toEqual(fonts.map((f: any) => f.name).sort());
      for (const f of fonts) expect(md5(entries.get(f.name)!), f.name).toBe(f.fileMD5);
      const tooMany = await t.app.inject({ method: 'POST', url: `/cloud/v5/font/downloadBatch?utoken=${a.token}`, payload: { data: { ids: Array.from({ length: 501 }, (_, i) => `id${i}`) } } });
      expect(tooMany.json().bizData.code).toBe('font.tooMany');
    });

    it('publishes and unpublishes (explicit flag or toggle); findFontBytes prefers own, then public', async () => {
      const txt = (await list(a.token)).fontsList.find((f: any) => f.name === 'txt.shx');
      expect(await findFontBytes(t.deps, b.id, 'txt')).toBeNull();
      expect((await t.call('/cloud/v5/font/public', { id: txt.id }, a.token)).bizData.ispublic).toBe(1);
      expect((await t.call('/cloud/v5/font/public', { id: txt.id, ispublic: 1 }, a.token)).bizData.ispublic).toBe(1);

      const own = await findFontBytes(t.deps, a.id, 'TXT');
      expect(own).toMatchObject({ fontId: txt.id, from: 'user', hash: txt.fileMD5 });
      expect(md5(Buffer.from(own!.bytes))).toBe(txt.fileMD5);
      expect(await findFontBytes(t.deps, a.id, 'C:\\Fonts\\txt.SHX')).toMatchObject({ fontId: txt.id });
      expect(await findFontBytes(t.deps, a.id, 'txt.ttf')).toBeNull();
      const viaPublic = await findFontBytes(t.deps, b.id, 'txt.shx');
      expect(viaPublic).toMatchObject({ fontId: txt.id, from: 'public', hash: txt.fileMD5 });
      // B's own font of the same name wins over the public one
      const bOwn = (await upload(b.token, 'TXT.shx', shx())).bizData;
      expect(await findFontBytes(t.deps, b.id, 'txt')).toMatchObject({ fontId: bOwn.id, from: 'user' });
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fontIds: [bOwn.id] }, b.token);
      expect((await findFontBytes(t.deps, b.id, 'txt'))?.from).toBe('public');

      // downloadFont: own or public by name or id, never a private font of someone else
      const byName = await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?utoken=${b.token}&name=TXT` });
      expect(byName.statusCode).toBe(200);
      expect(md5(byName.rawPayload)).toBe(txt.fileMD5);
      expect((await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?utoken=${b.token}&id=${txt.id}` })).statusCode).toBe(200);

      expect((await t.call('/cloud/v5/font/public', { id: txt.id }, a.token)).bizData.ispublic).toBe(0);
      expect(await findFontBytes(t.deps, b.id, 'txt')).toBeNull();
      expect((await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?utoken=${b.token}&id=${txt.id}` })).json().bizData.code).toBe('item.notFound');
      expect((await t.call('/cloud/v5/font/public', { id: txt.id, ispublic: 0 }, a.token)).bizData.ispublic).toBe(0);
    });

    it('union/delete fontIds: to the font bin (quota back), restore, permanent delete releases the blob', async () => {
      const body = ttf();
      const f = (await upload(a.token, 'Gone.ttf', body)).bizData;
      const used = (await t.usage(a.id)).used;
      const r = await t.call('/cloud/v5/union/delete', { fontIds: [f.id] }, a.token);
      expect(r.bizData.deleted).toBe(1);
      expect((await t.usage(a.id)).used).toBe(used - body.length);
      expect((await list(a.token)).fontsList.some((x: any) => x.id === f.id)).toBe(false);
      const bin = await list(a.token, { delete: 1 });
      expect(bin.fontsList.map((x: any) => x.id)).toEqual([f.id]);
      expect(bin.fontsList[0].deleteTime).toBeGreaterThan(0);
      expect(await findFontBytes(t.deps, a.id, 'gone')).toBeNull();

      expect((await t.call('/cloud/v5/font/restore', { ids: [f.id] }, a.token)).bizData.restored).toBe(1);
      expect((await t.usage(a.id)).used).toBe(used);
      expect((await findFontBytes(t.deps, a.id, 'gone'))?.fontId).toBe(f.id);

      // mixed with a file: both go, one call
      const file = (await t.upload(a.token, 'mixed.dwg', randomBytes(50))).bizData;
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [file.id], fontIds: [f.id] }, a.token)).bizData.deleted).toBe(2);
      expect((await t.call('/cloud/v5/trash/file/list', {}, a.token)).bizData.list.map((x: any) => x.id)).toContain(file.id);
      // permanently from the bin: the row and its blob are gone
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fontIds: [f.id] }, a.token)).bizData.deleted).toBe(1);
      expect((await list(a.token, { delete: 1 })).total).toBe(0);
      expect(await t.db.db.selectFrom('blobs').select('md5').where('md5', '=', md5(body)).executeTakeFirst()).toBeUndefined();
      // emptying the recycle bin (deleteLevel 2) also empties the font bin
      const g = (await upload(a.token, 'Bin.ttf', ttf())).bizData;
      await t.call('/cloud/v5/union/delete', { fontIds: [g.id] }, a.token);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 2 }, a.token);
      expect((await list(a.token, { delete: 1 })).total).toBe(0);
      expect((await t.call('/cloud/v5/font/restore', { ids: [g.id] }, a.token)).bizData.code).toBe('item.notFound');
    });

    it('quota recalculation counts live fonts; binned fonts past 10 days are purged on list', async () => {
      const u = await t.createUser();
      const body = ttf();
      const f = (await upload(u.token, 'Keep.ttf', body)).bizData;
      const { createQuotaService } = await import('../quota/quota.service.ts');
      expect(await createQuotaService(t.deps).recalculate(u.id)).toBe(body.length);
      const old = (await upload(u.token, 'Old.ttf', ttf())).bizData;
      await t.call('/cloud/v5/union/delete', { fontIds: [old.id] }, u.token);
      expect(await createQuotaService(t.deps).recalculate(u.id)).toBe(body.length);
      await t.db.db.updateTable('fonts').set({ deleted_at: Date.now() - 11 * 24 * 3600 * 1000 }).where('id', '=', old.id).execute();
      expect((await list(u.token, { delete: 1 })).total).toBe(0);
      expect(await t.db.db.selectFrom('fonts').select('id').where('id', '=', old.id).executeTakeFirst()).toBeUndefined();
      expect((await list(u.token)).fontsList.map((x: any) => x.id)).toEqual([f.id]);
    });

    it('fontSetFingerprint changes with own fonts, code pages and publications of others', async () => {
      const u = await t.createUser();
      const v = await t.createUser();
      expect(await fontSetFingerprint(t.deps, u.id)).toBe('');
      const f = (await upload(u.token, 'Fp.shx', shx())).bizData;
      const one = await fontSetFingerprint(t.deps, u.id);
      expect(one).toMatch(/^[0-9a-f]{40}$/);
      await t.call('/cloud/v5/font/edit', { id: f.id, name: 'Fp', codepage: 39 }, u.token);
      const two = await fontSetFingerprint(t.deps, u.id);
      expect(two).not.toBe(one);
      const theirs = (await upload(v.token, 'Other.shx', shx())).bizData;
      expect(await fontSetFingerprint(t.deps, u.id)).toBe(two);
      await t.call('/cloud/v5/font/public', { id: theirs.id }, v.token);
      expect(await fontSetFingerprint(t.deps, u.id)).not.toBe(two);
      await t.call('/cloud/v5/font/public', { id: theirs.id }, v.token);
      expect(await fontSetFingerprint(t.deps, u.id)).toBe(two);
    });

    it('every font path is in the API document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['list', 'upload', 'public', 'rename', 'edit', 'download', 'downloadBatch', 'restore']) expect(doc.paths[`/cloud/v5/font/${p}`], p).toBeTruthy();
      expect(doc.paths['/api/index/downloadFont'].get).toBeTruthy();
      expect(JSON.stringify(doc.paths['/cloud/v5/font/edit'])).toContain('codepage');
    });

    it('the font list answers empty with total 0 for a user without fonts, and 101 unsigned', async () => {
      expect(await list(b.token)).toEqual({ fontsList: [], list: [], total: 0 });
      expect((await t.call('/cloud/v5/font/list', {})).rtnCode).toBe('101');
    });

    describe('authorization: B never reaches A\'s fonts', () => {
      let fontId: string;
      let binnedId: string;
      async function snapshot() {
        const fonts = await t.db.db.selectFrom('fonts').selectAll().where('uid', '=', a.id).orderBy('id').execute();
        const user = await t.db.db.selectFrom('users').select(['storage_used']).where('id', '=', a.id).executeTakeFirst();
        return JSON.stringify({ fonts, user });
      }
      beforeAll(async () => {
        fontId = (await upload(a.token, 'private.ttf', ttf())).bizData.id;
        binnedId = (await upload(a.token, 'binned.ttf', ttf())).bizData.id;
        await t.call('/cloud/v5/union/delete', { fontIds: [binnedId] }, a.token);
      });
      const cases: [string, () => unknown][] = [
        ['/cloud/v5/font/rename', () => ({ id: fontId, name: 'stolen' })],
        ['/cloud/v5/font/edit', () => ({ id: fontId, name: 'stolen', codepage: 1, bold: 1 })],
        ['/cloud/v5/font/public', () => ({ id: fontId })],
        ['/cloud/v5/font/public', () => ({ id: fontId, ispublic: 1 })],
        ['/cloud/v5/font/download', () => ({ id: fontId })],
        ['/cloud/v5/font/restore', () => ({ ids: [binnedId] })],
        ['/cloud/v5/union/delete', () => ({ deleteLevel: 0, fontIds: [fontId] })],
        ['/cloud/v5/union/delete', () => ({ deleteLevel: 1, fontIds: [fontId, binnedId] })],
      ];
      for (const [n, [p, data]] of cases.entries()) {
        it(`#${n} ${p}: B gets item.notFound, A's fonts unchanged`, async () => {
          const before = await snapshot();
          const r = await t.call(p, data(), b.token);
          expect(r.rtnCode).not.toBe('0000000');
          expect(r.bizData.code).toBe('item.notFound');
          expect(await snapshot()).toBe(before);
        });
      }
      it('B\'s file delete with A\'s font id changes nothing of B either', async () => {
        const mine = (await t.upload(b.token, 'b.dwg', randomBytes(20))).bizData;
        const r = await t.call('/cloud/v5/union/delete', { fileIds: [mine.id], fontIds: [fontId] }, b.token);
        expect(r.bizData.code).toBe('item.notFound');
        expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: mine.id }, b.token)).rtnCode).toBe('0000000');
      });
      it('downloadBatch, downloadFont and the lists', async () => {
        const before = await snapshot();
        const z = await t.app.inject({ method: 'POST', url: `/cloud/v5/font/downloadBatch?utoken=${b.token}`, payload: { data: { ids: [fontId] } } });
        expect(z.json().bizData.code).toBe('item.notFound');
        const f = await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?utoken=${b.token}&id=${fontId}` });
        expect(f.json().bizData.code).toBe('item.notFound');
        expect((await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?utoken=${b.token}&name=private` })).json().bizData.code).toBe('item.notFound');
        expect(await findFontBytes(t.deps, b.id, 'private.ttf')).toBeNull();
        expect((await list(b.token)).fontsList.some((x: any) => x.id === fontId)).toBe(false);
        expect((await list(b.token, { delete: 1 })).fontsList).toEqual([]);
        expect(await snapshot()).toBe(before);
      });
      it('every font endpoint refuses an unsigned request with 101', async () => {
        for (const [p] of cases) expect((await t.call(p, {})).rtnCode, p).toBe('101');
        expect((await t.app.inject({ method: 'POST', url: '/cloud/v5/font/downloadBatch', payload: { data: { ids: [fontId] } } })).json().rtnCode).toBe('101');
        expect((await t.app.inject({ method: 'GET', url: `/api/index/downloadFont?id=${fontId}` })).json().rtnCode).toBe('101');
        expect((await upload('forged', 'x.ttf', ttf())).rtnCode).toBe('101');
      });
    });
  });
}
