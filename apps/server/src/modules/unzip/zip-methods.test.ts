import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SevenZip from '7z-wasm';
import type { ArchiveError, ArchiveReader } from './archive-reader.ts';
import { readerFor } from './archive-readers.ts';
import { createZipReader } from './zip-reader.ts';
import { DEFAULT_UNZIP_LIMITS } from './unzip.config.ts';
import { gbkEncode, kindOf, makeZip, readAll } from './test-archives.ts';
import { sevenZipReader } from './sevenzip-reader.ts';

/**
 * zip entries in methods zip.js cannot decode (issue 18 part 1: deflate64, bzip2, LZMA, xz, PPMd; with ZipCrypto or
 * AES), written in the test by 7-Zip itself, read through the zip reader: zip.js names them, 7-Zip unpacks each from a
 * one-entry zip in the reader's temp folder.
 */
let work: string;
let temp: string;
let reader: ArchiveReader;
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-zipmethods-'));
  temp = path.join(work, 'temp');
  mkdirSync(temp);
  reader = createZipReader({ tempDir: temp });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** `7z a -tzip <args>` of `files` (written under their names, in this order), as the zip's bytes. */
async function sevenZipZip(files: [string, Buffer][], args: string[], steps?: string[][]): Promise<Buffer> {
  const dir = path.join(work, `src${n++}`);
  mkdirSync(dir);
  for (const [name, data] of files) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  let out = '';
  const print = (c: number) => void (out += String.fromCharCode(c & 0xff));
  const sz = await SevenZip({ stdout: print, stderr: print, stdin: (() => null) as unknown as () => number });
  sz.FS.mkdir('/w');
  sz.FS.mount(sz.NODEFS, { root: dir }, '/w');
  sz.FS.chdir('/w');
  // one command per step: each `a` adds its files after those already in the archive, in its own method
  for (const step of steps ?? [[...args, ...files.map(([name]) => name)]]) {
    const code = sz.callMain(['a', '-tzip', '-y', '-sccUTF-8', 'out.zip', ...step]) as unknown as number;
    if (code) throw new Error(`7-Zip a ${step.join(' ')} exit ${code}: ${out}`);
  }
  return readFileSync(path.join(dir, 'out.zip'));
}

const onDisk = (bytes: Uint8Array) => {
  const f = path.join(work, `a${n++}.zip`);
  writeFileSync(f, bytes);
  return f;
};

async function extractAll(file: string, o: { password?: string; limits?: typeof DEFAULT_UNZIP_LIMITS; signal?: AbortSignal; r?: ArchiveReader } = {}) {
  const got: [string, Buffer][] = [];
  await (o.r ?? reader).extract(file, {
    password: o.password,
    limits: o.limits ?? DEFAULT_UNZIP_LIMITS,
    signal: o.signal ?? new AbortController().signal,
    async onEntry(entry, data) {
      got.push([entry.path.join('/'), await readAll(data)]);
    },
  });
  return got;
}

/** The compression method of each central directory record, in order. */
function methods(zip: Buffer): number[] {
  const out: number[] = [];
  for (let i = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])); i >= 0; i = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), i + 46)) out.push(zip.readUInt16LE(i + 10));
  return out;
}

const FILES: [string, Buffer][] = [
  ['图纸/平面图.dwg', randomBytes(120_000)],
  ['图纸/说明.txt', Buffer.from('一层平面图\n'.repeat(4000))],
  ['a/deep.dxf', Buffer.from('0\nSECTION\n'.repeat(8000))],
  ['zero.bin', Buffer.alloc(0)],
];

const tempIsEmpty = () => expect(readdirSync(temp)).toEqual([]);

describe('zip entries in methods zip.js cannot decode', () => {
  it.each([
    ['BZip2', 12],
    ['LZMA', 14],
    ['Deflate64', 9],
    ['PPMd', 98],
    ['XZ', 95],
  ])('%s: listed by zip.js, extracted byte for byte in order', async (method, code) => {
    const zip = await sevenZipZip(FILES, [`-mm=${method}`]);
    expect(methods(zip).filter((m) => m !== 0)).toContain(code);
    const file = onDisk(zip);
    const listing = await reader.list(file, { limits: DEFAULT_UNZIP_LIMITS });
    const names = listing.entries.filter((e) => !e.directory).map((e) => e.path.join('/'));
    expect(names.toSorted()).toEqual(FILES.map(([name]) => name).toSorted());
    // handed on in the zip's order, each byte for byte
    const got = await extractAll(file);
    expect(got.map(([name]) => name)).toEqual(names);
    expect(new Map(got)).toEqual(new Map(FILES));
    tempIsEmpty();
  });

  it('a GBK name without the UTF-8 flag is named by zip.js, the bytes unpacked by 7-Zip', async () => {
    const gbk = Buffer.from(gbkEncode('平面图.dwg'));
    const placeholder = 'x'.repeat(gbk.length - 4) + '.dwg';
    const data = Buffer.from('LINE\n'.repeat(30_000));
    const zip = await sevenZipZip([[placeholder, data]], ['-mm=BZip2']);
    expect(methods(zip)).toEqual([12]);
    // the name in the local header and the central directory, as Chinese Windows writes it; the UTF-8 flag cleared
    let at = 0;
    for (let i = zip.indexOf(placeholder); i >= 0; i = zip.indexOf(placeholder, i + 1), at++) gbk.copy(zip, i);
    expect(at).toBe(2);
    for (const [sig, flags] of [[[0x50, 0x4b, 3, 4], 6], [[0x50, 0x4b, 1, 2], 8]] as const) {
      const i = zip.indexOf(Buffer.from(sig));
      zip.writeUInt16LE(zip.readUInt16LE(i + flags) & ~0x0800, i + flags);
    }
    const file = onDisk(zip);
    const listing = await reader.list(file, { limits: DEFAULT_UNZIP_LIMITS });
    expect(listing.entries.map((e) => [e.path.join('/'), e.encoding])).toEqual([['平面图.dwg', 'gbk']]);
    expect(await extractAll(file)).toEqual([['平面图.dwg', data]]);
  });

  it('AES-256 + LZMA and ZipCrypto + BZip2: right password extracts, wrong says wrong-password, none asks for one', async () => {
    for (const [enc, method] of [['AES256', 'LZMA'], ['ZipCrypto', 'BZip2']]) {
      // 7-Zip in WebAssembly cannot write a zip under a non-ASCII password (it throws)
      const zip = await sevenZipZip(FILES, [`-mm=${method}`, `-mem=${enc}`, '-pright']);
      expect(methods(zip)).toContain(enc === 'AES256' ? 99 : method === 'LZMA' ? 14 : 12);
      const file = onDisk(zip);
      const listing = await reader.list(file, { limits: DEFAULT_UNZIP_LIMITS });
      expect(listing.encrypted).toBe(true);
      expect(new Map(await extractAll(file, { password: 'right' }))).toEqual(new Map(FILES));
      expect(await kindOf(extractAll(file, { password: 'wrong' }))).toBe('wrong-password');
      expect(await kindOf(extractAll(file))).toMatch(/password-required|wrong-password/);
      expect(await reader.checkPassword(file, 'right')).toBe(true);
      expect(await reader.checkPassword(file, 'wrong')).toBe(false);
      // one entry, so the smallest encrypted entry is in LZMA / BZip2: checked by 7-Zip
      const one = await sevenZipZip([['s.txt', Buffer.from('abc '.repeat(500))]], [`-mm=${method}`, `-mem=${enc}`, '-pright']);
      expect(methods(one)).toEqual([enc === 'AES256' ? 99 : method === 'LZMA' ? 14 : 12]);
      expect(await reader.checkPassword(onDisk(one), 'right')).toBe(true);
      expect(await reader.checkPassword(onDisk(one), 'wrong')).toBe(false);
      tempIsEmpty();
    }
  }, 60_000);

  it('ZipCrypto + BZip2 with a data descriptor (flag 3, as streaming writers make it): the one-entry zip keeps it', async () => {
    const data = Buffer.from('CIRCLE\n'.repeat(20_000));
    const zip = await sevenZipZip([['c.dxf', data]], ['-mm=BZip2', '-mem=ZipCrypto', '-pright']);
    expect(methods(zip)).toEqual([12]);
    const cd = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    const crc = zip.readUInt32LE(14);
    const csize = zip.readUInt32LE(18);
    const dataEnd = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28) + csize;
    // flag 3 in both headers; the password check byte is then the time's high byte, made to match the CRC's
    for (const [flags, time] of [[6, 10], [cd + 8, cd + 12]]) {
      zip.writeUInt16LE(zip.readUInt16LE(flags) | 8, flags);
      zip[time + 1] = crc >>> 24;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(csize, 8);
    descriptor.writeUInt32LE(data.length, 12);
    const withDescriptor = Buffer.concat([zip.subarray(0, dataEnd), descriptor, zip.subarray(dataEnd)]);
    const end = withDescriptor.lastIndexOf(Buffer.from([0x50, 0x4b, 5, 6]));
    withDescriptor.writeUInt32LE(cd + 16, end + 16);
    const file = onDisk(withDescriptor);
    expect(await extractAll(file, { password: 'right' })).toEqual([['c.dxf', data]]);
    expect(await kindOf(extractAll(file, { password: 'wrong' }))).toBe('wrong-password');
    expect(await reader.checkPassword(file, 'right')).toBe(true);
    expect(await reader.checkPassword(file, 'wrong')).toBe(false);
  });

  it('a ZipCrypto password in Chinese: zip.js and 7-Zip key it with the same (UTF-8) bytes', async () => {
    const data = new Uint8Array(Buffer.from('一层平面图\n'.repeat(3000)));
    const file = onDisk(await makeZip([{ name: '图.txt', data }], { password: '密码pw', zipCrypto: true }));
    const viaSevenZip: Buffer[] = [];
    await sevenZipReader('zip', { tempDir: temp }).extract(file, {
      password: '密码pw',
      limits: DEFAULT_UNZIP_LIMITS,
      signal: new AbortController().signal,
      async onEntry(_e, d) {
        viaSevenZip.push(await readAll(d));
      },
    });
    expect(viaSevenZip).toEqual([Buffer.from(data)]);
    expect(await extractAll(file, { password: '密码pw' })).toEqual([['图.txt', Buffer.from(data)]]);
    expect(await reader.checkPassword(file, '密码pw')).toBe(true);
  });

  it('a mixed zip (stored, deflate, bzip2) extracts byte for byte in order, through readerFor("zip") too', async () => {
    const files: [string, Buffer][] = [
      ['1-stored.bin', randomBytes(50_000)],
      ['2-deflate.txt', Buffer.from('deflate '.repeat(10_000))],
      ['3-bzip2.txt', Buffer.from('bzip2 '.repeat(10_000))],
      ['4-deflate.txt', Buffer.from('after '.repeat(10_000))],
    ];
    const zip = await sevenZipZip(files, [], [
      ['-mm=Copy', files[0][0]],
      ['-mm=Deflate', files[1][0]],
      ['-mm=BZip2', files[2][0]],
      ['-mm=Deflate', files[3][0]],
    ]);
    expect(methods(zip)).toEqual([0, 8, 12, 8]);
    const file = onDisk(zip);
    expect(await extractAll(file)).toEqual(files);
    expect(await extractAll(file, { r: readerFor('zip') })).toEqual(files);
  });

  it('a truncated bzip2 entry is damaged; the total limit and cancelling hold as for deflate', async () => {
    // compressible: 7-Zip stores what BZip2 does not make smaller
    const data = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `${i}:${i % 7}\n`).join(''));
    const zip = await sevenZipZip([['a.bin', data]], ['-mm=BZip2']);
    expect(methods(zip)).toEqual([12]);
    expect(await extractAll(onDisk(zip))).toEqual([['a.bin', data]]);
    // the entry's compressed bytes cut to half: local header, central record and end record say so
    const nameLen = zip.readUInt16LE(26);
    const extraLen = zip.readUInt16LE(28);
    const start = 30 + nameLen + extraLen;
    const csize = zip.readUInt32LE(18);
    const keep = Math.floor(csize / 2);
    const cut = Buffer.concat([zip.subarray(0, start + keep), zip.subarray(start + csize)]);
    cut.writeUInt32LE(keep, 18);
    const cd = cut.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    cut.writeUInt32LE(keep, cd + 20);
    const end = cut.lastIndexOf(Buffer.from([0x50, 0x4b, 5, 6]));
    cut.writeUInt32LE(cd, end + 16);
    const damaged = await reader
      .extract(onDisk(cut), { limits: DEFAULT_UNZIP_LIMITS, signal: new AbortController().signal, onEntry: async (_e, d) => void (await readAll(d)) })
      .catch((e: ArchiveError) => e);
    expect(damaged).toMatchObject({ kind: 'damaged', message: expect.stringContaining('a.bin') });
    tempIsEmpty();

    // a method 7-Zip does not know either (97, WavPack): unsupported, not damaged
    const wavpack = Buffer.from(zip);
    wavpack.writeUInt16LE(97, 8);
    wavpack.writeUInt16LE(97, zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])) + 10);
    expect(await kindOf(extractAll(onDisk(wavpack)))).toBe('unsupported');

    // two entries of 100 kB under a total of 150 kB: the first is handed on whole, the second counted past the total
    const two = await sevenZipZip([['a.bin', Buffer.alloc(100_000, 'a')], ['b.bin', Buffer.alloc(100_000, 'b')]], ['-mm=BZip2']);
    expect(methods(two)).toEqual([12, 12]);
    const seen: number[] = [];
    const over = reader.extract(onDisk(two), {
      limits: { ...DEFAULT_UNZIP_LIMITS, maxTotalBytes: 150_000 },
      signal: new AbortController().signal,
      async onEntry(_e, d) {
        seen.push(0);
        for await (const c of d) seen[seen.length - 1] += (c as Buffer).length;
      },
    });
    expect(await kindOf(over)).toBe('limit');
    expect(seen[0]).toBe(100_000);
    expect(seen[1]).toBeLessThanOrEqual(50_000 + (1 << 20));
    tempIsEmpty();
    const whole = onDisk(zip);
    const ac = new AbortController();
    const p = reader.extract(whole, {
      limits: DEFAULT_UNZIP_LIMITS,
      signal: ac.signal,
      async onEntry(_e, d) {
        ac.abort();
        await readAll(d);
      },
    });
    expect(await kindOf(p)).toBe('cancelled');
    tempIsEmpty();
  });
});
