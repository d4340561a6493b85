import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { zipReader } from './zip-reader.ts';
import { DEFAULT_UNZIP_LIMITS } from './unzip.config.ts';
import { kindOf, lieAboutSize, makeZip, rawZip, readAll, type TestEntry, type TestZipOptions } from './test-archives.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-zipreader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const onDisk = (bytes: Uint8Array) => {
  const f = path.join(dir, `a${n++}.zip`);
  writeFileSync(f, bytes);
  return f;
};

async function extractAll(file: string, o: { password?: string; limits?: typeof DEFAULT_UNZIP_LIMITS; signal?: AbortSignal; language?: string } = {}) {
  const got = new Map<string, Buffer>();
  await zipReader.extract(file, {
    password: o.password,
    limits: o.limits ?? DEFAULT_UNZIP_LIMITS,
    language: o.language,
    signal: o.signal ?? new AbortController().signal,
    async onEntry(entry, data) {
      got.set(entry.path.join('/'), await readAll(data));
    },
  });
  return got;
}

const SOURCE: TestEntry[] = [
  { name: '图纸/', data: null },
  { name: '图纸/平面图.dwg', data: randomBytes(70_000) },
  { name: '图纸/空/', data: null },
  { name: '图纸/立面/东立面.dxf', data: new Uint8Array(Buffer.from('0\nSECTION\n'.repeat(5000))) },
  { name: 'empty.txt', data: new Uint8Array() },
];
const files = (entries: TestEntry[]) => new Map(entries.filter((e) => e.data !== null).map((e) => [e.name, Buffer.from(e.data!)]));

describe('zipReader', () => {
  it("reads a Korean user's EUC-KR names and a Japanese user's Shift-JIS names (no UTF-8 flag), in the listing and the extraction", async () => {
    const b = (...x: number[]) => new Uint8Array(x);
    // '도면/도면.dwg' in EUC-KR: GBK reads it too, as Chinese nonsense
    const korean = onDisk(rawZip([{ name: b(0xb5, 0xb5, 0xb8, 0xe9, 0x2f, 0xb5, 0xb5, 0xb8, 0xe9, 0x2e, 0x64, 0x77, 0x67), data: b(1, 2) }]));
    // '図面/図面ｶ.dxf' in Shift-JIS: the half-width ｶ before '.' is no GBK pair
    const japanese = onDisk(rawZip([{ name: b(0x90, 0x7d, 0x96, 0xca, 0x2f, 0x90, 0x7d, 0x96, 0xca, 0xb6, 0x2e, 0x64, 0x78, 0x66), data: b(3) }]));
    const names = async (file: string, language?: string) => (await zipReader.list(file, { limits: DEFAULT_UNZIP_LIMITS, language })).entries.map((e) => [e.path.join('/'), e.encoding]);
    expect(await names(korean, 'ko')).toEqual([['도면/도면.dwg', 'euc-kr']]);
    expect(await names(korean, 'ko-KR')).toEqual([['도면/도면.dwg', 'euc-kr']]);
    expect((await names(korean, 'zh'))[0][1]).toBe('gbk');
    expect(await names(japanese, 'ja')).toEqual([['図面/図面ｶ.dxf', 'shift_jis']]);
    expect((await names(japanese, 'en'))[0][1]).toBe('cp437');
    expect(await extractAll(korean, { language: 'ko' })).toEqual(new Map([['도면/도면.dwg', Buffer.from([1, 2])]]));
    expect(await extractAll(japanese, { language: 'ja' })).toEqual(new Map([['図面/図面ｶ.dxf', Buffer.from([3])]]));
  });

  it.each<[string, TestZipOptions]>([
    ['deflate, UTF-8 names', {}],
    ['stored', { level: 0 }],
    ['GBK names without the UTF-8 flag', { gbkNames: true }],
    ['ZipCrypto', { password: '密码pw', zipCrypto: true }],
    ['AES-128', { password: 'pw', encryptionStrength: 1 }],
    ['AES-256', { password: 'pw', encryptionStrength: 3 }],
    ['zip64', { zip64: true }],
  ])('extracts %s byte for byte, folders listed', async (_label, o) => {
    const file = onDisk(await makeZip(SOURCE, o));
    const listing = await zipReader.list(file, { limits: DEFAULT_UNZIP_LIMITS });
    expect(listing.format).toBe('zip');
    expect(listing.encrypted).toBe(!!o.password);
    expect(listing.entries.filter((e) => e.directory).map((e) => e.path.join('/'))).toEqual(['图纸', '图纸/空']);
    if (o.gbkNames) expect(listing.entries.find((e) => !e.directory)!.encoding).toBe('gbk');
    expect(await extractAll(file, { password: o.password })).toEqual(files(SOURCE));
  });

  it('checks a password without extracting: right, wrong; extraction with a wrong or no password says so', async () => {
    for (const o of [{ zipCrypto: true }, { encryptionStrength: 3 as const }]) {
      const file = onDisk(await makeZip(SOURCE, { password: 'right', ...o }));
      expect(await zipReader.checkPassword(file, 'right')).toBe(true);
      expect(await zipReader.checkPassword(file, 'wrong')).toBe(false);
      expect(await kindOf(extractAll(file, { password: 'wrong' }))).toBe('wrong-password');
      expect(await kindOf(extractAll(file))).toMatch(/password-required|wrong-password/);
    }
    // ZipCrypto's one check byte passes about 1 wrong password in 256: none of 600 gets through
    const crypto1 = onDisk(await makeZip([{ name: 'a.bin', data: new Uint8Array(Buffer.from('plan '.repeat(200))) }], { password: 'right', zipCrypto: true }));
    const passed = [];
    for (let i = 0; i < 600; i++) if (await zipReader.checkPassword(crypto1, `wrong${i}`)) passed.push(i);
    expect(passed).toEqual([]);
    // nothing encrypted: any password opens it
    expect(await zipReader.checkPassword(onDisk(await makeZip(SOURCE)), 'x')).toBe(true);
  });

  it('stops an entry that gives more than its header says, and an archive over the total (limit)', async () => {
    const data = new Uint8Array(200_000).fill(65);
    // counted (limit), or caught by zip.js comparing the headers first (damaged): refused either way
    const liar = onDisk(lieAboutSize(await makeZip([{ name: 'liar.bin', data }]), 'liar.bin', 1000));
    expect(await kindOf(extractAll(liar))).toMatch(/^(limit|damaged)$/);
    const stored = onDisk(lieAboutSize(await makeZip([{ name: 'liar.bin', data }], { level: 0 }), 'liar.bin', 1000));
    expect(await kindOf(extractAll(stored))).toMatch(/^(limit|damaged)$/);
    const big = onDisk(await makeZip([{ name: 'a', data: randomBytes(5000) }, { name: 'b', data: randomBytes(5000) }]));
    expect(await kindOf(extractAll(big, { limits: { ...DEFAULT_UNZIP_LIMITS, maxTotalBytes: 9000 } }))).toBe('limit');
  });

  it('names truncated archives damaged and random bytes not an archive', async () => {
    const whole = await makeZip([{ name: 'x.bin', data: randomBytes(100_000) }], { level: 0 });
    expect(await kindOf(zipReader.list(onDisk(whole.subarray(0, 50_000)), { limits: DEFAULT_UNZIP_LIMITS }))).toMatch(/not-archive|damaged/);
    // the central directory intact, an entry's bytes cut: read as damaged
    const cut = Buffer.from(whole);
    cut.fill(0, 40, 60_000);
    expect(await kindOf(extractAll(onDisk(cut)))).toBe('damaged');
    expect(await kindOf(zipReader.list(onDisk(randomBytes(4096)), { limits: DEFAULT_UNZIP_LIMITS }))).toBe('not-archive');
  });

  it('a deflated entry read straight through zlib is checked as zip.js checks it: a wrong CRC-32 or a broken deflate stream is damaged', async () => {
    const text = new Uint8Array(Buffer.from('0\nLINE\n'.repeat(50_000)));
    const good = Buffer.from(await makeZip([{ name: 'plan.dxf', data: text }, { name: 'b.txt', data: new Uint8Array([1]) }]));
    expect(await extractAll(onDisk(good))).toEqual(new Map([['plan.dxf', Buffer.from(text)], ['b.txt', Buffer.from([1])]]));
    // the CRC-32 of plan.dxf in both headers, off by one bit
    const badCrc = Buffer.from(good);
    for (let p = 0; p < badCrc.length - 4; p++) {
      if (badCrc.readUInt32LE(p) === 0x04034b50) badCrc[p + 14] ^= 1;
      if (badCrc.readUInt32LE(p) === 0x02014b50) badCrc[p + 16] ^= 1;
    }
    expect(await kindOf(extractAll(onDisk(badCrc)))).toBe('damaged');
    // the deflate stream itself garbled (after the local header and name)
    const garbled = Buffer.from(good);
    garbled.fill(0xff, 30 + 'plan.dxf'.length + 10, 30 + 'plan.dxf'.length + 40);
    expect(await kindOf(extractAll(onDisk(garbled)))).toBe('damaged');
  });

  it('stops when the signal aborts (cancelled)', async () => {
    const file = onDisk(await makeZip([{ name: 'a', data: randomBytes(3_000_000) }, { name: 'b', data: randomBytes(10) }], { level: 0 }));
    const ac = new AbortController();
    const p = zipReader.extract(file, {
      limits: DEFAULT_UNZIP_LIMITS,
      signal: ac.signal,
      async onEntry(_e, data) {
        ac.abort();
        await readAll(data);
      },
    });
    expect(await kindOf(p)).toBe('cancelled');
  });

  it('a 200 MB entry streams through without holding it in memory', async () => {
    const chunk = randomBytes(1 << 20);
    const big = new Uint8Array(200 << 20);
    for (let i = 0; i < 200; i++) big.set(chunk, i << 20);
    const file = onDisk(await makeZip([{ name: 'big.bin', data: big }], { level: 0 }));
    let size = 0;
    const before = process.memoryUsage().rss;
    let peak = before;
    await zipReader.extract(file, {
      limits: DEFAULT_UNZIP_LIMITS,
      signal: new AbortController().signal,
      async onEntry(_e, data) {
        for await (const c of data) {
          size += (c as Buffer).length;
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      },
    });
    expect(size).toBe(200 << 20);
    expect(peak - before).toBeLessThan(150 << 20);
  }, 60_000);
});
