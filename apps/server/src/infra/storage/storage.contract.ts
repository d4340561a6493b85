import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import type { StorageDriver } from './storage.types.ts';

async function readAll(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * The one behaviour every storage driver must have. `fetchUrl` turns a signed URL into a Response
 * (absolute URLs are fetched; the local driver's relative URLs go through its route).
 */
export function runStorageContract(name: string, make: () => Promise<{ driver: StorageDriver; fetchUrl: (url: string, init?: RequestInit) => Promise<Response> }>) {
  describe(`storage contract: ${name}`, () => {
    const key = () => `t/${randomBytes(6).toString('hex')}`;

    it('puts, gets, sizes and deletes', async () => {
      const { driver } = await make();
      const k = key();
      const body = randomBytes(100_000);
      expect(await driver.exists(k)).toBe(false);
      await driver.put(k, body);
      expect(await driver.exists(k)).toBe(true);
      expect(await driver.size(k)).toBe(body.length);
      expect((await readAll(await driver.get(k))).equals(body)).toBe(true);
      await driver.delete(k);
      expect(await driver.exists(k)).toBe(false);
    });

    it('answers a missing key: no size, get rejects, delete is a no-op', async () => {
      const { driver } = await make();
      const k = key();
      expect(await driver.size(k)).toBeNull();
      await expect(driver.get(k).then(readAll)).rejects.toThrow();
      await driver.delete(k);
    });

    it('streams a body and serves a byte range', async () => {
      const { driver } = await make();
      const k = key();
      const body = randomBytes(64 * 1024);
      await driver.put(k, Readable.from([body.subarray(0, 1000), body.subarray(1000)]), { size: body.length });
      expect((await readAll(await driver.get(k, { start: 10, end: 19 }))).equals(body.subarray(10, 20))).toBe(true);
    });

    it('overwrites an object whole', async () => {
      const { driver } = await make();
      const k = key();
      await driver.put(k, Buffer.from('first version, longer'));
      await driver.put(k, Buffer.from('second'));
      expect((await readAll(await driver.get(k))).toString()).toBe('second');
    });

    it('leaves one whole object when puts of the same key race', async () => {
      const { driver } = await make();
      const k = key();
      const bodies = Array.from({ length: 5 }, () => randomBytes(256 * 1024));
      await Promise.all(bodies.map((b) => driver.put(k, Readable.from([b.subarray(0, 100_000), b.subarray(100_000)]), { size: b.length })));
      const got = await readAll(await driver.get(k));
      expect(bodies.some((b) => b.equals(got))).toBe(true);
      expect(await driver.size(k)).toBe(256 * 1024);
    });

    it('never shows a half-written object when the body stream fails', async () => {
      const { driver } = await make();
      const k = key();
      const failing = new Readable({
        read() {
          this.push(randomBytes(1000));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(driver.put(k, failing, { size: 5000 })).rejects.toThrow();
      expect(await driver.exists(k)).toBe(false);
    });

    it('refuses keys that would escape the store', async () => {
      const { driver } = await make();
      for (const bad of ['../x', '/abs', 'a/../../b', '']) await expect(driver.put(bad, Buffer.from('x'))).rejects.toThrow();
    });

    it('serves a signed GET URL and refuses a tampered one', async () => {
      const { driver, fetchUrl } = await make();
      const k = key();
      await driver.put(k, Buffer.from('hello signed'));
      const url = await driver.signedGetUrl(k, { expiresInSeconds: 60, downloadName: '图纸 1.dwg' });
      const ok = await fetchUrl(url);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('hello signed');
      const disposition = ok.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^attachment;/);
      expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '')).toBe('图纸 1.dwg');
      const tampered = url.replace(/(sig=|Signature=)([A-Za-z0-9_-])/, (_m, p, c) => p + (c === 'A' ? 'B' : 'A'));
      expect((await fetchUrl(tampered)).status).toBe(403);
    });

    it('hands out a signed PUT that accepts only the declared MD5 (when the driver has direct upload)', async () => {
      const { driver, fetchUrl } = await make();
      const body = randomBytes(2048);
      const md5 = createHash('md5').update(body).digest('hex');
      const k = key();
      const put = await driver.signedPutUrl(k, { expiresInSeconds: 60, md5Hex: md5, size: body.length });
      if (!put) {
        expect(driver.name).toBe('fs');
        return;
      }
      const wrongHeader = await fetchUrl(put.url, { method: 'PUT', body, headers: { ...put.headers, 'x-oss-meta-md5': '0'.repeat(32) } });
      expect(wrongHeader.status).toBe(403);
      const { 'x-oss-meta-md5': _dropped, ...withoutMd5Header } = put.headers;
      expect((await fetchUrl(put.url, { method: 'PUT', body, headers: withoutMd5Header })).status).toBe(403);
      const otherBytes = await fetchUrl(put.url, { method: 'PUT', body: randomBytes(2048), headers: put.headers });
      expect(otherBytes.status).toBeGreaterThanOrEqual(400);
      expect(await driver.exists(k)).toBe(false);
      const good = await fetchUrl(put.url, { method: 'PUT', body, headers: put.headers });
      expect(good.status).toBe(200);
      expect((await readAll(await driver.get(k))).equals(body)).toBe(true);
    });
  });
}

/** importFile: a finished local file becomes an object and the local file is gone. */
export function runImportContract(name: string, make: () => Promise<{ driver: StorageDriver }>) {
  describe(`storage contract: ${name} importFile`, () => {
    it('lists the objects under a prefix with their sizes, and nothing else', async () => {
      const { driver } = await make();
      const dir = `list-${randomBytes(4).toString('hex')}`;
      const before = Date.now() - 60_000;
      await driver.put(`${dir}/ab/one`, Buffer.from('one'));
      await driver.put(`${dir}/cd/three`, Buffer.from('three'));
      await driver.put(`${dir}x/other`, Buffer.from('not mine'));
      const got: { key: string; size: number; modifiedAt: number }[] = [];
      for await (const o of driver.list(`${dir}/`)) got.push(o);
      expect(got.map((o) => [o.key, o.size]).sort()).toEqual([[`${dir}/ab/one`, 3], [`${dir}/cd/three`, 5]]);
      for (const o of got) expect(o.modifiedAt).toBeGreaterThan(before);
      const none: unknown[] = [];
      for await (const o of driver.list(`${dir}/zz/`)) none.push(o);
      expect(none).toEqual([]);
    });

    it('moves a local file into the store', async () => {
      const { driver } = await make();
      const { mkdtempSync, writeFileSync, existsSync } = await import('node:fs');
      const os = await import('node:os');
      const path = await import('node:path');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-imp-'));
      const file = path.join(dir, 'f');
      const body = randomBytes(5000);
      writeFileSync(file, body);
      const k = `t/${randomBytes(6).toString('hex')}`;
      await driver.importFile(k, file);
      expect(existsSync(file)).toBe(false);
      expect((await readAll(await driver.get(k))).equals(body)).toBe(true);
    });
  });
}
