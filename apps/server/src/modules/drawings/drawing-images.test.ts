import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decodeScene } from '@cadcloud/cad/scene';
import { fixtureImage, writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';

/** A DXF showing the pictures `files` (as the author's machine wrote them), one IMAGE each; `tag` makes the bytes unique. */
function drawingShowing(files: string[], tag: string): Buffer {
  const imgs = files.map((file, i) => fixtureImage({ handle: `A${i + 1}`, defHandle: `D${i + 1}`, file, pixels: [4, 2], insert: [i * 10, 0], u: [1, 0], v: [0, 1] }));
  return Buffer.from(writeAsciiDxf({ entities: [...imgs.map((x) => x.entity), { type: 'LINE', pairs: [[8, '0'], [999, tag], [10, 0], [20, 0], [30, 0], [11, 1], [21, 1], [31, 0]] }], objects: imgs.map((x) => x.def) }));
}
const picture = (color: string, format: 'png' | 'tiff' = 'png') => sharp({ create: { width: 4, height: 2, channels: 3, background: color } })[format]().toBuffer();

for (const driver of testDatabaseDrivers()) {
  describe(`pictures of IMAGE entities on ${driver.name}`, () => {
    let t: TestApp;
    let a: { id: string; token: string };
    let b: { id: string; token: string };
    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
    });
    afterAll(async () => t?.close());

    const url = (q: Record<string, string | undefined>) => `/cloud/v5/drawing/image?${new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined))}`;
    const get = (q: Record<string, string | undefined>, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: url(q), headers: { 'accept-language': 'en', ...headers } });
    const folder = async (token: string, name: string) => (await t.call('/cloud/v5/folder/edit', { parentId: '0', name }, token)).bizData.id as string;

    it("serves the owner the picture the drawing names from the drawing's folder first, by base name ignoring case; TIFF as PNG", async () => {
      const plans = await folder(a.token, 'Plans');
      const elsewhere = await folder(a.token, 'Elsewhere');
      const red = await picture('#ff0000'), blue = await picture('#0000ff');
      await t.upload(a.token, 'photo.png', blue, { parentId: elsewhere });
      await t.upload(a.token, 'Photo.PNG', red, { parentId: plans });
      await t.upload(a.token, 'scan.tif', await picture('#00ff00', 'tiff'), { parentId: elsewhere });
      const id = (await t.upload(a.token, 'site.dxf', drawingShowing(['C:\\work\\PHOTO.png', '.\\scan.TIF'], 'a1'), { parentId: plans })).bizData.id as string;

      const r = await get({ fileId: id, name: 'C:\\work\\PHOTO.png', utoken: a.token });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      // the one in the drawing's folder (red), not the one elsewhere
      expect(Buffer.compare(r.rawPayload, red)).toBe(0);
      expect((await get({ fileId: id, name: 'C:\\work\\PHOTO.png', utoken: a.token }, { 'if-none-match': String(r.headers.etag) })).statusCode).toBe(304);

      const tif = await get({ fileId: id, name: '.\\scan.TIF', utoken: a.token });
      expect(tif.headers['content-type']).toBe('image/png');
      const px = await sharp(tif.rawPayload).raw().toBuffer();
      // green (give or take the TIFF encoder's rounding)
      expect([...px.subarray(0, 3)].map((v) => Math.round(v / 8))).toEqual([0, 32, 0]);
    });

    it("refuses another user with the spec's message, and serves each owner only their own picture", async () => {
      await t.upload(a.token, 'logo.png', await picture('#ff0000'));
      const dxf = drawingShowing(['logo.png'], 'a2');
      const mine = (await t.upload(a.token, 'mine.dxf', dxf)).bizData.id as string;
      const other = await get({ fileId: mine, name: 'logo.png', utoken: b.token });
      expect(other.json()).toMatchObject({ bizData: { code: 'drawing.noPermission' }, msg: 'No permission to visit this file.' });
      expect((await get({ fileId: mine, name: 'logo.png' })).statusCode).toBe(401);
      // B has the same drawing but no logo.png: A's is never used for it
      const theirs = (await t.upload(b.token, 'mine.dxf', dxf)).bizData.id as string;
      expect((await get({ fileId: theirs, name: 'logo.png', utoken: b.token })).json()).toMatchObject({ bizData: { code: 'item.notFound' }, msg: 'File does not exist' });
      await t.upload(b.token, 'LOGO.png', await picture('#0000ff'));
      const own = await get({ fileId: theirs, name: 'logo.png', utoken: b.token });
      expect([...(await sharp(own.rawPayload).raw().toBuffer()).subarray(0, 3)]).toEqual([0, 0, 255]);
    });

    it('answers a name the drive lacks, or one the drawing does not name, with "File does not exist"', async () => {
      await t.upload(a.token, 'secret.png', await picture('#123456'));
      const id = (await t.upload(a.token, 'lonely.dxf', drawingShowing(['missing.png'], 'a3'))).bizData.id as string;
      for (const name of ['missing.png', 'secret.png']) {
        const r = await get({ fileId: id, name, utoken: a.token });
        expect(r.json(), name).toMatchObject({ bizData: { code: 'item.notFound' }, msg: 'File does not exist' });
      }
      // the scene lists what the viewer may ask for
      const scene = decodeScene(new Uint8Array((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${id}&utoken=${encodeURIComponent(a.token)}` })).rawPayload));
      expect(scene.meta.images?.map((i) => [i.file, i.name])).toEqual([['missing.png', 'missing.png']]);
    });

    it('is in the API document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      expect(doc.paths['/cloud/v5/drawing/image'].get).toBeTruthy();
    });

    it('gives a share visitor the picture only through the shared drawing', async () => {
      await t.upload(a.token, 'stamp.png', await picture('#ff00ff'));
      await t.upload(a.token, 'private.png', await picture('#000000'));
      const id = (await t.upload(a.token, 'shared.dxf', drawingShowing(['stamp.png'], 'a4'))).bizData.id as string;
      const unshared = (await t.upload(a.token, 'unshared.dxf', drawingShowing(['stamp.png'], 'a5'))).bizData.id as string;
      const s = (await t.call('/cloud/v5/share/create', { fileIds: [id], folderIds: [], validDays: 1 }, a.token)).bizData;
      const x = await t.app.inject({ method: 'POST', url: '/cloud/v5/share/extract', payload: { data: { rand: s.rand, code: s.code, password: s.password ?? '' }, clientInfo: { language: 'en' } } });
      const shareToken = x.json().bizData.shareToken as string;
      expect(shareToken).toBeTruthy();

      const ok = await get({ fileId: id, name: 'stamp.png', shareToken });
      expect(ok.statusCode).toBe(200);
      expect([...(await sharp(ok.rawPayload).raw().toBuffer()).subarray(0, 3)]).toEqual([255, 0, 255]);
      expect((await get({ fileId: id, name: 'stamp.png' }, { 'x-share-token': shareToken })).statusCode).toBe(200);
      // not another of the owner's drawings, nor another of the owner's pictures by guessing its name
      expect((await get({ fileId: unshared, name: 'stamp.png', shareToken })).json().bizData.code).toBe('drawing.noPermission');
      expect((await get({ fileId: id, name: 'private.png', shareToken })).json().bizData.code).toBe('item.notFound');
      // a signed-in stranger with the token sees it as the visitor does; without it, not at all
      expect((await get({ fileId: id, name: 'stamp.png', shareToken, utoken: b.token })).statusCode).toBe(200);
      expect((await get({ fileId: id, name: 'stamp.png', utoken: b.token })).json().bizData.code).toBe('drawing.noPermission');
    });
  });
}
