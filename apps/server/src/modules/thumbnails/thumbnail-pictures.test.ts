import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { stopDwgWorker } from '@cadcloud/cad';
import { fixtureImage, writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerThumbnailJobs } from './thumbnails.jobs.ts';
import { thumbnailPicturesKey, thumbnailStorageKey } from './thumbnails.keys.ts';
import { createThumbnailsService } from './thumbnails.service.ts';

/** A frame with a picture filling most of it: the IMAGE names `C:\site\Aerial.JPG`. */
const img = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'C:\\site\\Aerial.JPG', pixels: [20, 10], insert: [10, 10], u: [9, 0], v: [0, 8] });
const drawing = Buffer.from(writeAsciiDxf({
  entities: [{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 4], [70, 1], [10, 0], [20, 0], [10, 200], [20, 0], [10, 200], [20, 100], [10, 0], [20, 100]] }, img.entity],
  objects: [img.def],
}));
/** The drawing with its frame `n` units wider: other bytes, so no file of another test shows its thumbnails. */
const drawingNo = (n: number) => Buffer.from(writeAsciiDxf({
  entities: [{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 4], [70, 1], [10, 0], [20, 0], [10, 200 + n], [20, 0], [10, 200 + n], [20, 100], [10, 0], [20, 100]] }, img.entity],
  objects: [img.def],
}));
const red = () => sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } }).jpeg({ quality: 95 }).toBuffer();

/** Pixels clearly red in a thumbnail. */
async function redPixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 80) n++;
  return n;
}

for (const driver of testDatabaseDrivers()) {
  describe(`thumbnails of drawings showing pictures on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
      registerThumbnailJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => {
      await t?.close();
      stopDwgWorker();
    });
    const thumbkeyOf = (id: string, like: RegExp) => until(async () => {
      const k = (await t.db.db.selectFrom('items').select('thumbkey').where('id', '=', id).executeTakeFirstOrThrow()).thumbkey;
      return k && like.test(k) ? k : undefined;
    }, 60_000);
    const thumb = (key: string, token: string) => t.app.inject({ method: 'GET', url: `/cloud/v5/file/thumb/${key}?utoken=${encodeURIComponent(token)}` });

    it("draws the owner's picture into that owner's thumbnail only; another user's copy of the drawing keeps the plain one", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      await t.upload(a.token, 'aerial.jpg', await red());
      const mine = (await t.upload(a.token, 'site.dxf', drawing)).bizData.id as string;
      const withPicture = await thumbkeyOf(mine, new RegExp(`^v1-${md5(drawing)}-p[a-f0-9]{16}\\.png$`));
      const r = await thumb(withPicture, a.token);
      expect(r.statusCode).toBe(200);
      expect(await redPixels(r.rawPayload)).toBeGreaterThan(1000);

      // B uploads the same bytes later (the stored thumbnail is reused) and has no such picture
      const theirs = (await t.upload(b.token, 'site.dxf', drawing)).bizData.id as string;
      const plain = await thumbkeyOf(theirs, /./);
      expect(plain).toBe(`v1-${md5(drawing)}.png`);
      expect(await redPixels((await thumb(plain, b.token)).rawPayload)).toBe(0);
      // and cannot fetch A's variant
      expect((await thumb(withPicture, b.token)).statusCode).toBe(404);

      // once B has a picture of that name, B's next upload of the drawing gets B's own variant
      await t.upload(b.token, 'AERIAL.jpg', await red());
      const again = (await t.upload(b.token, 'site-copy.dxf', drawing)).bizData.id as string;
      expect(await thumbkeyOf(again, /-p[a-f0-9]{16}\.png$/)).toBe(withPicture);
    }, 90_000);

    const plainKey = `v1-${md5(drawing)}.png`;
    const variant = new RegExp(`^v1-${md5(drawing)}-p[a-f0-9]{16}\\.png$`);
    const current = async (id: string) => (await t.db.db.selectFrom('items').select('thumbkey').where('id', '=', id).executeTakeFirstOrThrow()).thumbkey;
    /** The pictures job this user's change queued (`nth` of them), once it has run: its result. */
    const picturesJob = (uid: string, nth = 1) => until(async () => {
      const jobs = await t.db.db.selectFrom('jobs').select(['state', 'result', 'payload']).where('name', '=', 'thumbnail.pictures').orderBy('created_at').execute();
      const mine = jobs.filter((j) => JSON.parse(j.payload).uid === uid);
      const j = mine[nth - 1];
      return j?.state === 'completed' ? (JSON.parse(j.result!) as { drawings: number; changed: number }) : undefined;
    }, 60_000);
    const renderJobsDone = () => until(async () => {
      const left = await t.db.db.selectFrom('jobs').select('id').where('name', '=', 'thumbnail.render').where('state', 'in', ['waiting', 'active']).execute();
      return left.length ? undefined : true;
    }, 60_000);
    const call = async (path: string, data: unknown, token: string) => {
      const r = await t.call(path, data, token);
      expect(r.rtnCode, r.msg).toBe('0000000');
      return r.bizData;
    };

    it("draws a picture uploaded after the drawing into the uploader's drawings only; a picture of another name changes nothing", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const c = await t.createUser();
      const mine = (await t.upload(a.token, 'site.dxf', drawing)).bizData.id as string;
      const theirs = (await t.upload(b.token, 'site.dxf', drawing)).bizData.id as string;
      const unrelated = (await t.upload(c.token, 'site.dxf', drawing)).bizData.id as string;
      for (const id of [mine, theirs, unrelated]) expect(await thumbkeyOf(id, /./)).toBe(plainKey);
      // the thumbnail jobs of these uploads (one per file: the bytes were rendered before) have run; one still
      // waiting would find A's picture below and draw it in before A's pictures job does
      await renderJobsDone();

      // A's picture arrives later (another case, same base name): A's drawing is drawn again with it
      await t.upload(a.token, 'AERIAL.jpg', await red());
      const withPicture = await thumbkeyOf(mine, variant);
      expect(await picturesJob(a.id)).toEqual({ drawings: 1, changed: 1 });
      expect(await redPixels((await thumb(withPicture, a.token)).rawPayload)).toBeGreaterThan(1000);

      // B has the same bytes and no picture: untouched, and cannot fetch A's variant
      expect(await current(theirs)).toBe(plainKey);
      expect((await thumb(withPicture, b.token)).statusCode).toBe(404);

      // C's picture names nothing the drawing shows: the job finds no drawing, the thumbnail stays
      await t.upload(c.token, 'unrelated.jpg', await red());
      expect(await picturesJob(c.id)).toEqual({ drawings: 0, changed: 0 });
      expect(await current(unrelated)).toBe(plainKey);
    }, 90_000);

    it('follows a picture renamed to the name the drawing shows, binned (back to plain) and restored', async () => {
      const a = await t.createUser();
      const site = (await t.upload(a.token, 'site.dxf', drawing)).bizData.id as string;
      expect(await thumbkeyOf(site, /./)).toBe(plainKey);
      const photo = (await t.upload(a.token, 'photo.jpg', await red())).bizData.id as string;
      expect(await picturesJob(a.id)).toEqual({ drawings: 0, changed: 0 });

      // renamed to the drawing's picture name with another picture extension: the finder takes it, so does the job
      await call('/cloud/v5/file/edit', { fileId: photo, name: 'Aerial.png' }, a.token);
      const withPicture = await thumbkeyOf(site, variant);
      expect(await redPixels((await thumb(withPicture, a.token)).rawPayload)).toBeGreaterThan(1000);

      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [photo], folderIds: [] }, a.token);
      expect(await thumbkeyOf(site, /^v1-[a-f0-9]{32}\.png$/)).toBe(plainKey);

      await call('/cloud/v5/trash/restore', { fileIds: [photo], folderIds: [] }, a.token);
      expect(await thumbkeyOf(site, variant)).toBe(withPicture);
    }, 90_000);

    it('shows a moved drawing the picture of its name in its new folder (of two, its own folder wins)', async () => {
      const a = await t.createUser();
      const here = (await call('/cloud/v5/folder/edit', { name: 'here' }, a.token)).id as string;
      const there = (await call('/cloud/v5/folder/edit', { name: 'there' }, a.token)).id as string;
      await t.upload(a.token, 'aerial.jpg', await red(), { parentId: here });
      const blue = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#0000ff' } }).jpeg({ quality: 95 }).toBuffer();
      await t.upload(a.token, 'aerial.jpg', blue, { parentId: there });
      const site = (await t.upload(a.token, 'site.dxf', drawing, { parentId: here })).bizData.id as string;
      const withRed = await thumbkeyOf(site, variant);
      expect(await redPixels((await thumb(withRed, a.token)).rawPayload)).toBeGreaterThan(1000);
      // the pictures' own jobs (one per upload) have run: only the move can change it now
      await picturesJob(a.id, 2);
      expect(await current(site)).toBe(withRed);

      await call('/cloud/v5/union/move', { fileIds: [site], moveToId: there }, a.token);
      const withBlue = await until(async () => {
        const k = await current(site);
        return k && k !== withRed && variant.test(k) ? k : undefined;
      }, 60_000);
      const png = (await thumb(withBlue, a.token)).rawPayload;
      expect(await redPixels(png)).toBe(0);
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      let bluePixels = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i] < 80 && data[i + 1] < 80 && data[i + 2] > 180) bluePixels++;
      expect(bluePixels).toBeGreaterThan(1000);
    }, 90_000);

    it("gives a drawing saved from a share the saver's pictures, never the sharer's; a saved picture is drawn into the saver's drawings", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const c = await t.createUser();
      await t.upload(a.token, 'aerial.jpg', await red());
      const site = (await t.upload(a.token, 'site.dxf', drawing)).bizData.id as string;
      const aerial = (await t.call('/cloud/v5/union/list', { parentId: '0' }, a.token)).bizData.list.find((i: { name: string }) => i.name === 'aerial.jpg').id as string;
      const withPicture = await thumbkeyOf(site, variant);
      const s = await call('/cloud/v5/share/create', { fileIds: [site], folderIds: [], validDays: 1, canSave: 1 }, a.token);
      const x = await t.app.inject({ method: 'POST', url: '/cloud/v5/share/extract', payload: { data: { rand: s.rand, code: s.code, password: s.password }, clientInfo: { language: 'en' } } });
      const shareToken = x.json().bizData.shareToken as string;

      // B has no such picture: B's copy shows the plain thumbnail, and A's variant is not B's to fetch
      const [bCopy] = (await call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken, fileIds: [site], folderIds: [] }, b.token)).items as string[];
      expect(await thumbkeyOf(bCopy, /^v1-[a-f0-9]{32}\.png$/)).toBe(plainKey);
      expect((await thumb(withPicture, b.token)).statusCode).toBe(404);

      // C has a drawing naming the picture and saves A's shared picture: C's drawing is drawn with it
      const cSite = (await t.upload(c.token, 'site.dxf', drawing)).bizData.id as string;
      expect(await thumbkeyOf(cSite, /./)).toBe(plainKey);
      const s2 = await call('/cloud/v5/share/create', { fileIds: [aerial], folderIds: [], validDays: 1, canSave: 1 }, a.token);
      const x2 = await t.app.inject({ method: 'POST', url: '/cloud/v5/share/extract', payload: { data: { rand: s2.rand, code: s2.code, password: s2.password }, clientInfo: { language: 'en' } } });
      await call('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken: x2.json().bizData.shareToken, fileIds: [aerial], folderIds: [] }, c.token);
      expect(await thumbkeyOf(cSite, variant)).toBe(withPicture);
    }, 90_000);

    it('finds drawings rendered before the table through the JSON they noted, once indexed', async () => {
      const a = await t.createUser();
      const site = (await t.upload(a.token, 'site.dxf', drawing)).bizData.id as string;
      expect(await thumbkeyOf(site, /./)).toBe(plainKey);
      // as an older server left it: the names as JSON beside the thumbnail, no rows
      await t.db.db.deleteFrom('drawing_pictures').where('blob_md5', '=', md5(drawing)).execute();
      const json = Buffer.from(JSON.stringify(['Aerial.JPG']));
      await t.deps.storage.put(thumbnailPicturesKey(md5(drawing)), json, { size: json.length, contentType: 'application/json' });

      expect(await createThumbnailsService(t.deps).picturesIndexJob()).toEqual({ moved: 1 });
      expect((await t.db.db.selectFrom('drawing_pictures').selectAll().where('blob_md5', '=', md5(drawing)).execute())).toEqual([{ blob_md5: md5(drawing), name: 'aerial.jpg', stem: 'aerial' }]);
      // once only
      expect(await createThumbnailsService(t.deps).picturesIndexJob()).toEqual({ moved: 0 });

      await t.upload(a.token, 'aerial.jpg', await red());
      expect(await thumbkeyOf(site, variant)).toMatch(variant);
    }, 90_000);
    /** Every thumbnail job queued so far has run (a pictures job waits a while before it runs). */
    const thumbnailJobsDone = () => until(async () => {
      const left = await t.db.db.selectFrom('jobs').select('id').where('name', 'like', 'thumbnail.%').where('state', 'in', ['waiting', 'active']).execute();
      return left.length ? undefined : true;
    }, 60_000);
    const stored = (thumbkey: string) => t.deps.storage.exists(thumbnailStorageKey(thumbkey));
    const noted = async (thumbkey: string) => !!(await t.db.db.selectFrom('thumbnail_variants').select('thumbkey').where('thumbkey', '=', thumbkey).executeTakeFirst());
    const variantOf = (bytes: Buffer) => new RegExp(`^v1-${md5(bytes)}-p[a-f0-9]{16}\\.png$`);

    it('deletes the variant once its only file is back to the plain thumbnail (picture binned), and draws it again when the picture returns', async () => {
      const bytes = drawingNo(1);
      const a = await t.createUser();
      const photo = (await t.upload(a.token, 'aerial.jpg', await red())).bizData.id as string;
      const site = (await t.upload(a.token, 'site.dxf', bytes)).bizData.id as string;
      const withPicture = await thumbkeyOf(site, variantOf(bytes));
      expect(await stored(withPicture)).toBe(true);
      expect(await noted(withPicture)).toBe(true);

      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [photo], folderIds: [] }, a.token);
      expect(await thumbkeyOf(site, /^v1-[a-f0-9]{32}\.png$/)).toBe(`v1-${md5(bytes)}.png`);
      await thumbnailJobsDone();
      expect(await stored(withPicture)).toBe(false);
      expect(await noted(withPicture)).toBe(false);
      // the plain thumbnail stays: the file shows it
      expect(await stored(`v1-${md5(bytes)}.png`)).toBe(true);

      await call('/cloud/v5/trash/restore', { fileIds: [photo], folderIds: [] }, a.token);
      expect(await thumbkeyOf(site, variantOf(bytes))).toBe(withPicture);
      expect(await stored(withPicture)).toBe(true);
      expect(await noted(withPicture)).toBe(true);
      expect(await redPixels((await thumb(withPicture, a.token)).rawPayload)).toBeGreaterThan(1000);
    }, 90_000);

    it('deletes the variant a file showed when the file gets a new version; the new bytes get their own', async () => {
      const first = drawingNo(7), second = drawingNo(8);
      const a = await t.createUser();
      await t.upload(a.token, 'aerial.jpg', await red());
      const site = (await t.upload(a.token, 'site.dxf', first)).bizData.id as string;
      const old = await thumbkeyOf(site, variantOf(first));
      await thumbnailJobsDone();
      expect(await stored(old)).toBe(true);

      const r = await t.upload(a.token, 'site.dxf', second, { conflict: 'version' });
      expect(r.bizData).toMatchObject({ id: site, version: 2 });
      const now = await thumbkeyOf(site, variantOf(second));
      await thumbnailJobsDone();
      expect(await redPixels((await thumb(now, a.token)).rawPayload)).toBeGreaterThan(1000);
      // the first bytes live on in the version history, their variant shown by nobody
      expect(await stored(old)).toBe(false);
      expect(await noted(old)).toBe(false);
    }, 90_000);

    /** Two users, each with the same red picture and the same drawing beside it: one variant, stored once. */
    async function twoDrivesShowingOneVariant(bytes: Buffer) {
      const a = await t.createUser();
      const b = await t.createUser();
      const aPhoto = (await t.upload(a.token, 'aerial.jpg', await red())).bizData.id as string;
      const bPhoto = (await t.upload(b.token, 'aerial.jpg', await red())).bizData.id as string;
      const aSite = (await t.upload(a.token, 'site.dxf', bytes)).bizData.id as string;
      const bSite = (await t.upload(b.token, 'site.dxf', bytes)).bizData.id as string;
      const shared = await thumbkeyOf(aSite, variantOf(bytes));
      expect(await thumbkeyOf(bSite, variantOf(bytes))).toBe(shared);
      await thumbnailJobsDone();
      return { a, b, aPhoto, bPhoto, aSite, bSite, shared };
    }

    it('keeps a variant two users show until neither does', async () => {
      const bytes = drawingNo(2);
      const { a, b, aPhoto, bPhoto, aSite, bSite, shared } = await twoDrivesShowingOneVariant(bytes);

      // A's picture binned: A's drawing is plain again, B's still shows the variant
      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [aPhoto], folderIds: [] }, a.token);
      expect(await thumbkeyOf(aSite, /^v1-[a-f0-9]{32}\.png$/)).toBe(`v1-${md5(bytes)}.png`);
      await thumbnailJobsDone();
      expect(await current(bSite)).toBe(shared);
      expect(await stored(shared)).toBe(true);
      expect(await noted(shared)).toBe(true);
      expect(await redPixels((await thumb(shared, b.token)).rawPayload)).toBeGreaterThan(1000);

      // B's goes too: nobody shows it any more
      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [bPhoto], folderIds: [] }, b.token);
      expect(await thumbkeyOf(bSite, /^v1-[a-f0-9]{32}\.png$/)).toBe(`v1-${md5(bytes)}.png`);
      await thumbnailJobsDone();
      expect(await stored(shared)).toBe(false);
      expect(await noted(shared)).toBe(false);
    }, 90_000);

    it('keeps a variant a file in the recycle bin shows; deleting that file for good deletes it (the bytes live on)', async () => {
      const bytes = drawingNo(5);
      const { a, b, aPhoto, aSite, bSite, shared } = await twoDrivesShowingOneVariant(bytes);

      // B bins the drawing: in the bin it still shows the variant
      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [bSite], folderIds: [] }, b.token);
      await call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [aPhoto], folderIds: [] }, a.token);
      expect(await thumbkeyOf(aSite, /^v1-[a-f0-9]{32}\.png$/)).toBe(`v1-${md5(bytes)}.png`);
      await thumbnailJobsDone();
      expect(await current(bSite)).toBe(shared);
      expect(await stored(shared)).toBe(true);

      // deleted for good from the bin: A's file keeps the bytes (no purge), and nobody shows the variant
      await call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [bSite], folderIds: [] }, b.token);
      expect(await t.db.db.selectFrom('blobs').select('md5').where('md5', '=', md5(bytes)).executeTakeFirst()).toBeDefined();
      expect(await stored(shared)).toBe(false);
      expect(await noted(shared)).toBe(false);
      expect(await stored(`v1-${md5(bytes)}.png`)).toBe(true);
    }, 90_000);

    it("deletes a variant with the last file showing it, and a purged blob's noted variants with its plain thumbnail", async () => {
      const bytes = drawingNo(3);
      const a = await t.createUser();
      const b = await t.createUser();
      await t.upload(a.token, 'aerial.jpg', await red());
      const blue = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#0000ff' } }).jpeg({ quality: 95 }).toBuffer();
      await t.upload(b.token, 'aerial.jpg', blue);
      const aSite = (await t.upload(a.token, 'site.dxf', bytes)).bizData.id as string;
      const bSite = (await t.upload(b.token, 'site.dxf', bytes)).bizData.id as string;
      const aVariant = await thumbkeyOf(aSite, variantOf(bytes));
      const bVariant = await thumbkeyOf(bSite, variantOf(bytes));
      expect(aVariant).not.toBe(bVariant);
      await thumbnailJobsDone();
      // and one no file shows, noted and stored: what a release in doubt leaves (thumbnail-variants.ts)
      const orphan = `v1-${md5(bytes)}-p0123456789abcdef.png`;
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00ff00' } }).png().toBuffer();
      await t.deps.storage.put(thumbnailStorageKey(orphan), png, { size: png.length, contentType: 'image/png' });
      await t.db.db.insertInto('thumbnail_variants').values({ thumbkey: orphan, blob_md5: md5(bytes) }).execute();
      for (const k of [aVariant, bVariant, orphan, `v1-${md5(bytes)}.png`]) expect(await stored(k)).toBe(true);

      // A's file deleted for good: A's variant goes (nobody shows it), the bytes live on in B's file
      await call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [aSite], folderIds: [] }, a.token);
      expect(await stored(aVariant)).toBe(false);
      for (const k of [bVariant, orphan, `v1-${md5(bytes)}.png`]) expect(await stored(k)).toBe(true);
      // B's too: nobody has the bytes, the blob is purged with every thumbnail noted for it
      await call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [bSite], folderIds: [] }, b.token);
      expect(await t.db.db.selectFrom('blobs').select('md5').where('md5', '=', md5(bytes)).executeTakeFirst()).toBeUndefined();
      for (const k of [bVariant, orphan, `v1-${md5(bytes)}.png`]) expect(await stored(k)).toBe(false);
      expect(await t.db.db.selectFrom('thumbnail_variants').select('thumbkey').where('blob_md5', '=', md5(bytes)).execute()).toEqual([]);
    }, 90_000);

    it('answers a variant whose image went missing with the plain thumbnail, uncached, and draws the variant again', async () => {
      const bytes = drawingNo(4);
      const a = await t.createUser();
      await t.upload(a.token, 'aerial.jpg', await red());
      const site = (await t.upload(a.token, 'site.dxf', bytes)).bizData.id as string;
      const withPicture = await thumbkeyOf(site, variantOf(bytes));
      await thumbnailJobsDone();
      // as a release racing another file's attach leaves it: the file shows the variant, its image is gone
      await t.deps.storage.delete(thumbnailStorageKey(withPicture));

      const r = await thumb(withPicture, a.token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('private, no-cache');
      expect(r.headers.etag).toBeUndefined();
      expect(await redPixels(r.rawPayload)).toBe(0);
      await until(async () => ((await stored(withPicture)) ? true : undefined), 60_000);
      expect(await current(site)).toBe(withPicture);
      const again = await thumb(withPicture, a.token);
      expect(again.headers['cache-control']).toContain('immutable');
      expect(await redPixels(again.rawPayload)).toBeGreaterThan(1000);
    }, 90_000);
  });
}
