import { describe, expect, it } from 'vitest';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { checkEntryPath, listZip } from './zip-listing.ts';
import { DEFAULT_UNZIP_LIMITS } from './unzip.config.ts';
import { rawZip } from './test-archives.ts';

async function zipWith(files: Record<string, Uint8Array | null>, password?: string): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false, ...(password ? { password } : {}) });
  for (const [name, data] of Object.entries(files)) {
    if (data === null) await writer.add(name, undefined, { directory: true });
    else await writer.add(name, new Uint8ArrayReader(data));
  }
  return writer.close();
}

const text = (s: string) => new TextEncoder().encode(s);
// "中文图纸.dwg" in GBK
const GBK_NAME = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0xcd, 0xbc, 0xd6, 0xbd, 0x2e, 0x64, 0x77, 0x67]);

describe('listZip', () => {
  it('lists a zip from its writer: folders, files, sizes, UTF-8 names', async () => {
    const zip = await zipWith({ '图纸/': null, '图纸/平面图.dwg': text('AC1032 plan'), 'readme.txt': text('') });
    const listing = await listZip(zip);
    expect(listing.refused).toEqual([]);
    expect(listing.limitExceeded).toBeUndefined();
    expect(listing.encrypted).toBe(false);
    expect(listing.entries.map((e) => [e.path.join('/'), e.directory, e.uncompressedSize])).toEqual([
      ['图纸', true, 0],
      ['图纸/平面图.dwg', false, 11],
      ['readme.txt', false, 0],
    ]);
  });

  it('reports encrypted entries', async () => {
    const listing = await listZip(await zipWith({ 'secret.dwg': text('plan') }, 'pw'));
    expect(listing.encrypted).toBe(true);
    expect(listing.entries[0].encrypted).toBe(true);
  });

  it('decodes a GBK name written without the UTF-8 flag', async () => {
    const listing = await listZip(rawZip([{ name: GBK_NAME, data: text('x') }]));
    expect(listing.entries[0]).toMatchObject({ path: ['中文图纸.dwg'], encoding: 'gbk', fixes: [] });
  });

  it('replaces forbidden characters in names and reports it', async () => {
    const listing = await listZip(rawZip([{ name: 'dir/a:b?.dwg', data: text('x'), utf8Flag: true }]));
    expect(listing.entries[0]).toMatchObject({ path: ['dir', 'a_b_.dwg'], originalName: 'dir/a:b?.dwg', fixes: ['forbidden-char'] });
  });

  it.each([
    ['../evil.txt', 'parent-path'],
    ['ok/../../evil.txt', 'parent-path'],
    ['..\\evil.txt', 'parent-path'],
    ['/abs.txt', 'absolute-path'],
    ['\\\\server\\share\\x.txt', 'absolute-path'],
    ['C:\\x.txt', 'drive-letter'],
    ['c:/x.txt', 'drive-letter'],
  ])('refuses %j (%s) and keeps the safe entries', async (name, reason) => {
    const listing = await listZip(rawZip([{ name, data: text('evil') }, { name: 'safe.txt', data: text('ok') }]));
    expect(listing.refused).toEqual([{ originalName: name, reason }]);
    expect(listing.entries.map((e) => e.path)).toEqual([['safe.txt']]);
  });

  it('refuses a symlink entry (Unix mode 0o120000) and never lists it for creation', async () => {
    const listing = await listZip(rawZip([{ name: 'link', data: text('/etc/passwd'), host: 3, unixMode: 0o120777 }, { name: 'file', data: text('x'), host: 3, unixMode: 0o100644 }]));
    expect(listing.refused).toEqual([{ originalName: 'link', reason: 'symlink' }]);
    expect(listing.entries.map((e) => e.path)).toEqual([['file']]);
  });

  it('refuses more entries than the limit (default 20,000), stopping at the first one over', async () => {
    const many = Array.from({ length: DEFAULT_UNZIP_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `f${i}` }));
    const listing = await listZip(rawZip(many));
    expect(listing.limitExceeded).toEqual({ kind: 'entries', limit: 20_000, actual: 20_001 });
    const atLimit = await listZip(rawZip(many.slice(1)));
    expect(atLimit.limitExceeded).toBeUndefined();
  });

  it('refuses a total uncompressed size over the limit', async () => {
    const zip = await zipWith({ 'a.bin': new Uint8Array(3000).fill(7), 'b.bin': crypto.getRandomValues(new Uint8Array(3000)) });
    const listing = await listZip(zip, { ...DEFAULT_UNZIP_LIMITS, maxTotalBytes: 5999 });
    expect(listing.limitExceeded).toEqual({ kind: 'total-size', limit: 5999, actual: 6000 });
    expect((await listZip(zip, { ...DEFAULT_UNZIP_LIMITS, maxTotalBytes: 6000 })).limitExceeded).toBeUndefined();
  });

  it('refuses an entry whose header claims a ratio over 200:1 (a lying header: 10 bytes said to be 3 GB)', async () => {
    const listing = await listZip(rawZip([{ name: 'bomb.bin', data: text('0123456789'), claimUncompressed: 3 * 1024 ** 3 }]));
    expect(listing.limitExceeded).toMatchObject({ kind: 'ratio', limit: 200, entry: 'bomb.bin' });
  });

  it('refuses a real 1000:1 entry (16 MiB of zeros deflated) but not a small file of blanks', async () => {
    const listing = await listZip(await zipWith({ 'zeros.bin': new Uint8Array(16 * 1024 * 1024) }));
    expect(listing.limitExceeded).toMatchObject({ kind: 'ratio', entry: 'zeros.bin' });
    const small = await listZip(await zipWith({ 'blanks.txt': new Uint8Array(100_000).fill(32) }));
    expect(small.limitExceeded).toBeUndefined();
  });

  it('throws on bytes that are not a zip', async () => {
    await expect(listZip(crypto.getRandomValues(new Uint8Array(1000)))).rejects.toThrow();
  });
});

describe('checkEntryPath', () => {
  it('drops empty and "." parts', () => {
    expect(checkEntryPath('./a//b/')).toEqual({ parts: ['a', 'b'] });
    expect(checkEntryPath('./')).toEqual({ refused: 'empty-name' });
  });
});
