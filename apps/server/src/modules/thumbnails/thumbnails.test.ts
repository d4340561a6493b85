import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { stopDwgWorker } from '@cadcloud/cad';
import { writeAsciiDxf, type FixtureEntity } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createDbQueue } from '../../infra/queue/db.queue.ts';
import { createBullmqQueue } from '../../infra/queue/bullmq.queue.ts';
import { Redis } from 'ioredis';
import { createTestApp, md5, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerThumbnailJobs } from './thumbnails.jobs.ts';
import { createThumbnailsService, THUMBNAIL_RENDER_JOB } from './thumbnails.service.ts';
import { thumbnailJobId, thumbnailStorageKey } from './thumbnails.keys.ts';
import { renderDrawingThumbnail } from './render/render-drawing.ts';
import { ThumbnailSkipped, ThumbnailTimeout } from './render/thumbnail-skipped.ts';
import { decodeBmp } from './render/bmp.ts';

const line = (x1: number, y1: number, x2: number, y2: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [62, 7], [10, x1], [20, y1], [30, 0], [11, x2], [21, y2], [31, 0]] });

/** A wide drawing (2:1) of a frame with both diagonals and a grid of lines: plenty of ink at any size. */
function drawingDxf(seed = 0): Buffer {
  const entities = [line(0, 0, 200, 0), line(200, 0, 200, 100), line(200, 100, 0, 100), line(0, 100, 0, 0), line(0, 0, 200, 100), line(0, 100, 200, 0)];
  for (let i = 1; i < 10; i++) entities.push(line(i * 20, 0, i * 20, 100));
  entities.push(line(seed, 50, seed + 1, 50));
  return Buffer.from(writeAsciiDxf({ entities }));
}

/** A 1200×600 white picture with a black block in the middle. */
async function picturePng(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 600, channels: 3, background: '#ffffff' } })
    .composite([{ input: await sharp({ create: { width: 600, height: 300, channels: 3, background: '#000000' } }).png().toBuffer(), left: 300, top: 150 }])
    .png()
    .toBuffer();
}

/** A 24-bit bottom-up BMP: left half red, right half blue. */
function bmp24(width: number, height: number): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const b = Buffer.alloc(54 + stride * height);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) b.set(x < width / 2 ? [0, 0, 255] : [255, 0, 0], 54 + y * stride + x * 3);
  return b;
}

/** Pixels darker than mid-grey (any channel sum under 384): the ink of a drawing on its light background. */
async function darkPixels(img: Buffer): Promise<{ width: number; height: number; dark: number }> {
  const { data, info } = await sharp(img).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let i = 0; i < data.length; i += 3) if (data[i] + data[i + 1] + data[i + 2] < 384) dark++;
  return { width: info.width, height: info.height, dark };
}

for (const driver of testDatabaseDrivers()) {
  describe(`thumbnails on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
      registerThumbnailJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => {
      await t?.close();
      stopDwgWorker();
    });

    const itemOf = async (id: string) => t.db.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const thumbkeyOf = (id: string): Promise<string> => until(async () => (await itemOf(id)).thumbkey ?? undefined, 60_000);
    const getThumb = (thumbkey: string, token?: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/cloud/v5/file/thumb/${thumbkey}${token ? `?utoken=${encodeURIComponent(token)}` : ''}`, headers });
    const job = (md5hex: string) => until(async () => {
      const j = await t.db.db.selectFrom('jobs').selectAll().where('id', '=', thumbnailJobId(md5hex)).executeTakeFirst();
      return j && ['completed', 'failed'].includes(j.state) ? j : undefined;
    }, 60_000);

    it('renders an uploaded DXF into a PNG with ink, listed as thumbkey and served to its owner with long caching', async () => {
      const u = await t.createUser();
      const up = await t.upload(u.token, 'frame.dxf', drawingDxf());
      expect(up.rtnCode).toBe('0000000');
      const thumbkey = await thumbkeyOf(up.bizData.id);
      expect(thumbkey).toBe(`v1-${md5(drawingDxf())}.png`);
      const list = await t.call('/cloud/v5/union/list', {}, u.token);
      expect(list.bizData.list.find((i: any) => i.id === up.bizData.id).thumbkey).toBe(thumbkey);

      const r = await getThumb(thumbkey, u.token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      expect(String(r.headers['cache-control'])).toContain('immutable');
      const meta = await sharp(r.rawPayload).metadata();
      expect(meta.format).toBe('png');
      const px = await darkPixels(r.rawPayload);
      // the 2:1 drawing fills the width: 400 wide, about 200 high
      expect(px.width).toBe(400);
      expect(px.height).toBeGreaterThan(180);
      expect(px.height).toBeLessThan(230);
      expect(px.dark).toBeGreaterThan(1000);
      expect(px.dark).toBeLessThan(px.width * px.height * 0.5);
      // the browser asks again with its copy: nothing to send
      expect((await getThumb(thumbkey, u.token, { 'if-none-match': String(r.headers.etag) })).statusCode).toBe(304);
    });

    it('resizes an uploaded PNG and a BMP to fit 400×400', async () => {
      const u = await t.createUser();
      const png = await picturePng();
      const up = await t.upload(u.token, 'photo.png', png);
      const thumbkey = await thumbkeyOf(up.bizData.id);
      expect(thumbkey).toBe(`v1-${md5(png)}.webp`);
      const r = await getThumb(thumbkey, u.token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/webp');
      const px = await darkPixels(r.rawPayload);
      expect([px.width, px.height]).toEqual([400, 200]);
      // the black block is a quarter of the picture
      expect(px.dark / (400 * 200)).toBeGreaterThan(0.2);
      expect(px.dark / (400 * 200)).toBeLessThan(0.3);

      const bmp = bmp24(301, 120);
      const b = await t.upload(u.token, 'scan.bmp', bmp);
      const bk = await thumbkeyOf(b.bizData.id);
      const { data, info } = await sharp((await getThumb(bk, u.token)).rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([301, 120]); // never enlarged
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
      expect(at(10, 10)[0]).toBeGreaterThan(200); // red on the left
      expect(at(290, 110)[2]).toBeGreaterThan(200); // blue on the right
    });

    it('leaves thumbkey empty for a corrupt DXF and random-bytes DWGs; the uploads succeed and the server keeps serving', async () => {
      const u = await t.createUser();
      const bad = [
        ['broken.dxf', Buffer.from(`0\nSECTION\n2\nENTITIES\n0\nLINE\n10\nnot-a-number\n${randomBytes(2000).toString('base64')}`)],
        ['noise.dwg', randomBytes(50_000)],
        // looks like a DWG 2004 to the sniffer, so it goes all the way through LibreDWG
        ['fake.dwg', Buffer.concat([Buffer.from('AC1018'), randomBytes(50_000)])],
      ] as const;
      const ids: string[] = [];
      for (const [name, body] of bad) {
        const up = await t.upload(u.token, name, body);
        expect(up.rtnCode, name).toBe('0000000');
        ids.push(up.bizData.id);
      }
      for (const [n, [name, body]] of bad.entries()) {
        const j = await job(md5(body));
        expect(j.state, name).toBe('completed');
        expect(JSON.parse(j.result!).skipped, name).toBeTruthy();
        expect(j.attempts, name).toBe(1);
        expect((await itemOf(ids[n])).thumbkey, name).toBeNull();
      }
      const list = await t.call('/cloud/v5/union/list', {}, u.token);
      expect(list.bizData.list.map((i: any) => i.thumbkey)).toEqual(['', '', '']);
      // the same bytes again: no second attempt
      await t.upload(u.token, 'again.dxf', bad[0][1]);
      expect(await t.db.db.selectFrom('jobs').select('id').where('name', '=', THUMBNAIL_RENDER_JOB).where('id', 'like', `%${md5(bad[0][1])}%`).execute()).toHaveLength(1);
      // and a good drawing after them still gets its thumbnail
      const good = await t.upload(u.token, 'after.dxf', drawingDxf(7));
      expect(await thumbkeyOf(good.bizData.id)).toMatch(/\.png$/);
    });

    it('renders the same bytes once, for every file and user that has them (instant upload included)', async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      const body = drawingDxf(3);
      const hash = md5(body);
      const [x, y] = await Promise.all([t.upload(a.token, 'one.dxf', body), t.upload(b.token, 'two.dxf', body)]);
      const k = await thumbkeyOf(x.bizData.id);
      expect(await thumbkeyOf(y.bizData.id)).toBe(k);
      const j = await job(hash);
      expect(JSON.parse(j.result!)).toMatchObject({ thumbkey: k, rendered: true });
      expect(await t.db.db.selectFrom('jobs').select('id').where('id', 'like', `thumb-%${hash}%`).execute()).toHaveLength(1);
      // a later instant upload of the known bytes shows the thumbnail at once, without a job
      const inst = await t.call('/cloud/v5/file/detectUpload', { md5: hash, size: body.length, name: 'three.dxf', parentId: '0' }, b.token);
      expect(inst.bizData.exists).toBe(true);
      expect((await itemOf(inst.bizData.item.id)).thumbkey).toBe(k);
      expect(await t.db.db.selectFrom('jobs').select('id').where('id', 'like', `thumb-%${hash}%`).execute()).toHaveLength(1);
      expect(await t.deps.storage.exists(thumbnailStorageKey(k))).toBe(true);
    });

    it('thumbnails a drawing sent by resumable chunked upload', async () => {
      const u = await t.createUser();
      const body = drawingDxf(31);
      const init = await t.call('/cloud/v5/upload/init', { name: 'chunked.dxf', size: body.length, md5: md5(body) }, u.token);
      expect(init.bizData.uploadId).toBeTruthy();
      await t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${u.token}&uploadId=${init.bizData.uploadId}&offset=0`, headers: { 'content-type': 'application/octet-stream' }, payload: body });
      const done = await t.call('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId }, u.token);
      expect(done.bizData.complete).toBe(true);
      expect(await thumbkeyOf(done.bizData.item.id)).toBe(`v1-${md5(body)}.png`);
    });

    it('removes the thumbnail with the bytes, and renders again when the same bytes come back', async () => {
      const u = await t.createUser();
      const body = drawingDxf(51);
      const up = await t.upload(u.token, 'gone.dxf', body);
      const k = await thumbkeyOf(up.bizData.id);
      expect(await t.deps.storage.exists(thumbnailStorageKey(k))).toBe(true);
      const del = await t.call('/cloud/v5/union/delete', { fileIds: [up.bizData.id], folderIds: [], deleteLevel: 1 }, u.token);
      expect(del.rtnCode).toBe('0000000');
      expect(await t.db.db.selectFrom('blobs').select('md5').where('md5', '=', md5(body)).executeTakeFirst()).toBeUndefined();
      expect(await t.deps.storage.exists(thumbnailStorageKey(k))).toBe(false);
      const again = await t.upload(u.token, 'back.dxf', body);
      expect(await thumbkeyOf(again.bizData.id)).toBe(k);
      expect(await t.deps.storage.exists(thumbnailStorageKey(k))).toBe(true);
    });

    it('serves a thumbnail to its owners only', async () => {
      const owner = await t.createUser();
      const stranger = await t.createUser();
      const up = await t.upload(owner.token, 'private.dxf', drawingDxf(11));
      const k = await thumbkeyOf(up.bizData.id);
      expect((await getThumb(k, owner.token)).statusCode).toBe(200);
      const other = await getThumb(k, stranger.token);
      expect(other.statusCode).toBe(404);
      expect(other.json().bizData.code).toBe('item.notFound');
      expect((await getThumb(k)).statusCode).toBe(401);
      expect((await getThumb('v1-../../etc.png', owner.token)).statusCode).toBe(404);
      expect((await getThumb(k.replace('.png', '.webp'), owner.token)).statusCode).toBe(404);
    });

    it('keeps a queued job across a restart: it runs when the next worker starts', async () => {
      const u = await t.createUser();
      // the running queue has the handler; stop it so the job only waits in the database, as when the server dies
      await t.deps.queue.stop();
      const up = await t.upload(u.token, 'queued.dxf', drawingDxf(21));
      const row = await t.db.db.selectFrom('jobs').selectAll().where('id', '=', thumbnailJobId(md5(drawingDxf(21)))).executeTakeFirstOrThrow();
      expect(row.state).toBe('waiting');
      expect((await itemOf(up.bizData.id)).thumbkey).toBeNull();
      // "restart": a new queue on the same database with the handlers registered at start
      const next = createDbQueue(t.db.db, { pollMs: 20 });
      registerThumbnailJobs(next, t.deps);
      await next.start();
      try {
        expect(await thumbkeyOf(up.bizData.id)).toMatch(/\.png$/);
      } finally {
        await next.stop();
        await t.deps.queue.start();
      }
    });
  });
}

describe('drawing render limits', () => {
  it('gives up on a drawing past its deadline or its heap, and the server process carries on', async () => {
    const big = Buffer.from(writeAsciiDxf({ entities: Array.from({ length: 20_000 }, (_, i) => line(i, 0, i + 1, i % 7)) }));
    const late = await renderDrawingThumbnail(big, { size: 400, timeoutMs: 50, memoryMb: 768 }).catch((e) => e);
    // out of time is retried once by the queue (a busy machine), not skipped for good like an unreadable file
    expect(late).toBeInstanceOf(ThumbnailTimeout);
    expect(late.message).toMatch(/longer than 50 ms/);
    const oom = await renderDrawingThumbnail(big, { size: 400, timeoutMs: 60_000, memoryMb: 4 }).catch((e) => e);
    expect(oom).toBeInstanceOf(ThumbnailSkipped);
    // the same drawing with room to work renders
    const ok = await renderDrawingThumbnail(big, { size: 400, timeoutMs: 60_000, memoryMb: 768 });
    expect((await sharp(ok.png).metadata()).width).toBe(400);
  }, 120_000);
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl)('thumbnails on BullMQ', () => {
  it('keeps a queued render in Redis across a restart and runs it on the next worker', async () => {
    const t = await createTestApp(testDatabaseDrivers()[0]);
    const prefix = `thumb${randomBytes(4).toString('hex')}`;
    const queues: ReturnType<typeof createBullmqQueue>[] = [];
    try {
      // uploads land in the test app (its database queue stopped); the thumbnail goes to BullMQ, no worker running
      await t.deps.queue.stop();
      const u = await t.createUser();
      const body = drawingDxf(41);
      const up = await t.upload(u.token, 'bull.dxf', body);
      const first = createBullmqQueue({ redisUrl: redisUrl!, prefix });
      queues.push(first);
      const row = await t.db.db.selectFrom('items').selectAll().where('id', '=', up.bizData.id).executeTakeFirstOrThrow();
      await createThumbnailsService({ ...t.deps, queue: first }).afterUpload(row);
      expect((await first.status(thumbnailJobId(md5(body)))).state).toBe('waiting');
      await first.stop();
      // the "restarted" server: a new connection, handlers registered, worker started
      const next = createBullmqQueue({ redisUrl: redisUrl!, prefix });
      queues.push(next);
      registerThumbnailJobs(next, { ...t.deps, queue: next });
      await next.start();
      const k = await until(async () => (await t.db.db.selectFrom('items').select('thumbkey').where('id', '=', up.bizData.id).executeTakeFirstOrThrow()).thumbkey ?? undefined, 60_000);
      expect(k).toBe(`v1-${md5(body)}.png`);
      expect((await next.status(thumbnailJobId(md5(body)))).result).toMatchObject({ rendered: true });
    } finally {
      for (const q of queues) await q.stop().catch(() => undefined);
      const r = new Redis(redisUrl!);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
      await t.close();
    }
  }, 120_000);
});

const samplesDir = path.resolve(import.meta.dirname, '../../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
// the R11 DWG is read by the engine itself in the worker, and drawn on its sheet (its model space is empty)
const samples = ['dwg_2004_ddc_floorplan.dwg', 'dxf_2018_acadsharp_sample_ascii.dxf', 'dwg_r11_libredwg_ACEB10.dwg'].map((f) => path.join(samplesDir, f));
const haveSamples = samples.every((f) => existsSync(f));
if (!haveSamples) console.warn(`samples not found at ${samplesDir}: the sample thumbnail test is skipped`);

describe.skipIf(!haveSamples)('thumbnails of the sample drawings', () => {
  afterAll(() => stopDwgWorker());
  it.each(samples)('%s has ink and fits 400×400', async (file) => {
    const r = await renderDrawingThumbnail(readFileSync(file), { size: 400, timeoutMs: 120_000, memoryMb: 768 });
    const px = await darkPixels(r.png);
    expect(Math.max(px.width, px.height)).toBeGreaterThanOrEqual(398);
    expect(Math.max(px.width, px.height)).toBeLessThanOrEqual(400);
    expect(px.dark).toBeGreaterThan(500);
  }, 180_000);
});

describe('BMP decoder', () => {
  it('reads 24-bit bottom-up and 8-bit palette images and refuses RLE and oversized ones', () => {
    const img = decodeBmp(bmp24(3, 2));
    expect([img.width, img.height]).toEqual([3, 2]);
    expect([...img.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect([...img.data.subarray(8, 12)]).toEqual([0, 0, 255, 255]);
    // 8-bit: 2×2, palette [black, white], top-down (negative height)
    const pal = Buffer.alloc(54 + 8 + 8);
    pal.write('BM', 0, 'latin1');
    pal.writeUInt32LE(62, 10);
    pal.writeUInt32LE(40, 14);
    pal.writeInt32LE(2, 18);
    pal.writeInt32LE(-2, 22);
    pal.writeUInt16LE(8, 28);
    pal.writeUInt32LE(2, 46);
    pal.set([0, 0, 0, 0, 255, 255, 255, 0], 54);
    pal.set([1, 0, 0, 0, 0, 1, 0, 0], 62);
    const p = decodeBmp(pal);
    expect([...p.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    expect([...p.data.subarray(12, 16)]).toEqual([255, 255, 255, 255]);
    expect([...p.data.subarray(4, 8)]).toEqual([0, 0, 0, 255]);
    const rle = Buffer.from(pal);
    rle.writeUInt32LE(1, 30);
    expect(() => decodeBmp(rle)).toThrow(/compression 1/);
    expect(() => decodeBmp(bmp24(100, 100), 5000)).toThrow(/larger than 5000 pixels/);
    expect(() => decodeBmp(Buffer.from('not a bmp at all, really not'))).toThrow(/not a BMP/);
  });
});
