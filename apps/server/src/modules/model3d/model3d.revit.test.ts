// Revit .rvt in the drive (issue 21): accepted, its embedded preview becomes the file's thumbnail, revitInfo3D tells
// its version and project title, and conversion is refused with the advice to export IFC, in each language. The RVT
// is an OLE compound file written in the test with cfb, its streams named as Revit names them. Run once, on SQLite:
// nothing here depends on the database driver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { VipType } from '@cadcloud/contracts';
import { revitFile } from '../../../../../packages/model3d/src/fixtures/revit.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerThumbnailJobs } from '../thumbnails/thumbnails.jobs.ts';
import { thumbnailJobId } from '../thumbnails/thumbnails.keys.ts';
import { registerModel3dJobs } from './model3d.jobs.ts';

const P = '/cloud/v5/file/task/';

describe('Revit .rvt', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
    registerThumbnailJobs(t.deps.queue, t.deps);
    registerModel3dJobs(t.deps.queue, t.deps);
    user = await t.createUser();
    await t.db.db.updateTable('users').set({ vip_type: VipType.SUPER }).where('id', '=', user.id).execute();
  });
  afterAll(async () => t?.close());

  it('shows its embedded preview as the thumbnail; revitInfo3D tells the version and title; conversion refused with the IFC advice', async () => {
    // a preview with a red left half and a blue right half: the thumbnail must be this picture
    const preview = await sharp({ create: { width: 80, height: 40, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .composite([{ input: await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer(), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const f = (await t.upload(user.token, 'Office.rvt', Buffer.from(revitFile({ version: '2023', build: '20220307_1515(x64)', title: 'Office & Lab', png: preview, project: { 'Client Name': 'Ada & Co', 'Project Number': 'P-17', 'Project Address': '1 Harbour Road\nKowloon' } })))).bizData;
    // listed among the 3D models
    expect((await t.call('/cloud/v5/file/listTypeFiles', { includeTypes: ['threeD'] }, user.token)).bizData.list.map((i: any) => i.name)).toContain('Office.rvt');
    const thumbkey = await until(async () => (await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, user.token)).bizData.thumbkey ?? undefined, 60_000);
    const thumb = await t.app.inject({ method: 'GET', url: `/cloud/v5/file/thumb/${thumbkey}?utoken=${encodeURIComponent(user.token)}` });
    expect(thumb.statusCode).toBe(200);
    const { data, info } = await sharp(thumb.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info.width / info.height).toBeCloseTo(2, 1);
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const left = px(Math.floor(info.width / 4), Math.floor(info.height / 2));
    const right = px(Math.floor((3 * info.width) / 4), Math.floor(info.height / 2));
    expect(left[0]).toBeGreaterThan(200);
    expect(left[2]).toBeLessThan(50);
    expect(right[2]).toBeGreaterThan(200);
    expect(right[0]).toBeLessThan(50);

    const r = await t.call(`${P}revitInfo3D`, { fileId: f.id }, user.token);
    expect(r.rtnCode).toBe('0000000');
    expect(r.bizData).toMatchObject({ version: '2023', build: '20220307_1515(x64)', title: 'Office & Lab', lastSavePath: 'C:\\Projects\\Office & Lab.rvt', details: { Author: 'Autodesk Revit' } });
    expect(r.bizData).toMatchObject({ clientName: 'Ada & Co', projectNumber: 'P-17', projectAddress: '1 Harbour Road\nKowloon', projectParameters: { 'Client Name': 'Ada & Co' } });
    expect(r.bizData.advice).toMatch(/export it to IFC from Revit/);
    // asked again: from the kept metadata, the same
    expect((await t.call(`${P}revitInfo3D`, { fileId: f.id }, user.token)).bizData).toEqual(r.bizData);
    // the advice and the refusal in each language
    const words = { en: /IFC/, zh: /IFC/, ko: /IFC/, de: /IFC/ } as const;
    for (const [lang, re] of Object.entries(words)) {
      expect((await t.call(`${P}revitInfo3D`, { fileId: f.id }, user.token, lang)).bizData.advice).toMatch(re);
      const refused = await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, user.token, lang);
      expect(refused.bizData.code).toBe('model3d.revit');
      expect(refused.msg).toMatch(re);
      expect(refused.msg).toBe((await t.call(`${P}revitInfo3D`, { fileId: f.id }, user.token, lang)).bizData.advice);
    }
    expect((await t.call(`${P}transformBatch3D`, { fileIds: [f.id] }, user.token, 'zh')).msg).toContain('Revit');
  });

  it('another user\'s RVT is not found; a file that is not an RVT is told apart', async () => {
    const f = (await t.upload(user.token, 'Mine.rvt', Buffer.from(revitFile({ title: 'Mine' })))).bizData;
    const other = await t.createUser();
    expect((await t.call(`${P}revitInfo3D`, { fileId: f.id }, other.token)).bizData.code).toBe('item.notFound');
    const fake = (await t.upload(user.token, 'fake.rvt', Buffer.from('not really revit'))).bizData;
    expect((await t.call(`${P}revitInfo3D`, { fileId: fake.id }, user.token)).bizData.code).toBe('model3d.openFailed');
    const stl = (await t.upload(user.token, 'a.stl', Buffer.from('solid a\nendsolid a\n'))).bizData;
    expect((await t.call(`${P}revitInfo3D`, { fileId: stl.id }, user.token)).bizData.code).toBe('model3d.notModel');
    // an RVT without a preview: no thumbnail, nothing breaks
    const bare = (await t.upload(user.token, 'Bare.rvt', Buffer.from(revitFile({ title: 'Bare' })))).bizData;
    expect((await t.call(`${P}revitInfo3D`, { fileId: bare.id }, user.token)).bizData.title).toBe('Bare');
    const job = await until(async () => {
      const st = await t.deps.queue.status(thumbnailJobId(bare.fileMD5));
      return st.state === 'completed' ? st : undefined;
    }, 60_000);
    expect(job.result).toEqual({ skipped: 'the Revit file holds no preview image' });
    expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: bare.id }, user.token)).bizData.thumbkey || null).toBeNull();
  });
});
