/**
 * PDF → DXF on the server (issue 17 part 5): an uploaded PDF converted by transformBatch ends SUCCESS with a DXF next
 * to it that our reader opens (and ezdxf audits clean where installed), counted in storage; the bad inputs (encrypted,
 * 0 bytes, pictures only, random bytes named .pdf) end FAIL with the spec's message and the precise reason, the source
 * untouched and no file made; a PDF asks for drawing targets only.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDxf, pairValue } from '../../../../../packages/cad/src/dxf/reader.ts';
import { circlePath, fixturePdf } from '../../../../../packages/cad/src/testing/pdf-fixture.ts';
import { ezdxfErrors } from '../../../../../packages/cad/src/testing/ezdxf-audit.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerConversionJobs } from './conversions.jobs.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';

const PLAN = fixturePdf([
  { content: ['0 G 1 w 72 72 m 500 72 l 500 700 l 72 700 l h S', circlePath(300, 400, 60), 'S', '1 0 0 rg 100 100 40 40 re f', 'BT /F1 14 Tf 1 0 0 1 100 720 Tm (Ground floor) Tj ET'].join('\n') },
  { content: '0 G 72 72 m 300 300 l S' },
]);

for (const driver of testDatabaseDrivers()) {
  describe(`PDF to DXF conversions on ${driver.name}`, () => {
    let t: TestApp;
    let a: Awaited<ReturnType<TestApp['createUser']>>;
    const status = async (fileId: string, lang?: string) => (await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [fileId] }, a.token, lang)).bizData.list[0];
    const settled = (fileId: string) => until(async () => {
      const s = await status(fileId);
      return s.transformStatus !== 0 ? s : undefined;
    }, 60_000);
    const itemOf = async (id: string) => (await t.call('/cloud/v5/file/getFileInfo', { fileId: id }, a.token)).bizData;
    const names = async () => (await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.map((i: { name: string }) => i.name).sort();

    /**
     * A file of the drive with these bytes. Uploads refuse 0 bytes (upload.empty), but an archive's empty member
     * lands in the drive as one: that file is made here by pointing an uploaded file at the empty blob.
     */
    const uploaded = async (name: string, bytes: Buffer) => {
      if (bytes.length) return (await t.upload(a.token, name, bytes)).bizData;
      const src = (await t.upload(a.token, name, Buffer.from('placeholder'))).bizData;
      const md5 = createHash('md5').update(bytes).digest('hex');
      await t.deps.storage.put(blobKey(md5), bytes, { size: 0, contentType: 'application/octet-stream' });
      await createBlobsService(t.deps).register(md5, 0);
      await t.db.db.updateTable('items').set({ blob_md5: md5, size: 0 }).where('id', '=', src.id).execute();
      return itemOf(src.id);
    };

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      await t.db.db.updateTable('users').set({ vip_type: 1 }).where('id', '=', a.id).execute();
      registerConversionJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => t?.close());

    it('converts an uploaded PDF to a DXF next to it, each page a layout, counted in storage', async () => {
      const targets = (await t.call('/cloud/v5/file/task/transformTargets', {}, a.token)).bizData;
      expect(targets).toMatchObject({ pdfToDrawing: true, pdfTargets: ['dxf'] });
      const src = (await t.upload(a.token, 'plan.pdf', Buffer.from(PLAN))).bizData;
      const before = await t.usage(a.id);
      // a PDF becomes a drawing, not a picture or another PDF
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'png' }, a.token)).bizData.code).toBe('conversion.notDrawing');
      const r = await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'dxf', version: '2013' }, a.token);
      expect(r.rtnCode).toBe('0000000');
      const done = await settled(src.id);
      expect(done).toMatchObject({ transformStatus: 1, progress: 100, code: null });
      const result = await itemOf(done.resultFileId);
      expect(result).toMatchObject({ name: 'plan.dxf', type: 'dxf', parentId: src.parentId });
      const link = (await t.call('/cloud/v5/file/download', { fileId: result.id }, a.token)).bizData;
      const dxf = (await t.fetchSigned(link.signedUrl ?? link.url, a.token)).body;
      expect(dxf.length).toBe(result.size);
      const d = parseDxf(dxf);
      expect(d.header.version).toBe('AC1027');
      expect(d.layouts.map((l) => l.name).sort()).toEqual(['Model', 'Page 1', 'Page 2']);
      expect(d.counts).toMatchObject({ CIRCLE: 1, HATCH: 1, TEXT: 1 });
      expect(d.entities.filter((e) => e.type === 'TEXT').map((e) => pairValue(e, 1))).toEqual(['Ground floor']);
      expect(ezdxfErrors(dxf, 'server-plan.dxf')).toEqual([]);
      expect((await t.usage(a.id)).used).toBe(before.used + result.size);
      expect(await itemOf(src.id)).toMatchObject({ transformStatus: 1, size: src.size, fileMD5: src.fileMD5 });

      // page 2 only, stacked in model space, calibrated: its 72 → 300 pt diagonal measured as 10 m
      const again = await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'dxf', options: { pages: [2], stack: true, calibrate: { from: [72, 72], to: [300, 300], mm: 10_000 } } }, a.token);
      expect(again.rtnCode).toBe('0000000');
      const second = await settled(src.id);
      expect(second).toMatchObject({ transformStatus: 1, resultName: 'plan (1).dxf' });
      const link2 = (await t.call('/cloud/v5/file/download', { fileId: second.resultFileId }, a.token)).bizData;
      const d2 = parseDxf((await t.fetchSigned(link2.signedUrl ?? link2.url, a.token)).body);
      // no page layouts (a DXF always has one paper layout: the writer's empty Layout1)
      expect(d2.layouts.map((l) => l.name).filter((n) => n.startsWith('Page'))).toEqual([]);
      const line = d2.entities.find((e) => e.type === 'LINE' && !e.paperSpace)!;
      const len = Math.hypot(Number(pairValue(line, 11)) - Number(pairValue(line, 10)), Number(pairValue(line, 21)) - Number(pairValue(line, 20)));
      expect(len).toBeCloseTo(10_000, 3);

      // plotted at 1:50: drawing units are the PDF's millimetres times 50 (the 228 pt diagonal, 228√2 × 25.4 / 72 × 50)
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'dxf', options: { pages: [2], stack: true, scale: 50 } }, a.token)).rtnCode).toBe('0000000');
      const third = await settled(src.id);
      expect(third).toMatchObject({ transformStatus: 1, resultName: 'plan (2).dxf' });
      const link3 = (await t.call('/cloud/v5/file/download', { fileId: third.resultFileId }, a.token)).bizData;
      const d3 = parseDxf((await t.fetchSigned(link3.signedUrl ?? link3.url, a.token)).body);
      const line3 = d3.entities.find((e) => e.type === 'LINE' && !e.paperSpace)!;
      const len3 = Math.hypot(Number(pairValue(line3, 11)) - Number(pairValue(line3, 10)), Number(pairValue(line3, 21)) - Number(pairValue(line3, 20)));
      expect(len3).toBeCloseTo(((228 * Math.SQRT2 * 25.4) / 72) * 50, 3);
    });

    const junk = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 251));
    it.each([
      ['locked.pdf', Buffer.from(fixturePdf([{ content: '0 G 72 72 m 300 300 l S' }], { encrypt: true })), /encrypted/],
      ['empty.pdf', Buffer.alloc(0), /empty/],
      ['scan.pdf', Buffer.from(fixturePdf([{ content: 'q 595 0 0 842 0 0 cm /Im1 Do Q', image: { width: 16, height: 16 } }])), /only pictures/],
      ['junk.pdf', junk, /not a valid PDF/],
    ])('%s ends FAIL with the spec message and its reason; the source untouched, no file made', async (name, bytes, reason) => {
      const src = await uploaded(name, bytes);
      const before = await names();
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'dxf' }, a.token)).rtnCode).toBe('0000000');
      const failed = await settled(src.id);
      expect(failed).toMatchObject({ transformStatus: 2, code: 'conversion.failed', resultFileId: null });
      expect(failed.msg.startsWith('Failed to convert the file format.')).toBe(true);
      expect(failed.msg).toMatch(reason);
      expect((await status(src.id, 'zh')).msg).toMatch(/^文件格式转换失败。（/);
      expect(await names()).toEqual(before);
      expect(await itemOf(src.id)).toMatchObject({ transformStatus: 2, size: bytes.length, fileMD5: src.fileMD5 });
    });
  });

  describe(`a PDF that would keep the worker busy, on ${driver.name}`, () => {
    let t: TestApp;
    afterAll(async () => t?.close());
    it('ends FAIL at the conversion time cap instead of hanging, and makes no file', async () => {
      // the worker's time cap (CONVERSION_TIMEOUT_MS, as the scene builder's): 1 s against a page of 400,000 strokes
      t = await createTestApp(driver, { CONVERSION_TIMEOUT_MS: '1000' });
      const a = await t.createUser();
      await t.db.db.updateTable('users').set({ vip_type: 1 }).where('id', '=', a.id).execute();
      registerConversionJobs(t.deps.queue, t.deps);
      const heavy = Array.from({ length: 400_000 }, (_, i) => `${i % 500} ${(i >> 9) % 800} m ${(i % 500) + 1} ${((i >> 9) % 800) + 1} l S`).join('\n');
      const src = (await t.upload(a.token, 'heavy.pdf', Buffer.from(fixturePdf([{ content: heavy }])))).bizData;
      const started = Date.now();
      expect((await t.call('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'dxf' }, a.token)).rtnCode).toBe('0000000');
      const failed = await until(async () => {
        const s = (await t.call('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [src.id] }, a.token)).bizData.list[0];
        return s.transformStatus !== 0 ? s : undefined;
      }, 60_000);
      expect(failed).toMatchObject({ transformStatus: 2, code: 'conversion.failed', resultFileId: null, msg: 'Failed to convert the file format.' });
      expect(Date.now() - started).toBeLessThan(30_000);
      // it was the time cap that ended it (the worker stopped), not the PDF's content
      const row = await t.db.db.selectFrom('conversions').select('detail').where('source_id', '=', src.id).executeTakeFirstOrThrow();
      expect(row.detail).toMatch(/^timeout/);
      const names = (await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.map((i: { name: string }) => i.name);
      expect(names).toEqual(['heavy.pdf']);
    }, 90_000);
  });
}
