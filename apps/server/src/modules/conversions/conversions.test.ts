import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { fixtureImage, writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { placeDirectly } from '../../test/place-directly.ts';
import { extractWithProof } from '../../test/share-proof.ts';
import { registerConversionJobs } from './conversions.jobs.ts';
import { sampleDxf } from '../../test/dxf-fixtures.ts';
import { createConversionsService } from './conversions.service.ts';
import { sharedConversionRunner } from './conversion-runner.ts';
import { drawingFonts } from '../drawings/drawing-fonts.ts';

/** A frame with a picture in it: the IMAGE names `C:\site\Aerial.JPG` (as in thumbnail-pictures.test.ts). */
const PICTURE_IMAGE = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'C:\\site\\Aerial.JPG', pixels: [20, 10], insert: [10, 10], u: [9, 0], v: [0, 8] });
const PICTURE_DXF = Buffer.from(writeAsciiDxf({
  entities: [{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 4], [70, 1], [10, 0], [20, 0], [10, 200], [20, 0], [10, 200], [20, 100], [10, 0], [20, 100]] }, PICTURE_IMAGE.entity],
  objects: [PICTURE_IMAGE.def],
}));
const BROKEN_DXF = Buffer.from('0\nSECTION\n2\nENTITIES\n0\nLINE\n10\nnot-a-number\n0\nENDSEC\n0\nEOF\n'.replace('0\nENDSEC\n0\nEOF\n', '') + 'garbage without an end');

for (const driver of testDatabaseDrivers()) {
  describe(`conversions on ${driver.name}`, () => {
    let t: TestApp;
    let a: Awaited<ReturnType<TestApp['createUser']>>;
    let jobsOn = false;
    /** the job handler is registered when a test wants the jobs to run (before that, conversions stay "converting") */
    const runJobs = () => {
      if (!jobsOn) registerConversionJobs(t.deps.queue, t.deps);
      jobsOn = true;
    };
    const status = async (token: string, fileId: string) => (await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [fileId] }, token)).bizData.list[0];
    const settled = (token: string, fileId: string) => until(async () => {
      const s = await status(token, fileId);
      return s.transformStatus !== 0 ? s : undefined;
    }, 60_000);
    const itemOf = async (token: string, id: string) => (await t.call('/cloud/v5/file/getFileInfo', { fileId: id }, token)).bizData;
    const vip = (uid: string) => t.db.db.updateTable('users').set({ vip_type: 1 }).where('id', '=', uid).execute();

    beforeAll(async () => {
      t = await createTestApp(driver, { FREE_CONVERSIONS_PER_MONTH: '2' });
      a = await t.createUser();
      await vip(a.id);
    });
    afterAll(async () => t?.close());

    it('converts a DXF to PDF next to it; while converting the source says 0 and refuses rename, move and delete', async () => {
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Plans' }, a.token)).bizData;
      const box = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Box' }, a.token)).bizData;
      const src = (await t.upload(a.token, 'plan.dxf', sampleDxf(), { parentId: folder.id })).bizData;
      expect(src.transformStatus).toBe(3);
      const before = await t.usage(a.id);
      const r = await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf', options: { layouts: 'all' } }, a.token);
      expect(r.rtnCode).toBe('0000000');
      expect(r.bizData.list[0]).toMatchObject({ fileId: src.id, sourceName: 'plan.dxf', target: 'pdf', transformStatus: 0 });
      const listed = (await t.call('/cloud/v5/union/list', { parentId: folder.id }, a.token)).bizData.list;
      expect(listed.find((i: any) => i.id === src.id).transformStatus).toBe(0);
      for (const [path, data] of [
        ['/cloud/v5/file/edit', { fileId: src.id, name: 'other.dxf' }],
        ['/cloud/v5/union/move', { fileIds: [src.id], folderIds: [], moveToId: box.id }],
        ['/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [src.id] }],
        ['/cloud/v5/union/delete', { deleteLevel: 0, folderIds: [folder.id] }],
      ] as const) {
        const refused = await t.call(path, data, a.token);
        expect(refused.bizData.code, path).toBe('conversion.inProgress');
      }
      // one conversion of a source at a time
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'png' }, a.token)).bizData.code).toBe('conversion.inProgress');

      runJobs();
      const done = await settled(a.token, src.id);
      expect(done).toMatchObject({ transformStatus: 1, progress: 100, stage: 'done', code: null });
      const result = await itemOf(a.token, done.resultFileId);
      expect(result).toMatchObject({ name: 'plan.pdf', type: 'pdf', parentId: folder.id, transformStatus: 3 });
      const link = (await t.call('/cloud/v5/file/download', { fileId: result.id }, a.token)).bizData;
      const pdf = await t.fetchSigned(link.signedUrl ?? link.url, a.token);
      expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.body.length).toBe(result.size);
      // counted in storage; the source is as it was, now marked converted, and free to move again
      expect((await t.usage(a.id)).used).toBe(before.used + result.size);
      expect(await itemOf(a.token, src.id)).toMatchObject({ transformStatus: 1, size: src.size, fileMD5: src.fileMD5 });
      // again: the drive's name rules
      await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, a.token);
      const again = await settled(a.token, src.id);
      expect((await itemOf(a.token, again.resultFileId)).name).toBe('plan (1).pdf');
      const conversions = (await t.call('/cloud/v5/file/task/transformList', {}, a.token)).bizData;
      expect(conversions.list.map((c: any) => [c.sourceName, c.target, c.transformStatus, c.resultName])).toEqual([['plan.dxf', 'pdf', 1, 'plan (1).pdf'], ['plan.dxf', 'pdf', 1, 'plan.pdf']]);
      expect((await t.call('/cloud/v5/file/edit', { fileId: src.id, name: 'renamed.dxf' }, a.token)).rtnCode).toBe('0000000');
    });

    it('ends a drawing that cannot be read with the spec message, then the repeated-failure message; no file appears and retry starts anew', async () => {
      runJobs();
      const src = (await t.upload(a.token, 'broken.dxf', BROKEN_DXF)).bizData;
      const files = async () => (await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.length;
      const count = await files();
      const first = (await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, a.token)).bizData.list[0];
      expect(await settled(a.token, src.id)).toMatchObject({ transformStatus: 2, code: 'conversion.failed', msg: 'Failed to convert the file format.', resultFileId: null });
      expect(await itemOf(a.token, src.id)).toMatchObject({ transformStatus: 2, size: BROKEN_DXF.length });
      expect(await files()).toBe(count);
      const retried = await t.call('/cloud/v5/file/task/transformRetry', { taskId: first.taskId }, a.token);
      expect(retried.rtnCode).toBe('0000000');
      const second = await settled(a.token, src.id);
      expect(second.code).toBe('conversion.repeatedFailure');
      expect(second.msg).toMatch(/several times/);
      const zh = (await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [src.id] }, a.token, 'zh')).bizData.list[0];
      expect(zh.msg).toMatch(/多次转换失败/);
      expect(await files()).toBe(count);
      // another user's first conversion of the same bytes is a first failure: nothing of a's conversions shows through
      const b = await t.createUser();
      const theirs = (await t.upload(b.token, 'broken.dxf', BROKEN_DXF)).bizData;
      await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [theirs.id], target: 'pdf' }, b.token);
      expect(await settled(b.token, theirs.id)).toMatchObject({ transformStatus: 2, code: 'conversion.failed' });
      // only a failed conversion is retried
      const ok = (await t.call('/cloud/v5/file/task/transformList', {}, a.token)).bizData.list.find((c: any) => c.transformStatus === 1);
      expect((await t.call('/cloud/v5/file/task/transformRetry', { taskId: ok.taskId }, a.token)).bizData.code).toBe('conversion.notFailed');
    });

    it('bad drawings (0-byte .dwg and .dxf, random bytes named .dwg) end FAIL with the spec message, source and allowance untouched, nothing half made', async () => {
      runJobs();
      // a free account (FREE_CONVERSIONS_PER_MONTH 2): a failure must not spend its allowance
      const u = await t.createUser();
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Bad' }, u.token)).bizData;
      let seed = 17;
      const random = Buffer.alloc(40_000);
      for (let i = 0; i < random.length; i++) random[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
      const sources = [
        { name: 'empty.dwg', body: Buffer.alloc(0) },
        { name: 'empty.dxf', body: Buffer.alloc(0) },
        { name: 'noise.dwg', body: random },
      ];
      const listing = async () => (await t.call('/cloud/v5/union/list', { parentId: folder.id }, u.token)).bizData.list.map((i: any) => i.name).sort();
      const items: any[] = [];
      for (const s of sources) {
        const up = await t.upload(u.token, s.name, s.body, { parentId: folder.id });
        if (s.body.length) {
          items.push(up.bizData);
          continue;
        }
        // the drive refuses an empty upload; an empty drawing can still be there (a file stored before that check, or
        // put by an operator's import): placed as the upload would have placed it
        expect(up.bizData.code).toBe('upload.empty');
        items.push(await placeDirectly(t, u.id, folder.id, s.name, s.body));
      }
      const before = { usage: await t.usage(u.id), names: await listing() };
      const sourceIntact = async (i: number) => {
        const info = await itemOf(u.token, items[i].id);
        expect(info, sources[i].name).toMatchObject({ transformStatus: 2, size: sources[i].body.length, fileMD5: md5(sources[i].body), version: items[i].version });
        const link = (await t.call('/cloud/v5/file/download', { fileId: items[i].id }, u.token)).bizData;
        expect((await t.fetchSigned(link.signedUrl ?? link.url, u.token)).body.equals(sources[i].body), sources[i].name).toBe(true);
      };
      const convert = async (i: number, target: string) => {
        const r = await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [items[i].id], target }, u.token);
        expect(r.rtnCode, `${sources[i].name}: ${r.msg}`).toBe('0000000');
        return { task: r.bizData.list[0], end: await settled(u.token, items[i].id) };
      };

      const emptyDwg = await convert(0, 'pdf');
      expect(emptyDwg.end).toMatchObject({ transformStatus: 2, code: 'conversion.failed', msg: 'Failed to convert the file format.', resultFileId: null, resultName: null });
      await sourceIntact(0);
      // the same (empty) content failed already: repeated failures are counted by content, among this user's conversions
      const emptyDxf = await convert(1, 'png');
      expect(emptyDxf.end).toMatchObject({ transformStatus: 2, code: 'conversion.repeatedFailure', resultFileId: null });
      expect(emptyDxf.end.msg).toMatch(/failed to convert several times/);
      await sourceIntact(1);
      const noise = await convert(2, 'pdf');
      expect(noise.end).toMatchObject({ transformStatus: 2, code: 'conversion.failed', msg: 'Failed to convert the file format.', resultFileId: null });
      await sourceIntact(2);
      // nothing half made: no file next to the sources, no storage spent, and the month's free conversions left whole
      expect(await listing()).toEqual(before.names);
      expect((await t.usage(u.id)).used).toBe(before.usage.used);
      expect((await t.call('/cloud/v5/file/task/transformTargets', {}, u.token)).bizData).toMatchObject({ premium: false, freePerMonth: 2, usedThisMonth: 0 });
      // failing again: the spec's repeated-failure message, in each language
      const retried = await t.call('/cloud/v5/file/task/transformRetry', { taskId: noise.task.taskId }, u.token);
      expect(retried.rtnCode, retried.msg).toBe('0000000');
      const again = await settled(u.token, items[2].id);
      expect(again).toMatchObject({ transformStatus: 2, code: 'conversion.repeatedFailure', resultFileId: null });
      expect(again.msg).toMatch(/failed to convert several times/);
      expect((await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [items[2].id] }, u.token, 'zh')).bizData.list[0].msg).toMatch(/多次转换失败/);
      await sourceIntact(2);
      expect(await listing()).toEqual(before.names);
      // the allowance is still whole: two good conversions are admitted after four failures
      const good = [(await t.upload(u.token, 'good1.dxf', sampleDxf(91), { parentId: folder.id })).bizData.id, (await t.upload(u.token, 'good2.dxf', sampleDxf(92), { parentId: folder.id })).bizData.id];
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: good, target: 'pdf' }, u.token)).rtnCode).toBe('0000000');
      for (const id of good) expect((await settled(u.token, id)).transformStatus).toBe(1);
      expect((await t.call('/cloud/v5/file/task/transformTargets', {}, u.token)).bizData.usedThisMonth).toBe(2);
    });

    it('refuses what it cannot convert: not a drawing, a target without a writer', async () => {
      const pic = (await t.upload(a.token, 'photo.png', Buffer.from('not really a png'))).bizData;
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [pic.id], target: 'pdf' }, a.token)).bizData.code).toBe('conversion.notDrawing');
      const dxf = (await t.upload(a.token, 'w.dxf', sampleDxf(7))).bizData;
      const targets = (await t.call('/cloud/v5/file/task/transformTargets', {}, a.token)).bizData;
      expect(targets).toMatchObject({ pdfToDrawing: true, pdfTargets: ['dxf'], premium: true, freePerMonth: 2 });
      expect(targets.targets).toContain('pdf');
      if (!targets.targets.includes('dwg')) expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [dxf.id], target: 'dwg' }, a.token)).bizData.code).toBe('conversion.targetUnavailable');
      expect((await itemOf(a.token, dxf.id)).transformStatus).toBe(3);
    });

    it('gives a free account FREE_CONVERSIONS_PER_MONTH conversions, then the spec message; members have no limit', async () => {
      runJobs();
      const free = await t.createUser();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await t.upload(free.token, `f${i}.dxf`, sampleDxf(10 + i))).bizData.id);
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: ids, target: 'pdf' }, free.token)).bizData.code).toBe('conversion.monthlyLimit');
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: ids.slice(0, 2), target: 'pdf' }, free.token)).rtnCode).toBe('0000000');
      const over = await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [ids[2]], target: 'pdf' }, free.token);
      expect(over.bizData.code).toBe('conversion.monthlyLimit');
      expect(over.msg).toMatch(/2 files a month/);
      expect((await t.call('/cloud/v5/file/task/transformTargets', {}, free.token)).bizData).toMatchObject({ premium: false, usedThisMonth: 2 });
      await vip(free.id);
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [ids[2]], target: 'pdf' }, free.token)).rtnCode).toBe('0000000');
      for (const id of ids) expect((await settled(free.token, id)).transformStatus).toBe(1);
    });

    it('admits exactly FREE_CONVERSIONS_PER_MONTH of many parallel requests of a free account (count and insert under the user\'s lock)', async () => {
      const racer = await t.createUser();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await t.upload(racer.token, `p${i}.dxf`, sampleDxf(50 + i))).bizData.id);
      const answers = await Promise.all(ids.map((id) => t.call('/cloud/v5/file/task/transformBatch', { fileIds: [id], target: 'pdf' }, racer.token)));
      const codes = answers.map((r) => (r.rtnCode === '0000000' ? 'ok' : r.bizData.code));
      expect(codes.filter((c) => c === 'ok')).toHaveLength(2);
      expect(codes.filter((c) => c !== 'ok')).toEqual(Array(6).fill('conversion.monthlyLimit'));
      expect((await t.call('/cloud/v5/file/task/transformTargets', {}, racer.token)).bizData.usedThisMonth).toBe(2);
      const converting = (await t.call('/cloud/v5/union/list', { parentId: '0' }, racer.token)).bizData.list.filter((i: any) => i.transformStatus === 0);
      expect(converting).toHaveLength(2);
    });

    it('refuses cleanly when the result does not fit the storage quota: no file, no storage used, source untouched', async () => {
      runJobs();
      const body = sampleDxf(3);
      const small = await t.createUser({ quota: body.length + 50 });
      await vip(small.id);
      const src = (await t.upload(small.token, 's.dxf', body)).bizData;
      const used = (await t.usage(small.id)).used;
      await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, small.token);
      const s = await settled(small.token, src.id);
      expect(s).toMatchObject({ transformStatus: 2, code: 'conversion.noSpace', resultFileId: null });
      expect((await t.usage(small.id)).used).toBe(used);
      expect((await t.call('/cloud/v5/union/list', { parentId: '0' }, small.token)).bizData.list.map((i: any) => i.name)).toEqual(['s.dxf']);
      // full already: refused at once
      await t.db.db.updateTable('users').set({ storage_quota: used }).where('id', '=', small.id).execute();
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, small.token)).bizData.code).toBe('conversion.noSpace');
    });

    it("never converts, shows or tells about another user's files or conversions", async () => {
      runJobs();
      const owner = await t.createUser();
      await vip(owner.id);
      const other = await t.createUser();
      await vip(other.id);
      const src = (await t.upload(owner.token, 'secret-plan.dxf', sampleDxf(21))).bizData;
      const task = (await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, owner.token)).bizData.list[0];
      const done = await settled(owner.token, src.id);
      // the recipient of a share sees the file's id: it converts nothing of the owner's
      const share = (await t.call('/cloud/v5/share/create', { fileIds: [src.id] }, owner.token)).bizData;
      const extracted = await extractWithProof(t, { rand: share.rand, code: share.code, password: share.password }, '10.7.7.7');
      const shareToken = extracted.bizData.shareToken as string;
      expect(shareToken).toBeTruthy();
      const answers = [
        await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf', shareToken }, other.token),
        await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' }, other.token),
        await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [src.id] }, other.token),
        await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [done.resultFileId] }, other.token),
        await t.call('/cloud/v5/file/task/transformRetry', { taskId: task.taskId }, other.token),
      ];
      for (const r of answers) {
        expect(r.bizData.code).toBe('item.notFound');
        const text = JSON.stringify(r);
        for (const secret of [src.name, src.id, src.fileMD5, done.resultFileId, task.taskId]) expect(text).not.toContain(secret);
      }
      expect((await t.call('/cloud/v5/file/task/transformList', {}, other.token)).bizData).toEqual({ list: [], total: 0 });
      expect(JSON.stringify(await t.call('/cloud/v5/file/task/transformList', {}, other.token))).not.toContain('secret-plan');
      // mixing one own id with a stranger's gives nothing either
      const mine = (await t.upload(other.token, 'mine.dxf', sampleDxf(22))).bizData;
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [mine.id, src.id], target: 'pdf' }, other.token)).bizData.code).toBe('item.notFound');
      expect((await itemOf(other.token, mine.id)).transformStatus).toBe(3);
      // without a session: nothing
      expect((await t.call('/cloud/v5/file/task/transformList', {})).rtnCode).toBe('101');
    });

    it('refuses a new version (upload, overwrite upload, instant, copy) and a rollback of a converting file; its content stays', async () => {
      const v1 = sampleDxf(60);
      const src = (await t.upload(a.token, 'versioned.dxf', v1)).bizData;
      expect((await t.upload(a.token, 'versioned.dxf', sampleDxf(61), { conflict: 'version' })).rtnCode).toBe('0000000');
      const other = (await t.upload(a.token, 'other.dxf', sampleDxf(62))).bizData;
      const first = (await t.call('/cloud/v5/version/history', { fileId: src.id }, a.token)).bizData.list.find((v: any) => v.version === 1);
      const now = Date.now();
      // a conversion of it admitted and not yet run (its job is held: the row and the status as transformBatch leaves them)
      await t.db.db.insertInto('conversions').values({ id: 'versioned1', uid: a.id, source_id: src.id, source_name: src.name, source_md5: md5(sampleDxf(61)), target: 'pdf', version: null, options: '{}', state: 0, progress: 10, stage: 'read', result_id: null, error: null, detail: null, created_at: now, updated_at: now, finished_at: null }).execute();
      await t.db.db.updateTable('items').set({ transform_status: 0 }).where('id', '=', src.id).execute();
      const before = await itemOf(a.token, src.id);
      const form = (bytes: Buffer) => {
        const boundary = `----cv${Date.now()}`;
        return { boundary, payload: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fileId"\r\n\r\n${src.id}\r\n--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="versioned.dxf"\r\nContent-Type: application/octet-stream\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]) };
      };
      const multipart = form(sampleDxf(63));
      const versionUpload = (await t.app.inject({ method: 'POST', url: `/cloud/v5/version/upload?utoken=${encodeURIComponent(a.token)}`, headers: { 'content-type': `multipart/form-data; boundary=${multipart.boundary}`, 'accept-language': 'en' }, payload: multipart.payload })).json();
      const answers = {
        versionUpload,
        overwrite: await t.upload(a.token, 'versioned.dxf', sampleDxf(64), { conflict: 'version' }),
        instant: await t.call('/cloud/v5/version/upload', { fileId: src.id, md5: other.fileMD5, size: other.size, name: 'versioned.dxf' }, a.token),
        copy: await t.call('/cloud/v5/version/copy', { fileId: src.id, sourceFileId: other.id }, a.token),
        back: await t.call('/cloud/v5/version/back', { versionId: first.versionId }, a.token),
      };
      for (const [what, r] of Object.entries(answers)) expect(r.bizData?.code, what).toBe('conversion.inProgress');
      expect(await itemOf(a.token, src.id)).toMatchObject({ fileMD5: before.fileMD5, size: before.size, transformStatus: 0 });
      expect((await t.call('/cloud/v5/version/history', { fileId: src.id }, a.token)).bizData.total).toBe(2);
      // once the conversion has ended, a new version is taken again
      await t.db.db.updateTable('conversions').set({ state: 2, error: 'conversion.failed' }).where('id', '=', 'versioned1').execute();
      await t.db.db.updateTable('items').set({ transform_status: 2 }).where('id', '=', src.id).execute();
      expect((await t.call('/cloud/v5/version/back', { versionId: first.versionId }, a.token)).rtnCode).toBe('0000000');
      expect((await itemOf(a.token, src.id)).fileMD5).toBe(md5(v1));
    });

    it("shows the pictures a drawing's IMAGEs name, found in its owner's drive, in PNG and PDF results", async () => {
      runJobs();
      const owner = await t.createUser();
      await vip(owner.id);
      const folder = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Site' }, owner.token)).bizData;
      const src = (await t.upload(owner.token, 'site.dxf', PICTURE_DXF, { parentId: folder.id })).bizData;
      // the IMAGE names C:\site\Aerial.JPG: the drive's aerial.jpg in the drawing's folder is it
      await t.upload(owner.token, 'aerial.jpg', await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } }).jpeg({ quality: 95 }).toBuffer(), { parentId: folder.id });
      const result = async (target: string, options: object) => {
        expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target, options }, owner.token)).rtnCode).toBe('0000000');
        const done = await settled(owner.token, src.id);
        expect(done.transformStatus).toBe(1);
        const link = (await t.call('/cloud/v5/file/download', { fileId: done.resultFileId }, owner.token)).bizData;
        return (await t.fetchSigned(link.signedUrl ?? link.url, owner.token)).body as Buffer;
      };
      const png = await result('png', { width: 400 });
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      let red = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 80) red++;
      // the picture fills 9×8 of the 200×100 frame: about 0.36 % of the pixels; a frame alone has none red
      expect(red).toBeGreaterThan(0.002 * info.width * info.height);
      const pdf = await result('pdf', {});
      expect(pdf.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
    });

    it('ends a conversion whose job the queue gave up on, so its source is not blocked for good', async () => {
      const src = (await t.upload(a.token, 'stranded.dxf', sampleDxf(30))).bizData;
      const old = Date.now() - 3600_000;
      // as a conversion whose job failed without ending it (or was removed) looks
      await t.db.db.insertInto('conversions').values({ id: 'stranded1', uid: a.id, source_id: src.id, source_name: src.name, source_md5: src.fileMD5, target: 'pdf', version: null, options: '{}', state: 0, progress: 40, stage: 'draw', result_id: null, error: null, detail: null, created_at: old, updated_at: old, finished_at: null }).execute();
      await t.db.db.updateTable('items').set({ transform_status: 0 }).where('id', '=', src.id).execute();
      expect((await t.call('/cloud/v5/file/edit', { fileId: src.id, name: 'x.dxf' }, a.token)).bizData.code).toBe('conversion.inProgress');
      const service = createConversionsService(t.deps, sharedConversionRunner(t.deps), drawingFonts(t.deps));
      expect(await service.sweepStranded()).toBe(1);
      expect(await status(a.token, src.id)).toMatchObject({ transformStatus: 2, code: 'conversion.failed' });
      expect((await t.call('/cloud/v5/file/edit', { fileId: src.id, name: 'x.dxf' }, a.token)).rtnCode).toBe('0000000');
      // a running one with its job alive is left alone
      expect(await service.sweepStranded()).toBe(0);
    });

    it('a job handed out again after its last attempt was killed ends the conversion as failed, cleanly', async () => {
      const src = (await t.upload(a.token, 'killed.dxf', sampleDxf(31))).bizData;
      const files = (await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.length;
      const now = Date.now();
      await t.db.db.insertInto('conversions').values({ id: 'killed1', uid: a.id, source_id: src.id, source_name: src.name, source_md5: src.fileMD5, target: 'pdf', version: null, options: '{}', state: 0, progress: 40, stage: 'draw', result_id: null, error: null, detail: null, created_at: now, updated_at: now, finished_at: null }).execute();
      await t.db.db.updateTable('items').set({ transform_status: 0 }).where('id', '=', src.id).execute();
      const service = createConversionsService(t.deps, sharedConversionRunner(t.deps), drawingFonts(t.deps));
      // the queue hands out a job whose process died again after CONVERSION_ATTEMPTS claims (the database queue counts each claim)
      await service.run('killed1', { attempt: 3, progress: async () => undefined });
      expect(await status(a.token, src.id)).toMatchObject({ transformStatus: 2, code: 'conversion.failed', msg: 'Failed to convert the file format.', resultFileId: null });
      expect((await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.length).toBe(files);
      expect(await itemOf(a.token, src.id)).toMatchObject({ transformStatus: 2, size: src.size, fileMD5: src.fileMD5 });
    });

    it('documents every conversion endpoint in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['transformBatch', 'checkTaskStatusBatch', 'transformList', 'transformRetry', 'transformTargets']) expect(Object.keys(doc.paths)).toContain(`/cloud/v5/file/task/${p}`);
    });
  });
}
