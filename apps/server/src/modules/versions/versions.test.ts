import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeScene } from '@cadcloud/cad/scene';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type Envelope, type TestApp } from '../../test/fixtures.ts';
import { getVersionForUser } from './versions.repository.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { countedBytes } from './versions.cleanup.ts';
import { versionFileName } from './versions.service.ts';
import { unzip } from '../../test/unzip.ts';

/** A small DXF whose one text is `label`: distinct bytes per label, and a scene that shows which one it is. */
const dxf = (label: string, pad = 0) =>
  Buffer.concat([
    Buffer.from(writeAsciiDxf({ layers: ['0', 'Walls'], entities: [{ type: 'LINE', pairs: [[8, 'Walls'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] }, { type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 80], [40, 5], [1, label]] }] })),
    Buffer.from('\n'.repeat(pad)),
  ]);


describe('version storage rule', () => {
  it('counts the current content (private, live) plus each other distinct content once', () => {
    const item = { blob_md5: 'a', size: 10, private_type: '1', deleted_at: null };
    expect(countedBytes(item, [{ blob_md5: 'a', size: 10 }])).toBe(10);
    expect(countedBytes(item, [{ blob_md5: 'a', size: 10 }, { blob_md5: 'b', size: 5 }, { blob_md5: 'b', size: 5 }, { blob_md5: 'a', size: 10 }])).toBe(15);
    expect(countedBytes({ ...item, deleted_at: 1 }, [{ blob_md5: 'a', size: 10 }, { blob_md5: 'b', size: 5 }])).toBe(5);
    expect(countedBytes({ ...item, private_type: '0' }, [{ blob_md5: 'c', size: 7 }])).toBe(7);
  });
  it('names a version download after its source with the number', () => {
    expect(versionFileName('plan.dwg', 3)).toBe('plan_V3.dwg');
    expect(versionFileName('a.b.dxf', 12)).toBe('a.b_V12.dxf');
    expect(versionFileName('noext', 2)).toBe('noext_V2');
  });
});

for (const driver of testDatabaseDrivers()) {
  describe(`version history on ${driver.name}`, () => {
    let t: TestApp;
    let a: { id: string; email: string; token: string };
    let b: { id: string; email: string; token: string };
    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser({ email: 'alice.versions@example.com' });
      b = await t.createUser();
    });
    afterAll(async () => t?.close());

    /** Multipart version/upload: fields first, then one file part per entry of `files`. */
    async function vupload(token: string, fields: Record<string, string>, files: { name: string; body: Buffer }[]): Promise<Envelope> {
      const boundary = `----vv${Date.now()}`;
      const parts: Buffer[] = [];
      for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      for (const f of files) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), f.body, Buffer.from('\r\n'));
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      const r = await t.app.inject({ method: 'POST', url: `/cloud/v5/version/upload?utoken=${encodeURIComponent(token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' }, payload: Buffer.concat(parts) });
      return r.json();
    }
    const history = async (token: string, fileId: string, extra: object = {}) => (await t.call('/cloud/v5/version/history', { fileId, ...extra }, token)).bizData;
    const item = (id: string) => t.db.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const refCount = async (hash: string) => Number((await t.db.db.selectFrom('blobs').select('ref_count').where('md5', '=', hash).executeTakeFirst())?.ref_count ?? 0);
    const scene = (token: string, fileId: string, versionId?: string) =>
      t.app.inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${fileId}${versionId ? `&versionId=${versionId}` : ''}&utoken=${encodeURIComponent(token)}` });

    const A = dxf('Alpha');
    const B = dxf('Bravo', 3);
    const C = dxf('Charlie', 7);

    it('uploads three versions, rolls back to V1 (V4), deletes V2, downloads V3 with its bytes; storage counts each content once', async () => {
      const up = await t.upload(a.token, 'plan.dxf', A);
      expect(up.rtnCode).toBe('0000000');
      const fileId = up.bizData.id as string;
      expect((await t.usage(a.id)).used).toBe(A.length);

      // the implicit V1 is written down on the first call
      const h1 = await history(a.token, fileId);
      expect(h1.total).toBe(1);
      expect(h1.list[0]).toMatchObject({ version: 1, isLatest: 1, sourceName: 'plan.dxf', size: A.length, remarkType: 1, description: 'create drawing', updateName: 'alice.versions' });
      const v1 = h1.list[0].versionId as string;
      expect(await refCount(md5(A))).toBe(2); // the file and its V1

      const r2 = await vupload(a.token, { fileId }, [{ name: 'plan-rev.dxf', body: B }]);
      expect(r2.rtnCode).toBe('0000000');
      expect(r2.bizData).toMatchObject({ version: 2, isLatest: 1, sourceName: 'plan-rev.dxf', remarkType: 2, description: 'overwrite upload', fileMD5: md5(B) });
      const r3 = await vupload(a.token, { fileId }, [{ name: 'plan.dxf', body: C }]);
      expect(r3.bizData.version).toBe(3);
      const v2 = r2.bizData.versionId as string;
      const v3 = r3.bizData.versionId as string;
      // the file is its latest version
      let it3 = await item(fileId);
      expect([it3.blob_md5, Number(it3.size), Number(it3.version), it3.name]).toEqual([md5(C), C.length, 3, 'plan.dxf']);
      expect((await t.usage(a.id)).used).toBe(A.length + B.length + C.length);
      // the new content's scene is built in the background, like after an upload
      expect((await t.deps.queue.status(`scene-${fileId}-v3`)).state).not.toBe('unknown');

      const back = await t.call('/cloud/v5/version/back', { versionId: v1, relationId: fileId, relationType: 1 }, a.token);
      expect(back.rtnCode).toBe('0000000');
      expect(back.bizData).toMatchObject({ version: 4, isLatest: 1, remarkType: 3, remarkFrom: '1', description: 'rollback from V1', relationId: v1, fileMD5: md5(A), size: A.length });
      it3 = await item(fileId);
      expect([it3.blob_md5, Number(it3.size), Number(it3.version)]).toEqual([md5(A), A.length, 4]);
      // A was counted already for this file: a rollback adds nothing
      expect((await t.usage(a.id)).used).toBe(A.length + B.length + C.length);
      const h4 = await history(a.token, fileId);
      expect(h4.list.map((v: { version: number; isLatest: number }) => [v.version, v.isLatest])).toEqual([[4, 1], [3, 0], [2, 0], [1, 0]]);

      // the latest cannot be deleted, alone or in a batch (and the batch deletes nothing)
      const latestDel = await t.call('/cloud/v5/version/delete', { versionId: back.bizData.versionId }, a.token);
      expect(latestDel.rtnCode).toBe('1013003');
      expect(latestDel.msg).toBe('The latest version cannot be deleted');
      expect((await t.call('/cloud/v5/version/deleteBatch', { versionIds: [v2, back.bizData.versionId] }, a.token)).rtnCode).toBe('1013003');
      expect((await history(a.token, fileId)).total).toBe(4);

      expect(await refCount(md5(B))).toBe(1);
      const del = await t.call('/cloud/v5/version/delete', { versionId: v2 }, a.token);
      expect(del).toMatchObject({ rtnCode: '0000000', bizData: { deleted: 1 } });
      expect((await t.usage(a.id)).used).toBe(A.length + C.length);
      // B's last reference went: its blob and stored object are gone
      expect(await refCount(md5(B))).toBe(0);
      expect(await t.deps.storage.exists(`blobs/${md5(B).slice(0, 2)}/${md5(B)}`)).toBe(false);
      expect((await history(a.token, fileId)).list.map((v: { version: number }) => v.version)).toEqual([4, 3, 1]);

      const dl = await t.call('/cloud/v5/version/download', { versionId: v3 }, a.token);
      expect(dl.bizData).toMatchObject({ name: 'plan_V3.dxf', size: C.length });
      const got = await t.fetchSigned(dl.bizData.signedUrl);
      expect(got.status).toBe(200);
      expect(md5(got.body)).toBe(md5(C));

      // identical bytes once more (V5 = C): already counted for this file, adds nothing; V6 = new bytes adds them
      const r5 = await vupload(a.token, { fileId }, [{ name: 'plan.dxf', body: C }]);
      expect(r5.bizData.version).toBe(5);
      expect((await t.usage(a.id)).used).toBe(A.length + C.length);
      const D = dxf('Delta', 11);
      const r6 = await vupload(a.token, { fileId }, [{ name: 'plan.dxf', body: D }]);
      expect(r6.bizData.version).toBe(6);
      expect((await t.usage(a.id)).used).toBe(A.length + C.length + D.length);

      // batch download: a zip of the chosen versions, streamed
      const zip = await t.app.inject({ method: 'POST', url: `/cloud/v5/version/downloadBatchZip?utoken=${encodeURIComponent(a.token)}`, payload: { data: { versionIds: [v1, v3] } } });
      expect(zip.headers['content-type']).toBe('application/zip');
      const entries = unzip(zip.rawPayload);
      expect([...entries.keys()]).toEqual(['plan_V1.dxf', 'plan_V3.dxf']);
      expect(md5(entries.get('plan_V1.dxf')!)).toBe(md5(A));
      expect(md5(entries.get('plan_V3.dxf')!)).toBe(md5(C));

      // the operator's recount agrees with the running count
      expect(await createQuotaService(t.deps).recalculate(a.id)).toBe(A.length + C.length + D.length);
      const latest = await t.call('/cloud/v5/version/getFileVersionLatestNumber', { fileId }, a.token);
      expect(latest.bizData).toMatchObject({ fileId, version: 6, versionId: r6.bizData.versionId });

      // the compare module's read: my version, with its bytes; numbers are never reused after a delete
      expect(await getVersionForUser(t.deps.db, a.id, v3)).toEqual({ versionId: v3, fileId, number: 3, blobMd5: md5(C), size: C.length, sourceName: 'plan.dxf' });
      expect(await getVersionForUser(t.deps.db, b.id, v3)).toBeUndefined();
      expect(await getVersionForUser(t.deps.db, a.id, v2)).toBeUndefined();

      // deleting the file for good gives back every byte and every reference of its history
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [fileId], folderIds: [] }, a.token)).rtnCode).toBe('0000000');
      // the bin keeps history: only the current content left the count
      expect((await t.usage(a.id)).used).toBe(A.length + C.length);
      expect(await createQuotaService(t.deps).recalculate(a.id)).toBe(A.length + C.length);
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 2, fileIds: [], folderIds: [] }, a.token)).rtnCode).toBe('0000000');
      expect((await t.usage(a.id)).used).toBe(0);
      for (const x of [A, C, D]) expect(await refCount(md5(x))).toBe(0);
      expect(await t.db.db.selectFrom('file_versions').selectAll().where('item_id', '=', fileId).execute()).toEqual([]);
    });

    it('searches by source file name and updater, edits a remark', async () => {
      const fileId = (await t.upload(a.token, 'search.dxf', dxf('S0'))).bizData.id as string;
      await vupload(a.token, { fileId }, [{ name: 'tower-east.dxf', body: dxf('S1') }]);
      await vupload(a.token, { fileId }, [{ name: 'Tower-West.dxf', body: dxf('S2') }]);
      await vupload(a.token, { fileId }, [{ name: 'garage.dxf', body: dxf('S3') }]);
      const tower = await history(a.token, fileId, { sourceName: 'tower' });
      expect(tower.total).toBe(2);
      expect(tower.list.map((v: { sourceName: string }) => v.sourceName)).toEqual(['Tower-West.dxf', 'tower-east.dxf']);
      expect((await history(a.token, fileId, { sourceName: '%' })).total).toBe(0);
      expect((await history(a.token, fileId, { updateName: 'ALICE' })).total).toBe(4);
      expect((await history(a.token, fileId, { updateName: 'bob' })).total).toBe(0);
      expect((await history(a.token, fileId, { sourceName: 'garage', updateName: 'alice' })).list.map((v: { version: number }) => v.version)).toEqual([4]);
      const page = await history(a.token, fileId, { pageNo: 2, pageSize: 3 });
      expect([page.total, page.list.map((v: { version: number }) => v.version)]).toEqual([4, [1]]);

      const v1 = page.list[0].versionId;
      const rem = await t.call('/cloud/v5/version/updateRemark', { versionId: v1, remark: '  first issue  ' }, a.token);
      expect(rem.bizData).toMatchObject({ remark: 'first issue', version: 1, isLatest: 0 });
      expect((await history(a.token, fileId, { pageNo: 2, pageSize: 3 })).list[0].remark).toBe('first issue');
    });

    it('refuses a second file, no file, another type, and answers the instant path and copy from the cloud', async () => {
      const fileId = (await t.upload(a.token, 'one.dxf', dxf('One'))).bizData.id as string;
      const two = await vupload(a.token, { fileId }, [{ name: 'x.dxf', body: dxf('X1') }, { name: 'y.dxf', body: dxf('Y1') }]);
      expect(two.rtnCode).toBe('1013005');
      expect(two.msg).toBe('Only one file can be uploaded at a time!!');
      const none = await vupload(a.token, { fileId }, []);
      expect([none.rtnCode, none.msg]).toEqual(['1013004', 'Please select a file']);
      expect((await vupload(a.token, { fileId }, [{ name: 'x.dwg', body: dxf('X2') }])).rtnCode).toBe('1013006');
      expect((await history(a.token, fileId)).total).toBe(1);

      // instant: bytes stored already (another file has them) → a version without sending them
      const other = dxf('Other');
      const otherId = (await t.upload(a.token, 'other.dxf', other)).bizData.id as string;
      const used = (await t.usage(a.id)).used;
      const unknown = await t.call('/cloud/v5/version/upload', { fileId, md5: md5(dxf('never sent')), size: 100 }, a.token);
      expect(unknown.bizData).toMatchObject({ exists: false, needUpload: true, version: null });
      // bytes nobody the caller knows of stores: a proof-of-possession challenge, as for any bytes the caller does not own
      expect(unknown.bizData.possession.ranges.length).toBeGreaterThan(0);
      const instant = await t.call('/cloud/v5/version/upload', { fileId, md5: md5(other), size: other.length, name: 'other.dxf' }, a.token);
      expect(instant.bizData).toMatchObject({ exists: true, needUpload: false, version: { version: 2, fileMD5: md5(other) } });
      // per file: this file now counts `other` too (it also counts for other.dxf)
      expect((await t.usage(a.id)).used).toBe(used + other.length);

      const noPick = await t.call('/cloud/v5/version/copy', { fileId }, a.token);
      expect([noPick.rtnCode, noPick.msg]).toEqual(['1013004', 'Please select a file']);
      const third = dxf('Third');
      const thirdId = (await t.upload(a.token, 'third.dxf', third)).bizData.id as string;
      const copy = await t.call('/cloud/v5/version/copy', { fileId, sourceFileId: thirdId }, a.token);
      expect(copy.bizData).toMatchObject({ version: 3, sourceName: 'third.dxf', relationId: thirdId, relationType: 2, fileMD5: md5(third) });
      expect((await item(fileId)).blob_md5).toBe(md5(third));
      expect((await item(otherId)).blob_md5).toBe(md5(other));

      // bytes shared between files: deleting the source file for good leaves the version (and its bytes) alone
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [thirdId], folderIds: [] }, a.token)).rtnCode).toBe('0000000');
      const got = await t.fetchSigned((await t.call('/cloud/v5/version/download', { versionId: copy.bizData.versionId }, a.token)).bizData.signedUrl);
      expect(md5(got.body)).toBe(md5(third));
      // deleting this file for good (not through the bin) gives back its whole history
      const usedBefore = (await t.usage(a.id)).used;
      const versionBytes = (await history(a.token, fileId)).list.reduce((n: number, v: { size: number }) => n + v.size, 0);
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [fileId], folderIds: [] }, a.token)).rtnCode).toBe('0000000');
      expect((await t.usage(a.id)).used).toBe(usedBefore - versionBytes);
      expect(await refCount(md5(third))).toBe(0);
      expect(await refCount(md5(other))).toBe(1); // other.dxf itself
    });

    it('numbers concurrent uploads one after another and counts each once', async () => {
      const fileId = (await t.upload(a.token, 'busy.dxf', dxf('Busy 0'))).bizData.id as string;
      const before = (await t.usage(a.id)).used;
      const bodies = [dxf('Busy 1'), dxf('Busy 2'), dxf('Busy 3')];
      const answers = await Promise.all(bodies.map((body) => vupload(a.token, { fileId }, [{ name: 'busy.dxf', body }])));
      expect(answers.map((r) => r.rtnCode)).toEqual(['0000000', '0000000', '0000000']);
      expect(answers.map((r) => r.bizData.version).sort()).toEqual([2, 3, 4]);
      expect((await t.usage(a.id)).used).toBe(before + bodies.reduce((n, b) => n + b.length, 0));
      const h = await history(a.token, fileId);
      expect((await item(fileId)).blob_md5).toBe(h.list[0].fileMD5);
      // deleted once: a second delete finds nothing
      const v2 = h.list.find((v: { version: number }) => v.version === 2).versionId;
      expect((await t.call('/cloud/v5/version/delete', { versionId: v2 }, a.token)).rtnCode).toBe('0000000');
      expect((await t.call('/cloud/v5/version/delete', { versionId: v2 }, a.token)).rtnCode).toBe('1000404');
    });

    it('refuses a version that does not fit in the storage, changing nothing', async () => {
      const small = await t.createUser({ quota: A.length + 10 });
      const fileId = (await t.upload(small.token, 'tiny.dxf', A)).bizData.id as string;
      const r = await vupload(small.token, { fileId }, [{ name: 'tiny.dxf', body: B }]);
      expect(r.rtnCode).toBe('1002002');
      expect((await t.usage(small.id)).used).toBe(A.length);
      expect((await item(fileId)).blob_md5).toBe(md5(A));
      expect((await history(small.token, fileId)).total).toBe(1);
    });

    it('another user cannot list, delete, roll back, edit, download, upload to or preview my versions', async () => {
      const fileId = (await t.upload(a.token, 'private.dxf', dxf('Mine'))).bizData.id as string;
      const v2 = (await vupload(a.token, { fileId }, [{ name: 'private.dxf', body: dxf('Mine 2') }])).bizData.versionId as string;
      const v1 = (await history(a.token, fileId)).list[1].versionId as string;
      const notFound = '1000404';
      expect((await t.call('/cloud/v5/version/history', { fileId }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/getFileVersionLatestNumber', { fileId }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/delete', { versionId: v1 }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/deleteBatch', { versionIds: [v1] }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/back', { versionId: v1 }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/updateRemark', { versionId: v1, remark: 'x' }, b.token)).rtnCode).toBe(notFound);
      expect((await t.call('/cloud/v5/version/download', { versionId: v1 }, b.token)).rtnCode).toBe(notFound);
      const zip = await t.app.inject({ method: 'POST', url: `/cloud/v5/version/downloadBatchZip?utoken=${encodeURIComponent(b.token)}`, payload: { data: { versionIds: [v1] } } });
      expect(zip.json().rtnCode).toBe(notFound);
      expect((await vupload(b.token, { fileId }, [{ name: 'private.dxf', body: dxf('Theirs') }])).rtnCode).toBe(notFound);
      const bFile = (await t.upload(b.token, 'b.dxf', dxf('B file'))).bizData.id as string;
      expect((await t.call('/cloud/v5/version/copy', { fileId, sourceFileId: bFile }, b.token)).rtnCode).toBe(notFound);
      // nor take my file's bytes into theirs
      expect((await t.call('/cloud/v5/version/copy', { fileId: bFile, sourceFileId: fileId }, b.token)).rtnCode).toBe(notFound);
      // the viewer: my version, their ticket → no permission; their own file with my version id → no permission
      const seen = await scene(b.token, fileId, v1);
      expect(seen.json().rtnCode).toBe('1008006');
      expect((await scene(b.token, bFile, v1)).json().rtnCode).toBe('1008006');
      // not signed in at all
      expect((await t.call('/cloud/v5/version/history', { fileId })).rtnCode).toBe('101');
      // nothing changed
      const h = await history(a.token, fileId);
      expect(h.list.map((v: { versionId: string; remark: string }) => [v.versionId, v.remark])).toEqual([[v2, ''], [v1, '']]);
    });

    it('opens an earlier version in the viewer by versionId (owner only, that file only)', async () => {
      const fileId = (await t.upload(a.token, 'view.dxf', dxf('Original'))).bizData.id as string;
      await vupload(a.token, { fileId }, [{ name: 'view.dxf', body: dxf('Changed', 5) }]);
      const h = await history(a.token, fileId);
      const v1 = h.list[1].versionId as string;
      const texts = (body: Buffer) => decodeScene(new Uint8Array(body)).meta.texts.map((x) => x.text).join('|');
      const cur = await scene(a.token, fileId);
      expect(cur.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      const old = await scene(a.token, fileId, v1);
      expect(old.statusCode).toBe(200);
      expect(old.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      expect(texts(old.rawPayload)).toBe('Original');
      expect(texts(cur.rawPayload)).toBe('Changed');
      // a version id of another file, asked under this file → refused
      const otherFile = (await t.upload(a.token, 'else.dxf', dxf('Else'))).bizData.id as string;
      const otherV = (await history(a.token, otherFile)).list[0].versionId as string;
      expect((await scene(a.token, fileId, otherV)).json().rtnCode).toBe('1008006');
    });
  });
}
