/**
 * Issue 14, item 1: instant upload leaked files. Before: share and public-library answers carried each file's
 * `fileMD5` and `size`, and detectUpload (also detectUploadBatch, upload/init, a folder upload's relativePath, the
 * JSON version/upload) placed stored bytes in the caller's drive for any known MD5 and size — a view-only share
 * recipient or a library reader got the whole file, and `exists` told anyone whether some user held given bytes.
 * Now instant upload reuses only bytes the caller owns already or proves to hold (random ranges hashed with a
 * nonce, blobs/possession.ts); without a right proof the answer is the same whether the bytes are stored or not;
 * and no answer about another user's item carries its MD5 or a thumbkey made from it. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../test/fixtures.ts';
import { extractWithProof } from '../test/share-proof.ts';
import { VERIFY_FLOOR_MS } from '../modules/blobs/possession.ts';

type User = { id: string; email: string; token: string };
type Challenge = { token: string; nonce: string; ranges: { start: number; length: number }[]; expiresAt: number };

/** The proof as contracts/transfer.ts defines it, written here independently of the server's code. */
function prove(bytes: Buffer, c: Challenge): string {
  const h = createHash('md5').update(Buffer.from(c.nonce, 'utf8'));
  for (const r of c.ranges) h.update(bytes.subarray(r.start, r.start + r.length));
  return h.digest('hex');
}

/** Every string anywhere in an answer. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/**
 * Every answer schema that can carry an MD5 or a thumbkey, decided one by one. Owner-only: the caller's own drive,
 * uploads, versions and fonts (each checks the uid), so fileMD5 is their own. Shown to others: share, library and
 * item-info answers, which go through items.presenter.ts with the caller as viewer (another user's item: fileMD5 ''
 * and a thumbkey without the hash; the first test reads them all). A new path in neither list fails the sweep until
 * someone decides which it is.
 */
const OWNER_ONLY = [
  'union/list', 'file/list', 'file/listTypeFiles', 'file/getFileInfo', 'file/edit', 'union/move', 'folder/edit', 'trash/folder/list', 'trash/file/list',
  'file/upload', 'file/detectUpload', 'file/detectUploadBatch', 'upload/init', 'upload/complete', 'upload/direct/init', 'upload/direct/complete',
  'font/list', 'font/upload', 'font/public', 'font/rename', 'font/edit', 'file/setFilePrivateType', 'file/queryMyPublicList',
  'version/history', 'version/updateRemark', 'version/back', 'version/copy', 'version/upload',
];
const SHOWN_TO_OTHERS = ['share/extract', 'share/files', 'file/getProductItemById', 'file/queryMyLikePublicList', 'file/queryMyCollectionrecordList', 'public/list', 'public/detail'];

describe('answer schema sweep', () => {
  it('every answer that can carry an MD5 or thumbkey is owner-only or goes through the viewer-aware presenter', async () => {
    const t = await createTestApp(testDatabaseDrivers()[0]);
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json() as { paths: Record<string, Record<string, { responses?: unknown }>> };
      const carrying = Object.entries(doc.paths)
        .filter(([, ops]) => Object.values(ops).some((op) => /md5|thumbkey|blob/i.test(JSON.stringify(op.responses ?? {}))))
        .map(([p]) => p.replace('/cloud/v5/', ''));
      expect(carrying.sort()).toEqual([...OWNER_ONLY, ...SHOWN_TO_OTHERS].sort());
      // the groups' answers name shared items without either
      for (const p of Object.keys(doc.paths).filter((x) => x.includes('/group/'))) expect(carrying, p).not.toContain(p.replace('/cloud/v5/', ''));
    } finally {
      await t.close();
    }
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`instant upload leak on ${driver.name}`, () => {
    let t: TestApp;
    let a: User; // the victim: shares view-only, publishes, shares to a group
    let b: User; // the attacker: recipient, library reader, group member
    let n = 0;
    const call = (p: string, data: unknown, u?: User) => t.call(`/cloud/v5/${p}`, data, u?.token);
    const upload = async (u: User, name: string, body: Buffer, parentId = '0') => {
      const r = await t.upload(u.token, name, body, { parentId });
      expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
      return r.bizData as { id: string };
    };
    /** How many of `u`'s files (trash included) or versions hold these bytes. */
    const holdings = async (u: User, hash: string) => {
      const items = await t.deps.db.selectFrom('items').select('id').where('uid', '=', u.id).where('blob_md5', '=', hash).execute();
      const versions = await t.deps.db.selectFrom('file_versions').select('id').where('uid', '=', u.id).where('blob_md5', '=', hash).execute();
      return items.length + versions.length;
    };
    /** A's secret drawing (large enough to be asked in ranges), shared view-only, published, and shared to a group with B. */
    const secretOfA = async () => {
      n++;
      const bytes = Buffer.concat([Buffer.from(`0\nSECTION\n2\nHEADER\n999\n${n}\n`), randomBytes(200_000)]);
      const f = await upload(a, `secret-${n}.dxf`, bytes);
      // as if its thumbnail had been drawn: the thumbkey names the MD5
      await t.deps.db.updateTable('items').set({ thumbkey: `v1-${md5(bytes)}.png` }).where('id', '=', f.id).execute();
      return { bytes, id: f.id, hash: md5(bytes), size: bytes.length };
    };

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
    });
    afterAll(async () => t?.close());

    it('answers about another user\'s items (shares, library, groups) carry neither its MD5 nor a thumbkey made from it', async () => {
      const s = await secretOfA();
      const folder = (await call('folder/edit', { parentId: '0', name: `shared-${n}` }, a)).bizData.id as string;
      const inner = await upload(a, `inner-${n}.dxf`, s.bytes.subarray(0, 5000), folder);
      const innerHash = md5(s.bytes.subarray(0, 5000));
      const answers: unknown[] = [];

      // a view-only link share: extraction, browsing, item info
      const share = (await call('share/create', { fileIds: [s.id], folderIds: [folder], canDownload: false, canSave: false }, a)).bizData;
      const x = await extractWithProof(t, { rand: share.rand, code: share.code }, `10.14.1.${n}`);
      expect(x.rtnCode, JSON.stringify(x)).toBe('0000000');
      const token = x.bizData.shareToken as string;
      answers.push(x, await call('share/files', { shareToken: token }, b), await call('share/files', { shareToken: token, folderId: folder }, b));
      answers.push(await call('file/getProductItemById', { shareToken: token, fileId: s.id }, b), await call('file/getProductItemById', { shareToken: token, fileId: inner.id }));

      // a group share: the group's list, the member's token, browsing through it
      const groupId = (await call('group/create', { name: `g${n}` }, a)).bizData.groupId as string;
      expect((await call('group/addMember', { groupId, email: b.email }, a)).rtnCode).toBe('0000000');
      expect((await call('group/share', { groupIds: [groupId], fileIds: [s.id], folderIds: [folder] }, a)).rtnCode).toBe('0000000');
      const shares = await call('group/shares', { groupId }, b);
      answers.push(shares);
      const open = await call('group/openShare', { groupId, shareId: shares.bizData.list[0].shareId }, b);
      expect(open.rtnCode, JSON.stringify(open)).toBe('0000000');
      answers.push(open, await call('share/files', { shareToken: open.bizData.shareToken }, b), await call('share/files', { shareToken: open.bizData.shareToken, folderId: folder }, b));

      // the public library: list, detail, likes, collections, item info without a ticket
      expect((await call('file/setFilePrivateType', { fileIds: [s.id], privateType: '0' }, a)).rtnCode).toBe('0000000');
      expect((await call('public/like', { fileId: s.id, like: true }, b)).rtnCode).toBe('0000000');
      expect((await call('public/collect', { fileId: s.id, collect: true }, b)).rtnCode).toBe('0000000');
      answers.push(await call('public/list', { pageNo: 1, pageSize: 100 }, b), await call('public/detail', { fileId: s.id }, b));
      answers.push(await call('file/queryMyLikePublicList', { pageNo: 1, pageSize: 100 }, b), await call('file/queryMyCollectionrecordList', { pageNo: 1, pageSize: 100 }, b));
      answers.push(await call('file/getProductItemById', { fileId: s.id }));

      for (const r of answers) expect((r as { rtnCode: string }).rtnCode, JSON.stringify(r)).toBe('0000000');
      const seen = answers.flatMap((r) => strings(r));
      expect(seen.filter((v) => v.includes(s.hash) || v.includes(innerHash))).toEqual([]);
      // still shown: names and sizes, and that a thumbnail exists
      expect(seen).toContain(`secret-${n}.dxf`);
      const detail = (answers[answers.length - 4] as { bizData: { fileMD5: string; thumbkey: string; size: number } }).bizData;
      expect(detail).toMatchObject({ fileMD5: '', size: s.size });
      expect(detail.thumbkey).not.toBe('');

      // the owner still sees their own MD5 and thumbkey, in their drive and in the library
      const own = await call('file/getFileInfo', { fileId: s.id }, a);
      expect(own.bizData).toMatchObject({ fileMD5: s.hash, thumbkey: `v1-${s.hash}.png` });
      expect((await call('public/detail', { fileId: s.id }, a)).bizData.fileMD5).toBe(s.hash);
    });

    it('knowing the MD5 and size is not enough: no instant path puts the bytes in the attacker\'s drive', async () => {
      const s = await secretOfA();
      const mine = await upload(b, `mine-${n}.dxf`, randomBytes(3000));
      const known = { md5: s.hash, size: s.size };
      const forged = { token: 'x.y', proof: 'f'.repeat(32) };
      const tries = {
        detectUpload: await call('file/detectUpload', { parentId: '0', name: `got-${n}.dxf`, ...known }, b),
        detectUploadForged: await call('file/detectUpload', { parentId: '0', name: `got-${n}.dxf`, ...known, possession: forged }, b),
        folderUpload: await call('file/detectUpload', { parentId: '0', name: `got-${n}.dxf`, relativePath: `loot-${n}/got.dxf`, ...known }, b),
        batch: await call('file/detectUploadBatch', { files: [{ parentId: '0', name: `got-b-${n}.dxf`, ...known }] }, b),
        init: await call('upload/init', { parentId: '0', name: `got-i-${n}.dxf`, ...known }, b),
        version: await call('version/upload', { fileId: mine.id, ...known }, b),
        versionConflict: await call('file/detectUpload', { parentId: '0', name: `mine-${n}.dxf`, conflict: 'version', ...known }, b),
      };
      for (const [path, r] of Object.entries(tries)) expect(r.rtnCode, `${path}: ${JSON.stringify(r)}`).toBe('0000000');
      expect(tries.detectUpload.bizData).toMatchObject({ exists: false, needUpload: true, item: null });
      expect(tries.detectUploadForged.bizData).toEqual({ exists: false, needUpload: true, item: null });
      expect(tries.folderUpload.bizData).toMatchObject({ exists: false, needUpload: true, item: null });
      expect(tries.batch.bizData.list[0]).toMatchObject({ exists: false, needUpload: true, item: null });
      expect(tries.init.bizData).toMatchObject({ item: null, received: 0 });
      expect(tries.init.bizData.uploadId).toBeTruthy();
      expect(tries.version.bizData).toMatchObject({ exists: false, needUpload: true, version: null });
      expect(tries.versionConflict.bizData).toMatchObject({ exists: false, needUpload: true, item: null });
      expect(await holdings(b, s.hash)).toBe(0);
      // nor does a chunked upload completed without sending the bytes
      const done = await call('upload/complete', { uploadId: tries.init.bizData.uploadId }, b);
      expect(done.bizData.item ?? null).toBeNull();
      expect(await holdings(b, s.hash)).toBe(0);
      // and a proof computed from what a recipient can know (the MD5 itself) fails like any wrong one
      const c = tries.detectUpload.bizData.possession as Challenge;
      const guess = createHash('md5').update(c.nonce).update(s.hash).digest('hex');
      const r = await call('file/detectUpload', { parentId: '0', name: `got-${n}.dxf`, ...known, possession: { token: c.token, proof: guess } }, b);
      expect(r.bizData).toEqual({ exists: false, needUpload: true, item: null });
      expect(await holdings(b, s.hash)).toBe(0);
    });

    it('does not say whether anyone stores given bytes: stored and unknown bytes get the same answer', async () => {
      const s = await secretOfA();
      const unknown = { md5: md5(randomBytes(16)), size: s.size };
      const ask = (m: { md5: string; size: number }, extra: object = {}) => call('file/detectUpload', { parentId: '0', name: `probe-${n}.dxf`, ...m, ...extra }, b);
      const shape = (v: any) => ({ ...v, possession: v.possession ? { token: typeof v.possession.token, nonce: typeof v.possession.nonce, ranges: v.possession.ranges.length, expiresAt: typeof v.possession.expiresAt } : undefined });
      const stored = await ask({ md5: s.hash, size: s.size });
      const absent = await ask(unknown);
      expect(stored.bizData.possession).toBeTruthy();
      expect(shape(stored.bizData)).toEqual(shape(absent.bizData));
      expect(stored.bizData.exists).toBe(false);
      // a wrong proof answers like a proof for absent bytes
      const timed = async <T>(p: Promise<T>) => {
        const at = performance.now();
        return { r: await p, ms: performance.now() - at };
      };
      const wrongStored = await timed(ask({ md5: s.hash, size: s.size }, { possession: { token: stored.bizData.possession.token, proof: md5(randomBytes(8)) } }));
      const wrongAbsent = await timed(ask(unknown, { possession: { token: absent.bizData.possession.token, proof: md5(randomBytes(8)) } }));
      expect(wrongStored.r).toEqual(wrongAbsent.r);
      // and not in how long it takes: reading the stored ranges hides under a floor (VERIFY_FLOOR_MS) both wait
      for (const x of [wrongStored, wrongAbsent]) expect(x.ms).toBeGreaterThanOrEqual(VERIFY_FLOOR_MS - 5);
      // the batch, init and version answers do not tell either
      const batch = await call('file/detectUploadBatch', { files: [{ parentId: '0', name: 'p1.dxf', md5: s.hash, size: s.size }, { parentId: '0', name: 'p2.dxf', ...unknown }] }, b);
      expect(shape(batch.bizData.list[0])).toEqual({ ...shape(batch.bizData.list[1]), name: 'p1.dxf' });
      const mine = await upload(b, `own-${n}.dxf`, randomBytes(2000));
      const v1 = await call('version/upload', { fileId: mine.id, md5: s.hash, size: s.size }, b);
      const v2 = await call('version/upload', { fileId: mine.id, ...unknown }, b);
      expect(shape(v1.bizData)).toEqual(shape(v2.bizData));
    });

    it('a right proof places the bytes; a wrong one, another user\'s challenge or other bytes do not', async () => {
      const s = await secretOfA();
      const c = (await call('file/detectUpload', { parentId: '0', name: `real-${n}.dxf`, md5: s.hash, size: s.size }, b)).bizData.possession as Challenge;
      expect(c.ranges.length).toBeGreaterThan(1);
      expect(c.ranges.reduce((x, r) => x + r.length, 0)).toBeLessThan(s.size / 4);
      // another user's challenge does not serve B, even with the right bytes
      const cc = (await call('file/detectUpload', { parentId: '0', name: 'x.dxf', md5: s.hash, size: s.size }, a)).bizData;
      expect(cc.exists).toBe(true); // A owns these bytes: placed again without a proof
      const u3 = await t.createUser();
      const c3 = (await call('file/detectUpload', { parentId: '0', name: 'x.dxf', md5: s.hash, size: s.size }, u3)).bizData.possession as Challenge;
      const stolen = await call('file/detectUpload', { parentId: '0', name: `real-${n}.dxf`, md5: s.hash, size: s.size, possession: { token: c3.token, proof: prove(s.bytes, c3) } }, b);
      expect(stolen.bizData).toEqual({ exists: false, needUpload: true, item: null });
      // almost the right bytes (one byte of each range changed) fail
      const near = Buffer.from(s.bytes);
      for (const r of c.ranges) near[r.start + Math.floor(r.length / 2)] ^= 0xff;
      const wrong = await call('file/detectUpload', { parentId: '0', name: `real-${n}.dxf`, md5: s.hash, size: s.size, possession: { token: c.token, proof: prove(near, c) } }, b);
      expect(wrong.bizData).toEqual({ exists: false, needUpload: true, item: null });
      expect(await holdings(b, s.hash)).toBe(0);
      // the right proof: the file appears without its bytes being sent, and B sees its own MD5
      const right = await call('file/detectUpload', { parentId: '0', name: `real-${n}.dxf`, md5: s.hash, size: s.size, possession: { token: c.token, proof: prove(s.bytes, c) } }, b);
      expect(right.bizData).toMatchObject({ exists: true, needUpload: false, item: { name: `real-${n}.dxf`, size: s.size, fileMD5: s.hash } });
      expect(await holdings(b, s.hash)).toBe(1);
      // then B owns them: placed again without a proof (also after binning the file)
      expect((await call('union/delete', { fileIds: [right.bizData.item.id] }, b)).rtnCode).toBe('0000000');
      const again = await call('file/detectUpload', { parentId: '0', name: `again-${n}.dxf`, md5: s.hash, size: s.size }, b);
      expect(again.bizData).toMatchObject({ exists: true, needUpload: false });

      // the same through upload/init, the batch and the version path
      const t2 = await secretOfA();
      const ci = (await call('upload/init', { parentId: '0', name: `init-${n}.dxf`, md5: t2.hash, size: t2.size }, b)).bizData;
      expect(ci.possession).toBeTruthy();
      const init = await call('upload/init', { parentId: '0', name: `init-${n}.dxf`, md5: t2.hash, size: t2.size, possession: { token: ci.possession.token, proof: prove(t2.bytes, ci.possession) } }, b);
      expect(init.bizData).toMatchObject({ uploadId: null, received: t2.size, item: { name: `init-${n}.dxf`, fileMD5: t2.hash } });
      const t3 = await secretOfA();
      const cb = (await call('file/detectUploadBatch', { files: [{ parentId: '0', name: `batch-${n}.dxf`, md5: t3.hash, size: t3.size }] }, b)).bizData.list[0].possession as Challenge;
      const batch = await call('file/detectUploadBatch', { files: [{ parentId: '0', name: `batch-${n}.dxf`, md5: t3.hash, size: t3.size, possession: { token: cb.token, proof: prove(t3.bytes, cb) } }] }, b);
      expect(batch.bizData.list[0]).toMatchObject({ exists: true, item: { name: `batch-${n}.dxf` } });
      const t4 = await secretOfA();
      const mine = await upload(b, `ver-${n}.dxf`, randomBytes(1000));
      const cv = (await call('version/upload', { fileId: mine.id, md5: t4.hash, size: t4.size }, b)).bizData.possession as Challenge;
      const ver = await call('version/upload', { fileId: mine.id, md5: t4.hash, size: t4.size, possession: { token: cv.token, proof: prove(t4.bytes, cv) } }, b);
      expect(ver.bizData).toMatchObject({ exists: true, needUpload: false, version: { fileMD5: t4.hash } });
    });

    it('a small file is asked whole, and the proof still needs the nonce', async () => {
      const bytes = randomBytes(1000);
      await upload(a, `small-${++n}.dxf`, bytes);
      const c = (await call('file/detectUpload', { parentId: '0', name: `small-${n}.dxf`, md5: md5(bytes), size: bytes.length }, b)).bizData.possession as Challenge;
      expect(c.ranges).toEqual([{ start: 0, length: 1000 }]);
      // the file's own MD5 (what answers once showed) is not the proof
      const bare = await call('file/detectUpload', { parentId: '0', name: `small-${n}.dxf`, md5: md5(bytes), size: bytes.length, possession: { token: c.token, proof: md5(bytes) } }, b);
      expect(bare.bizData.exists).toBe(false);
      const right = await call('file/detectUpload', { parentId: '0', name: `small-${n}.dxf`, md5: md5(bytes), size: bytes.length, possession: { token: c.token, proof: prove(bytes, c) } }, b);
      expect(right.bizData.exists).toBe(true);
    });
  });
}
