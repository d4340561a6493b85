import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError, type ArchiveReader } from './archive-reader.ts';
import { dictionaryBytes, parseTechnicalListing, sevenZipReader, type SevenZipReaderOptions } from './sevenzip-reader.ts';
import { DEFAULT_UNZIP_LIMITS } from './unzip.config.ts';
import type { SevenZipJob, SevenZipMessage } from './sevenzip.worker.ts';
import { workerEntry } from '../../infra/workers/worker-entry.ts';
import type { UnzipLimits } from './zip-listing.ts';
import { sevenZip } from './test-archives.ts';

/**
 * 7z and tar archives are made here by 7-Zip itself (7z-wasm's `a`), hostile tars byte by byte; RAR cannot be written
 * by free tools, so the RAR archives are libarchive's test files (fixtures/SOURCES.md).
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
let work: string;
/** the readers' own temp folder: empty again after every call */
let temp: string;

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'sevenzip-test-'));
  temp = path.join(work, 'temp');
  mkdirSync(temp);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));


/** The files of a tree, by '/'-separated path. */
function writeTree(dir: string, files: Record<string, Buffer>, emptyDirs: string[] = []) {
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  for (const d of emptyDirs) mkdirSync(path.join(dir, d), { recursive: true });
}

const TREE: Record<string, Buffer> = {
  '图纸/平面图.dwg': randomBytes(300_000),
  '图纸/说明.txt': Buffer.from('一层平面图\n'.repeat(2000)),
  'a/b/c/deep.dxf': Buffer.from('0\nSECTION\n'.repeat(5000)),
  'zero.bin': Buffer.alloc(0),
  'a*b.txt': Buffer.from('star'),
};
const EMPTY_DIRS = ['图纸/空文件夹'];
const CLEANED: Record<string, string> = { 'a*b.txt': 'a_b.txt' };

const limits = (l: Partial<UnzipLimits> = {}): UnzipLimits => ({ ...DEFAULT_UNZIP_LIMITS, ...l });
const readerOptions: SevenZipReaderOptions = {};
const reader = (format: '7z' | 'rar' | 'tar', o: SevenZipReaderOptions = {}) => sevenZipReader(format, { tempDir: temp, ...readerOptions, ...o });

async function extractAll(r: ArchiveReader, file: string, o: { password?: string; limits?: UnzipLimits; signal?: AbortSignal } = {}) {
  const got = new Map<string, Buffer>();
  await r.extract(file, {
    password: o.password,
    limits: o.limits ?? limits(),
    signal: o.signal ?? new AbortController().signal,
    async onEntry(entry, data) {
      const chunks: Buffer[] = [];
      for await (const c of data) chunks.push(c as Buffer);
      got.set(entry.path.join('/'), Buffer.concat(chunks));
    },
  });
  return got;
}

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ArchiveError) return e.kind;
    throw e;
  }
  return 'ok';
}

function expectTree(got: Map<string, Buffer>) {
  const want = Object.fromEntries(Object.entries(TREE).map(([k, v]) => [`src/${CLEANED[k] ?? k}`, v.toString('base64')]));
  expect(Object.fromEntries([...got].map(([k, v]) => [k, v.toString('base64')]))).toEqual(want);
  // nothing left behind in the readers' temp folder
  expect(readdirSync(temp)).toEqual([]);
}

let plain7z: string, password7z: string, headers7z: string, tarFile: string, tgzFile: string;

beforeAll(async () => {
  const dir = path.join(work, 'make');
  writeTree(path.join(dir, 'src'), TREE, EMPTY_DIRS);
  await sevenZip(dir, ['a', '-t7z', 'plain.7z', 'src']);
  await sevenZip(dir, ['a', '-t7z', '-psecret', 'password.7z', 'src']);
  await sevenZip(dir, ['a', '-t7z', '-p密码', '-mhe=on', 'headers.7z', 'src']);
  await sevenZip(dir, ['a', '-ttar', 'plain.tar', 'src']);
  writeFileSync(path.join(dir, 'plain.tar.gz'), gzipSync(readFileSync(path.join(dir, 'plain.tar'))));
  [plain7z, password7z, headers7z, tarFile, tgzFile] = ['plain.7z', 'password.7z', 'headers.7z', 'plain.tar', 'plain.tar.gz'].map((n) => path.join(dir, n));
}, 60_000);

describe('7z', () => {
  it('lists an archive like a zip: cleaned paths, folders, sizes, nothing encrypted', async () => {
    const l = await reader('7z').list(plain7z, { limits: limits() });
    expect(l.format).toBe('7z');
    expect(l.encrypted).toBe(false);
    expect(l.refused).toEqual([]);
    const byPath = new Map(l.entries.map((e) => [e.path.join('/'), e]));
    expect(byPath.get('src/图纸/空文件夹')?.directory).toBe(true);
    expect(byPath.get('src/图纸/平面图.dwg')).toMatchObject({ directory: false, uncompressedSize: 300_000, encoding: 'utf-8', fixes: [] });
    expect(byPath.get('src/zero.bin')?.uncompressedSize).toBe(0);
    expect(byPath.get('src/a_b.txt')).toMatchObject({ originalName: 'src/a*b.txt', fixes: ['forbidden-char'] });
    expect(l.totalUncompressed).toBe(Object.values(TREE).reduce((n, b) => n + b.length, 0));
    expect(l.totalCompressed).toBeGreaterThan(300_000);
  });

  it('extracts every file byte for byte, in listing order, and leaves no temp files', async () => {
    const r = reader('7z');
    const l = await r.list(plain7z, { limits: limits() });
    const got = await extractAll(r, plain7z);
    expectTree(got);
    expect([...got.keys()]).toEqual(l.entries.filter((e) => !e.directory).map((e) => e.path.join('/')));
  });

  it('with a password: listed without it, checked, refused when missing or wrong, extracted with it', async () => {
    const r = reader('7z');
    const l = await r.list(password7z, { limits: limits() });
    expect(l.encrypted).toBe(true);
    expect(l.entries.find((e) => e.path.join('/') === 'src/图纸/平面图.dwg')?.encrypted).toBe(true);
    expect(await r.checkPassword(password7z, 'nope')).toBe(false);
    expect(await r.checkPassword(password7z, 'secret')).toBe(true);
    expect(await kindOf(extractAll(r, password7z))).toBe('password-required');
    expect(await kindOf(extractAll(r, password7z, { password: 'nope' }))).toBe('wrong-password');
    expect(readdirSync(temp)).toEqual([]);
    expectTree(await extractAll(r, password7z, { password: 'secret' }));
  });

  it('with encrypted headers: nothing is listed without the password, a wrong one is told apart', async () => {
    const r = reader('7z');
    expect(await kindOf(r.list(headers7z, { limits: limits() }))).toBe('password-required');
    expect(await kindOf(r.list(headers7z, { password: 'nope', limits: limits() }))).toBe('wrong-password');
    expect(await r.checkPassword(headers7z, 'nope')).toBe(false);
    expect(await r.checkPassword(headers7z, '密码')).toBe(true);
    const l = await r.list(headers7z, { password: '密码', limits: limits() });
    expect(l.encrypted).toBe(true);
    expect(l.entries.map((e) => e.path.join('/'))).toContain('src/图纸/平面图.dwg');
    expect(await kindOf(extractAll(r, headers7z, { password: 'nope' }))).toBe('wrong-password');
    expectTree(await extractAll(r, headers7z, { password: '密码' }));
  });

  it('a password check on an archive without encryption says yes', async () => {
    expect(await reader('7z').checkPassword(plain7z, 'anything')).toBe(true);
  });

  it('a truncated archive is damaged, random bytes are not an archive', async () => {
    const truncated = path.join(work, 'truncated.7z');
    writeFileSync(truncated, readFileSync(plain7z).subarray(0, 2000));
    expect(await kindOf(reader('7z').list(truncated, { limits: limits() }))).toBe('damaged');
    const random = path.join(work, 'random.7z');
    writeFileSync(random, randomBytes(5000));
    expect(await kindOf(reader('7z').list(random, { limits: limits() }))).toBe('not-archive');
    expect(await kindOf(extractAll(reader('7z'), random))).toBe('not-archive');
  });
});

describe('tar and tar.gz', () => {
  it('a tar made by 7-Zip extracts byte for byte', async () => {
    const r = reader('tar');
    const l = await r.list(tarFile, { limits: limits() });
    expect(l.format).toBe('tar');
    expect(l.entries.find((e) => e.path.join('/') === 'src/图纸/空文件夹')?.directory).toBe(true);
    expectTree(await extractAll(r, tarFile));
  });

  it('a tar.gz is read as the tar inside it; its compressed size is the .gz file', async () => {
    const r = reader('tar');
    const l = await r.list(tgzFile, { limits: limits() });
    expect(l.totalCompressed).toBe(readFileSync(tgzFile).length);
    expect(l.entries.map((e) => e.path.join('/'))).toContain('src/a/b/c/deep.dxf');
    expectTree(await extractAll(r, tgzFile));
  });
});

/** A POSIX tar written by hand: hostile names and links that no well-behaved tool writes. */
function tarHeader(name: string, o: { size?: number; type?: string; link?: string } = {}): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write((o.size ?? 0).toString(8).padStart(11, '0') + '\0', 124);
  h.write('14000000000\0', 136);
  h.write('        ', 148);
  h.write(o.type ?? '0', 156);
  if (o.link) h.write(o.link, 157, 100, 'utf8');
  h.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return h;
}
function tarOf(entries: { name: string; data?: Buffer; type?: string; link?: string }[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    parts.push(tarHeader(e.name, { size: data.length, type: e.type, link: e.link }), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

describe('unsafe entries', () => {
  it('parent paths, absolute paths, drive letters and links are refused, reported and never written; a name twice is passed on once', async () => {
    const file = path.join(work, 'hostile', 'hostile.tar');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      tarOf([
        { name: 'ok.txt', data: Buffer.from('fine') },
        { name: '../evil.txt', data: Buffer.from('escaped') },
        { name: '/abs.txt', data: Buffer.from('absolute') },
        { name: 'C:/win.txt', data: Buffer.from('drive') },
        { name: 'link', type: '2', link: '/etc/passwd' },
        { name: 'dirlink', type: '2', link: '..' },
        { name: 'hard', type: '1', link: 'ok.txt' },
        // a tar updated by appending holds one name twice: never written over a file being read
        { name: 'dup.txt', data: Buffer.from('one') },
        { name: 'dup.txt', data: Buffer.from('two') },
        // made on Windows: backslashes are folders for us, one name for 7-Zip on Linux
        { name: 'win\\dir\\w.txt', data: Buffer.from('windows') },
        { name: './dot//slash.txt', data: Buffer.from('dots') },
      ]),
    );
    const r = reader('tar');
    const l = await r.list(file, { limits: limits() });
    expect(l.entries.map((e) => e.path.join('/'))).toEqual(['ok.txt', 'dup.txt', 'dup.txt', 'win/dir/w.txt', 'dot/slash.txt']);
    expect(l.refused).toEqual([
      { originalName: '../evil.txt', reason: 'parent-path' },
      { originalName: '/abs.txt', reason: 'absolute-path' },
      { originalName: 'C:/win.txt', reason: 'drive-letter' },
      { originalName: 'link', reason: 'symlink' },
      { originalName: 'dirlink', reason: 'symlink' },
      { originalName: 'hard', reason: 'hardlink' },
    ]);
    const got = await extractAll(r, file);
    expect(Object.fromEntries([...got].map(([k, v]) => [k, v.toString()]))).toEqual({ 'ok.txt': 'fine', 'dup.txt': 'one', 'win/dir/w.txt': 'windows', 'dot/slash.txt': 'dots' });
    expect(readdirSync(path.dirname(file))).toEqual(['hostile.tar']);
    expect(existsSync(path.join(work, 'evil.txt'))).toBe(false);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe('RAR (libarchive test files)', () => {
  const fx = (n: string) => path.join(FIXTURES, n);
  const abcd = (names: string[]) => Object.fromEntries(names.map((n) => [n, `This is from ${n}`]));
  const asText = (m: Map<string, Buffer>) => Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));

  it('RAR 4 without password: files, folders, an empty folder; its Unix link comes out as a plain file (7-Zip does not read RAR 4 links)', async () => {
    const r = reader('rar');
    const l = await r.list(fx('rar4.rar'), { limits: limits() });
    expect(l.entries.map((e) => [e.path.join('/'), e.directory])).toEqual([
      ['test.txt', false],
      ['testlink', false],
      ['testdir/test.txt', false],
      ['testdir', true],
      ['testemptydir', true],
    ]);
    const got = asText(await extractAll(r, fx('rar4.rar')));
    expect(got['test.txt']).toBe('test text document\r\n');
    expect(got['testdir/test.txt']).toBe('test text document\r\n');
    expect(got.testlink).toBe('test.txt');
  });

  it('RAR 5 stored', async () => {
    const got = asText(await extractAll(reader('rar'), fx('rar5-stored.rar')));
    expect(got).toEqual({ 'helloworld.txt': 'hello libarchive test suite!\n' });
  });

  for (const v of ['rar4', 'rar5']) {
    it(`${v} with a password: listed, checked, wrong and missing told apart, extracted`, async () => {
      const r = reader('rar');
      const file = fx(`${v}-solid-encrypted.rar`);
      const l = await r.list(file, { limits: limits() });
      expect(l.encrypted).toBe(true);
      expect(l.entries.map((e) => e.path.join('/'))).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
      expect(await r.checkPassword(file, 'wrong')).toBe(false);
      expect(await r.checkPassword(file, 'password')).toBe(true);
      expect(await kindOf(extractAll(r, file))).toBe('password-required');
      expect(await kindOf(extractAll(r, file, { password: 'wrong' }))).toBe('wrong-password');
      expect(asText(await extractAll(r, file, { password: 'password' }))).toEqual(abcd(['a.txt', 'b.txt', 'c.txt', 'd.txt']));
    });

    it(`${v} with encrypted headers: the password is needed to list`, async () => {
      const r = reader('rar');
      const file = fx(`${v}-solid-encrypted-filenames.rar`);
      expect(await kindOf(r.list(file, { limits: limits() }))).toBe('password-required');
      expect(await kindOf(r.list(file, { password: 'wrong', limits: limits() }))).toBe('wrong-password');
      expect(await r.checkPassword(file, 'wrong')).toBe(false);
      expect(await r.checkPassword(file, 'password')).toBe(true);
      expect(asText(await extractAll(r, file, { password: 'password' }))).toEqual(abcd(['a.txt', 'b.txt', 'c.txt', 'd.txt']));
    });
  }

  it('RAR 5 symbolic and hard links are refused and never created', async () => {
    const r = reader('rar');
    const sym = await r.list(fx('rar5-symlink.rar'), { limits: limits() });
    expect(sym.refused).toEqual([
      { originalName: 'symlink.txt', reason: 'symlink' },
      { originalName: 'dirlink', reason: 'symlink' },
    ]);
    expect(asText(await extractAll(r, fx('rar5-symlink.rar')))).toEqual({ 'file.txt': '1234\n' });
    const hard = await r.list(fx('rar5-hardlink.rar'), { limits: limits() });
    expect(hard.refused).toEqual([{ originalName: 'hardlink.txt', reason: 'hardlink' }]);
    expect(asText(await extractAll(r, fx('rar5-hardlink.rar')))).toEqual({ 'file.txt': '1234\n' });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('a truncated RAR is damaged; a 7z read as RAR is not a RAR', async () => {
    const truncated = path.join(work, 'truncated.rar');
    writeFileSync(truncated, readFileSync(fx('rar5-solid-encrypted.rar')).subarray(0, 200));
    expect(await kindOf(extractAll(reader('rar'), truncated, { password: 'password' }))).toBe('damaged');
    expect(await kindOf(reader('rar').list(plain7z, { limits: limits() }))).toBe('not-archive');
  });
});

describe('bombs, time and cancel', () => {
  let bomb7z: string, bombTgz: string;
  const SIZE = 300 * 1024 ** 2;
  beforeAll(async () => {
    const dir = path.join(work, 'bomb');
    mkdirSync(dir);
    // a sparse file: 300 MB of zeros that take no disk to write
    writeFileSync(path.join(dir, 'zeros.bin'), '');
    truncateSync(path.join(dir, 'zeros.bin'), SIZE);
    await sevenZip(dir, ['a', '-t7z', '-mx1', 'bomb.7z', 'zeros.bin']);
    rmSync(path.join(dir, 'zeros.bin'));
    bomb7z = path.join(dir, 'bomb.7z');
    // a tar.gz whose tar is only known by unpacking it
    const { createGzip } = await import('node:zlib');
    const { pipeline } = await import('node:stream/promises');
    const { Readable } = await import('node:stream');
    const { createWriteStream } = await import('node:fs');
    bombTgz = path.join(dir, 'bomb.tar.gz');
    async function* tar() {
      yield tarHeader('zeros.bin', { size: SIZE });
      const zero = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < SIZE / zero.length; i++) yield zero;
      yield Buffer.alloc(1024);
    }
    await pipeline(Readable.from(tar()), createGzip({ level: 1 }), createWriteStream(bombTgz));
  }, 60_000);

  it('a 300 MB 7z of zeros is stopped on its listing: over the size limit, over the ratio', async () => {
    const r = reader('7z');
    const small = await r.list(bomb7z, { limits: limits({ maxTotalBytes: 100 * 1024 ** 2, maxRatio: 1_000_000 }) });
    expect(small.limitExceeded).toEqual({ kind: 'total-size', limit: 100 * 1024 ** 2, actual: SIZE });
    const ratio = await r.list(bomb7z, { limits: limits() });
    expect(ratio.limitExceeded).toMatchObject({ kind: 'ratio', limit: DEFAULT_UNZIP_LIMITS.maxRatio, entry: 'zeros.bin' });
    const e = await extractAll(r, bomb7z).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ArchiveError);
    expect((e as ArchiveError).kind).toBe('limit');
    expect((e as ArchiveError).limit?.kind).toBe('ratio');
    expect(readdirSync(temp)).toEqual([]);
  });

  it('a tar.gz bomb is stopped while it is unpacked, at the size limit', async () => {
    const r = reader('tar');
    const l = await r.list(bombTgz, { limits: limits({ maxTotalBytes: 20 * 1024 ** 2 }) });
    expect(l.limitExceeded?.kind).toBe('total-size');
    expect(l.limitExceeded!.actual).toBeLessThan(SIZE);
    expect(await kindOf(extractAll(r, bombTgz, { limits: limits({ maxTotalBytes: 20 * 1024 ** 2 }) }))).toBe('limit');
    expect(readdirSync(temp)).toEqual([]);
  });

  it('an extraction past its time is ended (the worker is terminated, its files deleted)', async () => {
    const started = Date.now();
    const e = await extractAll(reader('7z', { extractTimeoutMs: 300 }), bomb7z, { limits: limits({ maxRatio: 1_000_000 }) }).catch((err: unknown) => err);
    expect((e as ArchiveError).kind).toBe('limit');
    expect((e as ArchiveError).message).toMatch(/longer than/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(readdirSync(temp)).toEqual([]);
  });

  it("7-Zip's thread stops itself past the bytes it may write, whatever the listing said", async () => {
    // the reader's guard behind the listing: honest 7z/RAR decoders stop at the sizes their headers declare, so no
    // archive made here lies past them; the thread is given the job directly
    const out = path.join(work, 'guard-out');
    mkdirSync(out);
    const entry = workerEntry(path.join(import.meta.dirname, 'sevenzip.worker.ts'), 'sevenzip.worker');
    const job: SevenZipJob = { args: ['x', '-p', '-y', '-o/job', '--', `/in/${path.basename(bomb7z)}`], mounts: { '/in': path.dirname(bomb7z), '/job': out }, maxWriteBytes: 8 * 1024 ** 2, maxOutputBytes: 1024 ** 2 };
    const worker = new Worker(entry.script, { workerData: { ...entry.workerData, ...job } });
    const messages: SevenZipMessage[] = [];
    worker.on('message', (m: SevenZipMessage) => messages.push(m));
    // the thread ends by itself (emscripten reports exit 1 for the stopped command); nothing terminates it here
    await new Promise<number>((resolve) => worker.once('exit', resolve));
    expect(messages.map((m) => m.type)).toEqual(['limit']);
    expect(messages[0]).toMatchObject({ what: 'written' });
    const written = readdirSync(out).reduce((n, f) => n + statSync(path.join(out, f)).size, 0);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(16 * 1024 ** 2);
  });

  it('cancel ends an extraction at once', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const started = Date.now();
    expect(await kindOf(extractAll(reader('7z'), bomb7z, { limits: limits({ maxRatio: 1_000_000 }), signal: ac.signal }))).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe('sizes 32-bit 7-Zip cannot read', () => {
  it('an archive of 2 GiB or more is unsupported, said before 7-Zip is started', async () => {
    const big = path.join(work, 'big.7z');
    writeFileSync(big, readFileSync(plain7z));
    // sparse: no disk written
    truncateSync(big, 2 ** 31);
    expect(await kindOf(reader('7z').list(big, { limits: limits() }))).toBe('unsupported');
    expect(await kindOf(extractAll(reader('7z'), big))).toBe('unsupported');
    rmSync(big);
  });
});

describe('listing parts', () => {
  it('reads dictionaries from 7-Zip method names', () => {
    expect(dictionaryBytes('LZMA2:24')).toBe(16 * 1024 ** 2);
    expect(dictionaryBytes('LZMA2:17 7zAES:19')).toBe(2 ** 17);
    expect(dictionaryBytes('LZMA:1536k')).toBe(1536 * 1024);
    expect(dictionaryBytes('v6:m3:32M')).toBe(32 * 1024 ** 2);
    expect(dictionaryBytes('m3:22')).toBe(4 * 1024 ** 2);
    expect(dictionaryBytes('Copy')).toBe(0);
  });

  it('a dictionary over the reader\'s memory is refused before 7-Zip allocates it', async () => {
    expect(await kindOf(extractAll(reader('7z', { maxDictionaryBytes: 64 * 1024 }), plain7z))).toBe('unsupported');
  });

  it('parses the technical listing into the archive and its items, empty values kept', () => {
    const { archive, items } = parseTechnicalListing('x\n--\nPath = a.7z\nType = 7z\n\n----------\nPath = a b.txt\nSize = 3\nCRC =\n\nPath = c = d\nSize = 0\n');
    expect(archive).toEqual({ Path: 'a.7z', Type: '7z' });
    expect(items).toEqual([{ Path: 'a b.txt', Size: '3', CRC: '' }, { Path: 'c = d', Size: '0' }]);
  });
});
