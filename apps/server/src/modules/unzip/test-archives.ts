import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import SevenZip from '7z-wasm';
import { ArchiveError } from './archive-reader.ts';

/**
 * Test helper: zips written in the test with zip.js's own writer (issue 18: archives generated in the test), and the
 * byte patches that make them hostile.
 */
export interface TestEntry {
  name: string;
  /** null: a folder entry */
  data: Uint8Array | null;
}

export interface TestZipOptions {
  password?: string;
  /** ZipCrypto instead of AES */
  zipCrypto?: boolean;
  /** 1 AES-128, 3 AES-256 */
  encryptionStrength?: 1 | 2 | 3;
  /** 0: stored */
  level?: number;
  /** names written in GBK without the UTF-8 flag, as Chinese Windows does */
  gbkNames?: boolean;
  zip64?: boolean;
}

let gbkTable: Map<string, number[]> | undefined;
/** GBK bytes of a text: Node has a GBK decoder but no encoder, so the table is the decoder's, reversed. */
export function gbkEncode(text: string): Uint8Array {
  if (!gbkTable) {
    gbkTable = new Map();
    const dec = new TextDecoder('gbk');
    for (let a = 0x81; a <= 0xfe; a++)
      for (let b = 0x40; b <= 0xfe; b++) {
        if (b === 0x7f) continue;
        const ch = dec.decode(new Uint8Array([a, b]));
        if (ch.length === 1 && !gbkTable.has(ch)) gbkTable.set(ch, [a, b]);
      }
  }
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else {
      const bytes = gbkTable.get(ch);
      if (!bytes) throw new Error(`no GBK for ${ch}`);
      out.push(...bytes);
    }
  }
  return new Uint8Array(out);
}

export async function makeZip(entries: TestEntry[], o: TestZipOptions = {}): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), {
    useWebWorkers: false,
    // a ZipCrypto password as UTF-8 bytes, as 7-Zip and Info-ZIP write it (zip.js alone would take each UTF-16 unit's low byte)
    ...(o.password && o.zipCrypto ? { rawPassword: new TextEncoder().encode(o.password), zipCrypto: true } : {}),
    ...(o.password && !o.zipCrypto ? { password: o.password, encryptionStrength: o.encryptionStrength ?? 3 } : {}),
    ...(o.level !== undefined ? { level: o.level } : {}),
    ...(o.gbkNames ? { useUnicodeFileNames: false, encodeText: (t: string) => gbkEncode(t) } : {}),
    ...(o.zip64 ? { zip64: true } : {}),
  });
  for (const e of entries) {
    if (e.data === null) await writer.add(e.name, undefined, { directory: true });
    else await writer.add(e.name, new Uint8ArrayReader(e.data));
  }
  return writer.close();
}

/** 7-Zip's `a` (or any command) in WebAssembly, in `cwd` (or its folder `sub`). */
export async function sevenZip(cwd: string, args: string[], sub?: string): Promise<void> {
  let out = '';
  const print = (c: number) => void (out += String.fromCharCode(c & 0xff));
  const sz = await SevenZip({ stdout: print, stderr: print, stdin: (() => null) as unknown as () => number });
  sz.FS.mkdir('/w');
  sz.FS.mount(sz.NODEFS, { root: cwd }, '/w');
  sz.FS.chdir(sub ? `/w/${sub}` : '/w');
  const code = sz.callMain(args) as unknown as number;
  if (code) throw new Error(`7-Zip ${args.join(' ')} exit ${code}: ${out}`);
}

/**
 * An archive of `entries` made by 7-Zip itself from a tree written to a temp folder: a 7z (with a password, and
 * encrypted headers: `-mhe`), a tar, or a tar.gz (the tar gzipped).
 */
export async function makeWith7Zip(entries: TestEntry[], type: '7z' | 'tar' | 'tar.gz', o: { password?: string; encryptHeaders?: boolean } = {}): Promise<Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-7z-'));
  try {
    const tree = path.join(dir, 'tree');
    mkdirSync(tree);
    for (const e of entries) {
      const target = path.join(tree, ...e.name.replace(/\/$/, '').split('/'));
      if (e.data === null) mkdirSync(target, { recursive: true });
      else {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, e.data);
      }
    }
    const file = type === '7z' ? 'out.7z' : 'out.tar';
    const secret = o.password ? [`-p${o.password}`, ...(o.encryptHeaders ? ['-mhe=on'] : [])] : [];
    // from inside the tree: the entries' paths start below it
    await sevenZip(dir, ['a', `-t${type === '7z' ? '7z' : 'tar'}`, ...secret, `../${file}`, '.'], 'tree');
    const bytes = readFileSync(path.join(dir, file));
    return type === 'tar.gz' ? gzipSync(bytes) : bytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sets every header's uncompressed size of the entry named `name` (local and central) to `size`: a header that lies. */
export function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const b = Buffer.from(zip);
  const n = Buffer.from(name);
  for (let p = 0; p < b.length - 4; p++) {
    const sig = b.readUInt32LE(p);
    if (sig === 0x04034b50 && b.subarray(p + 30, p + 30 + n.length).equals(n) && b.readUInt16LE(p + 26) === n.length) b.writeUInt32LE(size, p + 22);
    if (sig === 0x02014b50 && b.subarray(p + 46, p + 46 + n.length).equals(n) && b.readUInt16LE(p + 28) === n.length) b.writeUInt32LE(size, p + 24);
  }
  return new Uint8Array(b);
}

/** One entry of `rawZip`. */
export interface RawEntry {
  name: Uint8Array | string;
  data?: Uint8Array;
  utf8Flag?: boolean;
  /** high byte of "version made by": 0 DOS, 3 Unix (set by unixMode) */
  host?: number;
  /** the entry's Unix mode in the external attributes (host Unix) */
  unixMode?: number;
  /** what the central directory claims, whatever the data is */
  claimUncompressed?: number;
}

/**
 * A stored zip written byte by byte, for what no well-behaved writer makes: a name of raw GBK without the UTF-8 flag,
 * "../x", "C:\\x", a symlink, a header that lies about sizes, more than 65,535 entries (zip64 end record).
 */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : Buffer.from(e.name);
    const data = Buffer.from(e.data ?? new Uint8Array());
    const crc = crc32(data);
    const flags = e.utf8Flag ? 0x0800 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(((e.host ?? (e.unixMode ? 3 : 0)) << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(e.claimUncompressed ?? data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const n16 = Math.min(entries.length, 0xffff);
  end.writeUInt16LE(n16, 8);
  end.writeUInt16LE(n16, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  if (entries.length < 0xffff) return new Uint8Array(Buffer.concat([...locals, cd, end]));
  // more entries than 16 bits count: the zip64 end record and its locator say how many
  const z = Buffer.alloc(56);
  z.writeUInt32LE(0x06064b50, 0);
  z.writeBigUInt64LE(44n, 4);
  z.writeUInt16LE(45, 12);
  z.writeUInt16LE(45, 14);
  z.writeBigUInt64LE(BigInt(entries.length), 24);
  z.writeBigUInt64LE(BigInt(entries.length), 32);
  z.writeBigUInt64LE(BigInt(cd.length), 40);
  z.writeBigUInt64LE(BigInt(offset), 48);
  const loc = Buffer.alloc(20);
  loc.writeUInt32LE(0x07064b50, 0);
  loc.writeBigUInt64LE(BigInt(offset + cd.length), 8);
  loc.writeUInt32LE(1, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, z, loc, end]));
}

/**
 * An overlapping zip bomb's trick: the one entry's central record repeated under other names, all pointing to the
 * same local entry (every name unpacks the same bytes again).
 */
export function overlapping(zip: Uint8Array, copies: number): Uint8Array {
  const b = Buffer.from(zip);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cdOffset = b.readUInt32LE(eocd + 16);
  const cd = b.subarray(cdOffset, eocd);
  const nameLen = cd.readUInt16LE(28);
  const records = [cd];
  for (let i = 1; i <= copies; i++) {
    const r = Buffer.from(cd);
    const tag = Buffer.from(String(i).padStart(Math.min(nameLen, 6), '0').slice(-nameLen));
    tag.copy(r, 46);
    records.push(r);
  }
  const newCd = Buffer.concat(records);
  const end = Buffer.from(b.subarray(eocd, eocd + 22));
  end.writeUInt16LE(copies + 1, 8);
  end.writeUInt16LE(copies + 1, 10);
  end.writeUInt32LE(newCd.length, 12);
  return new Uint8Array(Buffer.concat([b.subarray(0, cdOffset), newCd, end]));
}

/** All of an entry's bytes, as a reader hands them on. */
export async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** 'ok', or the kind of the ArchiveError a reader's call ended with. */
export async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!(e instanceof ArchiveError)) throw e;
    return e.kind;
  }
}

/**
 * A zip whose one entry says in both headers it unpacks to `claim` bytes: deflated zeros (a bomb), or `stored` bytes as
 * they are. Over 4 GiB the sizes go in zip64 extra fields, as a real 10 GB entry's would.
 */
export function claiming(claim: number, realBytes: number, stored?: Buffer): Uint8Array {
  const data = stored ?? deflateRawSync(Buffer.alloc(realBytes));
  const name = Buffer.from('zeros.bin');
  const zip64 = claim > 0xfffffffe;
  const localExtra = Buffer.alloc(zip64 ? 20 : 0);
  const centralExtra = Buffer.alloc(zip64 ? 12 : 0);
  if (zip64) {
    localExtra.writeUInt16LE(1, 0);
    localExtra.writeUInt16LE(16, 2);
    localExtra.writeBigUInt64LE(BigInt(claim), 4);
    localExtra.writeBigUInt64LE(BigInt(data.length), 12);
    centralExtra.writeUInt16LE(1, 0);
    centralExtra.writeUInt16LE(8, 2);
    centralExtra.writeBigUInt64LE(BigInt(claim), 4);
  }
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(zip64 ? 45 : 20, 4);
  local.writeUInt16LE(stored ? 0 : 8, 8);
  local.writeUInt32LE(zip64 ? 0xffffffff : data.length, 18);
  local.writeUInt32LE(zip64 ? 0xffffffff : claim, 22);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt16LE(localExtra.length, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(zip64 ? 45 : 20, 6);
  central.writeUInt16LE(stored ? 0 : 8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(zip64 ? 0xffffffff : claim, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt16LE(centralExtra.length, 30);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length + centralExtra.length, 12);
  end.writeUInt32LE(30 + name.length + localExtra.length + data.length, 16);
  return new Uint8Array(Buffer.concat([local, name, localExtra, data, central, name, centralExtra, end]));
}
