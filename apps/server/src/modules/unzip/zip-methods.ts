import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { instanceTempName } from '../../infra/instance.ts';
import { pipeline } from 'node:stream/promises';
import type { FileEntry } from '@zip.js/zip.js';
import { ArchiveError } from './archive-reader.ts';

/**
 * zip entries whose compression zip.js cannot decode (issue 18 part 1): bzip2 (12), LZMA (14), zstd (93), xz (95),
 * PPMd (98), also inside ZipCrypto or AES (method 99, the real method in the 0x9901 extra field, which zip.js
 * reports as the entry's `compressionMethod`). 7-Zip decodes them all but garbles GBK names in zips, so zip.js still
 * lists and names every entry; such an entry alone is copied, raw (still compressed and encrypted), into a one-entry
 * zip under a plain ASCII name, which 7-Zip then unpacks (zip-reader.ts).
 */

/** what zip.js inflates itself: stored, deflate and deflate64 (its own WebAssembly inflater) */
const ZIPJS_METHODS = new Set([0, 8, 9]);

export const needsSevenZip = (entry: FileEntry): boolean => !ZIPJS_METHODS.has(entry.compressionMethod ?? 0);

/** the one entry's name in the one-entry zip (7-Zip's messages name it so) */
export const MINI_ZIP_ENTRY = 'entry.bin';
const NAME = Buffer.from(MINI_ZIP_ENTRY);
const LOCAL_SIG = 0x04034b50;
const U32 = 0xffffffff;

/** The extra fields that matter to a decoder: AES's 0x9901 (strength, real method). Others (zip64, names) are dropped. */
function keptExtra(extra: Buffer): Buffer {
  const kept: Buffer[] = [];
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 0x9901) kept.push(extra.subarray(i, i + 4 + len));
    i += 4 + len;
  }
  return Buffer.concat(kept);
}

/**
 * The one-entry zip of `entry` (local header, its bytes as stored, a data descriptor when the entry has one, the
 * central directory record and the end record), written to `target`. Flags, method, times, CRC, sizes and the AES
 * field are kept (ZipCrypto checks its password byte against the CRC or, with a data descriptor, the time); sizes
 * from 4 GiB on go into zip64 fields.
 */
export async function writeMiniZip(archive: string, entry: FileEntry, target: string): Promise<void> {
  const offset = entry.offset ?? 0;
  const h = await open(archive, 'r');
  let header: Buffer;
  let extra: Buffer;
  let dataStart: number;
  try {
    header = Buffer.alloc(30);
    const { bytesRead } = await h.read(header, 0, 30, offset);
    if (bytesRead < 30 || header.readUInt32LE(0) !== LOCAL_SIG) throw new ArchiveError('damaged', `no local header for ${entry.filename}`);
    const nameLen = header.readUInt16LE(26);
    const extraLen = header.readUInt16LE(28);
    extra = Buffer.alloc(extraLen);
    await h.read(extra, 0, extraLen, offset + 30 + nameLen);
    dataStart = offset + 30 + nameLen + extraLen;
    const size = (await h.stat()).size;
    if (dataStart + entry.compressedSize > size) throw new ArchiveError('damaged', `${entry.filename} runs past the end of the archive`);
  } finally {
    await h.close();
  }
  const flags = header.readUInt16LE(6) & ~0x0800;
  const method = header.readUInt16LE(8);
  const time = header.readUInt16LE(10);
  const date = header.readUInt16LE(12);
  const crc = entry.signature ?? header.readUInt32LE(14);
  const csize = entry.compressedSize;
  const usize = entry.uncompressedSize;
  const zip64 = csize >= U32 || usize >= U32;
  const aes = keptExtra(extra);
  // zip64: both sizes in the extra field (the local header's offset, 0, fits the central record as it is)
  const z64 = Buffer.alloc(zip64 ? 20 : 0);
  if (zip64) {
    z64.writeUInt16LE(0x0001, 0);
    z64.writeUInt16LE(16, 2);
    z64.writeBigUInt64LE(BigInt(usize), 4);
    z64.writeBigUInt64LE(BigInt(csize), 12);
  }
  const needed = Math.max(header.readUInt16LE(4), zip64 ? 45 : 20);

  // the same extra fields in the local header and the central record
  const extraField = Buffer.concat([z64, aes]);
  /** the fields the local header (from byte 4) and the central record (from byte 6) share, in the same order */
  const shared = (b: Buffer, at: number) => {
    b.writeUInt16LE(needed, at);
    b.writeUInt16LE(flags, at + 2);
    b.writeUInt16LE(method, at + 4);
    b.writeUInt16LE(time, at + 6);
    b.writeUInt16LE(date, at + 8);
    b.writeUInt32LE(crc >>> 0, at + 10);
    b.writeUInt32LE(zip64 ? U32 : csize, at + 14);
    b.writeUInt32LE(zip64 ? U32 : usize, at + 18);
    b.writeUInt16LE(NAME.length, at + 22);
    b.writeUInt16LE(extraField.length, at + 24);
    return b;
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(LOCAL_SIG, 0);
  shared(local, 4);

  // bit 3: the sizes and CRC follow the data (ZipCrypto then checks its password byte against the time)
  let descriptor = Buffer.alloc(0);
  if (flags & 0x0008) {
    descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(csize), 8);
      descriptor.writeBigUInt64LE(BigInt(usize), 16);
    } else {
      descriptor.writeUInt32LE(csize, 8);
      descriptor.writeUInt32LE(usize, 12);
    }
  }

  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(63, 4);
  shared(central, 6);
  // comment, disk, attributes and the local header's offset: all 0

  const cdOffset = local.length + NAME.length + extraField.length + csize + descriptor.length;
  // 7-Zip in WebAssembly reads no archive of 2 GiB or more: the 32-bit end record always suffices
  if (cdOffset >= U32) throw new ArchiveError('unsupported', `${entry.filename} is too large for 7-Zip`);
  const cd = Buffer.concat([central, NAME, extraField]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(cdOffset, 16);

  const out = createWriteStream(target);
  const head = Buffer.concat([local, NAME, extraField]);
  const tail = Buffer.concat([descriptor, cd, end]);
  await pipeline(
    async function* () {
      yield head;
      if (csize > 0) yield* createReadStream(archive, { start: dataStart, end: dataStart + csize - 1, highWaterMark: 1 << 20 });
      yield tail;
    },
    out,
  );
}

/** Runs `body` on the one-entry zip of `entry`, made in a folder of its own under `tempDir` and deleted after. */
export async function withMiniZip<T>(archive: string, entry: FileEntry, tempDir: string | undefined, body: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tempDir ?? os.tmpdir(), instanceTempName('-', 'unzip1')));
  try {
    const file = path.join(dir, 'entry.zip');
    await writeMiniZip(archive, entry, file);
    return await body(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
