import { createReadStream, promises as fsp, type promises } from 'node:fs';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { Reader, ZipReader, ERR_ABORTED, ERR_ENCRYPTED, ERR_EOCDR_NOT_FOUND, ERR_INVALID_PASSWORD, ERR_INVALID_UNCOMPRESSED_SIZE, ERR_INVALID_CRC32, ERR_INVALID_COMPRESSED_DATA, ERR_INVALID_AUTHENTICATION_CODE, type Entry, type FileEntry } from '@zip.js/zip.js';
import { ArchiveError, type ArchiveReader, type ExtractOptions } from './archive-reader.ts';
import { sevenZipReader } from './sevenzip-reader.ts';
import { archiveCodePage, classifyEntry, listZip, type ListedEntry } from './zip-listing.ts';
import { MINI_ZIP_ENTRY, needsSevenZip, withMiniZip } from './zip-methods.ts';

/**
 * zip archives through zip.js (issue 18 part 1): stored, deflate, ZipCrypto and AES, zip64. The archive is a local
 * file read by ranges (never whole in memory); each entry streams out to the caller with its bytes counted, so a
 * header that lies about its size, or an archive that unpacks past the operator's total, stops with 'limit'; entries
 * that share their bytes (an overlapping zip bomb: thousands of names for one deflate stream) are refused as damaged.
 */

/** A local file read by ranges: zip.js asks for the central directory, then each entry's bytes. */
export class FileRangeReader extends Reader<string> {
  private handle?: promises.FileHandle;
  constructor(private readonly file: string) {
    super(file);
  }
  override async init() {
    // zip.js may initialise a reader once per pass over the entries
    if (this.handle) return;
    this.handle = await fsp.open(this.file, 'r');
    this.size = (await this.handle.stat()).size;
  }
  override async readUint8Array(index: number, length: number): Promise<Uint8Array> {
    const len = Math.max(0, Math.min(length, this.size - index));
    const buf = new Uint8Array(len);
    let done = 0;
    while (done < len) {
      const { bytesRead } = await this.handle!.read(buf, done, len - done, index + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === len ? buf : buf.subarray(0, done);
  }
  async close() {
    await this.handle?.close();
    this.handle = undefined;
  }
}

const OPTIONS = { filenameValidation: 'tolerant', useWebWorkers: false } as const;

/** zip.js's failures as the task names them. */
export function zipError(e: unknown, o: { encrypted?: boolean } = {}): ArchiveError {
  if (e instanceof ArchiveError) return e;
  const msg = (e as Error)?.message ?? String(e);
  const name = (e as Error)?.name;
  if (name === 'AbortError' || msg === ERR_ABORTED) return new ArchiveError('cancelled', msg);
  if (msg === ERR_INVALID_PASSWORD) return new ArchiveError('wrong-password', msg);
  if (msg === ERR_ENCRYPTED) return new ArchiveError('password-required', msg);
  if (msg === ERR_EOCDR_NOT_FOUND) return new ArchiveError('not-archive', msg);
  // more bytes than the header said: a lying header (the counting below usually stops it first)
  if (msg === ERR_INVALID_UNCOMPRESSED_SIZE) return new ArchiveError('limit', msg);
  // ZipCrypto checks one byte of the password: a wrong one passes 1 time in 256 and then fails the CRC
  if (msg === ERR_INVALID_CRC32 && o.encrypted) return new ArchiveError('wrong-password', msg);
  return new ArchiveError('damaged', msg);
}

async function withZip<T>(file: string, fn: (zip: ZipReader<unknown>) => Promise<T>): Promise<T> {
  const reader = new FileRangeReader(file);
  const zip = new ZipReader(reader, OPTIONS);
  try {
    return await fn(zip);
  } finally {
    await zip.close().catch(() => undefined);
    await reader.close();
  }
}

/**
 * The password as zip.js takes it: ZipCrypto's as UTF-8 bytes, as 7-Zip (which unpacks the other methods here) and
 * Info-ZIP use them (zip.js by itself keys ZipCrypto with each UTF-16 unit's low byte: a Chinese password never opens);
 * AES's zip.js encodes as UTF-8 itself.
 */
function passwordFor(entry: FileEntry, password: string | undefined): { password?: string; rawPassword?: Uint8Array } {
  if (password === undefined || !entry.zipCrypto) return { password };
  return { rawPassword: new TextEncoder().encode(password) };
}

/** What `onEntry` threw, kept apart from zip.js's errors so it reaches the caller unchanged. */
class ConsumerFailure {
  constructor(readonly cause: unknown) {}
}

const isFile = (e: Entry): e is FileEntry => !e.directory;

/** zlib's CRC-32 (Node 20.15 and later); without it every entry goes through zip.js. */
const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
const LOCAL_HEADER = 0x04034b50;

/**
 * Where each entry's local header starts, and the next one after it (or the end of the file): the bytes an entry may
 * read. Undefined when two entries start at the same place or one's data cannot fit before the next (an
 * overlapping zip bomb): then all go through zip.js, whose overlap check refuses them.
 */
async function entrySpans(zip: ZipReader<unknown>, fileSize: number, maxEntries: number): Promise<Map<number, number> | undefined> {
  const starts: { offset: number; least: number }[] = [];
  for await (const e of zip.getEntriesGenerator()) {
    if (starts.length >= maxEntries) break;
    starts.push({ offset: e.offset, least: e.offset + 30 + e.rawFilename.length + e.compressedSize });
  }
  starts.sort((a, b) => a.offset - b.offset);
  const next = new Map<number, number>();
  for (let i = 0; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1].offset : fileSize;
    if (end === starts[i].offset || starts[i].least > end) return undefined;
    next.set(starts[i].offset, end);
  }
  return next;
}

/**
 * A stored or deflated entry without encryption, read straight from the file through zlib (issue 18 bench: zip.js's
 * web streams cost twice the CPU of the inflating itself), its CRC-32 checked as zip.js would. The bytes go to `sink`
 * (the same counting writer as zip.js's), so limits and a lying header stop it the same way.
 */
async function inflateDirect(file: string, fh: promises.FileHandle, entry: FileEntry, spanEnd: number, sink: WritableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
  const head = Buffer.alloc(30);
  await fh.read(head, 0, 30, entry.offset);
  if (head.readUInt32LE(0) !== LOCAL_HEADER) throw new ArchiveError('damaged', 'local header missing');
  const start = entry.offset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (start + entry.compressedSize > spanEnd) throw new ArchiveError('damaged', 'entry overlaps the next');
  const writer = sink.getWriter();
  let crc = 0;
  let size = 0;
  const source = entry.compressedSize ? createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark: 1 << 20 }) : Readable.from([]);
  const consume = async function (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      crc = crc32!(chunk, crc);
      size += chunk.length;
      await writer.write(chunk);
    }
  };
  if ((entry as { compressionMethod?: number }).compressionMethod === 8) await pipeline(source, zlib.createInflateRaw({ chunkSize: 1 << 20 }), consume, { signal });
  else await pipeline(source, consume, { signal });
  if (size !== entry.uncompressedSize || (entry.signature ?? 0) >>> 0 !== crc >>> 0) throw new ArchiveError('damaged', `entry ${entry.filename} does not check`);
  await writer.close();
}

export interface ZipReaderOptions {
  /** where one-entry zips for 7-Zip and its unpacked files go; default the OS temp folder */
  tempDir?: string;
}

export const zipReader: ArchiveReader = createZipReader();

export function createZipReader(options: ZipReaderOptions = {}): ArchiveReader {
  const sevenZip = sevenZipReader('zip', { tempDir: options.tempDir });

  /** One entry of a method zip.js cannot decode, through 7-Zip, handed on as zip.js's entries are: counted, cancellable. */
  async function extractWithSevenZip(file: string, entry: FileEntry, listed: ListedEntry, o: ExtractOptions, counter: { total: number }) {
    const declared = entry.uncompressedSize;
    try {
      await withMiniZip(file, entry, options.tempDir, (mini) =>
        sevenZip.extract(mini, {
          password: o.password ?? '',
          limits: o.limits,
          signal: o.signal,
          async onEntry(_inner, data) {
            let seen = 0;
            let over: ArchiveError | undefined;
            const counted = new Transform({
              highWaterMark: 1 << 20,
              transform(chunk: Buffer, _enc, cb) {
                seen += chunk.length;
                counter.total += chunk.length;
                if (seen > declared) over = new ArchiveError('limit', `entry ${listed.originalName} gives more than its ${declared} bytes`);
                else if (counter.total > o.limits.maxTotalBytes) over = new ArchiveError('limit', 'archive over the total size limit', { kind: 'total-size', limit: o.limits.maxTotalBytes, actual: counter.total });
                cb(over, over ? undefined : chunk);
              },
            });
            data.once('error', (e) => counted.destroy(e));
            data.pipe(counted);
            try {
              await o.onEntry(listed, counted);
            } catch (e) {
              throw over ?? new ConsumerFailure(e);
            } finally {
              data.unpipe(counted);
              data.destroy();
              counted.destroy();
            }
            if (over) throw over;
          },
        }),
      );
    } catch (e) {
      // 7-Zip's messages name the entry as the one-entry zip does
      if (e instanceof ArchiveError) throw new ArchiveError(e.kind, e.message.replaceAll(MINI_ZIP_ENTRY, listed.originalName), e.limit);
      throw e;
    }
    // cancelled while the entry was handed on: the entry counts as not done, as a deflate entry's
    if (o.signal.aborted) throw new ArchiveError('cancelled');
  }

  return {
    format: 'zip',

    async list(file, o) {
      const reader = new FileRangeReader(file);
      try {
        const listing = await listZip(reader, o.limits, o.language);
        return { format: 'zip', ...listing };
      } catch (e) {
        throw zipError(e);
      } finally {
        await reader.close();
      }
    },

    async checkPassword(file, password) {
      try {
        return await withZip(file, async (zip) => {
          // the smallest encrypted file: ZipCrypto's check byte lets a wrong password through 1 time in 256 (AES's
          // verifier 1 in 65,536), so the entry is decrypted and inflated whole and its CRC checked
          let smallest: FileEntry | undefined;
          for await (const entry of zip.getEntriesGenerator()) {
            if (isFile(entry) && entry.encrypted && (!smallest || entry.uncompressedSize < smallest.uncompressedSize)) smallest = entry;
          }
          if (!smallest) return true;
          if (needsSevenZip(smallest)) return await withMiniZip(file, smallest, options.tempDir, (mini) => sevenZip.checkPassword(mini, password));
          try {
            await smallest.getData(new WritableStream(), { ...passwordFor(smallest, password), checkCrc32: true });
            return true;
          } catch (e) {
            const msg = (e as Error).message;
            if ([ERR_INVALID_PASSWORD, ERR_INVALID_CRC32, ERR_INVALID_COMPRESSED_DATA, ERR_INVALID_AUTHENTICATION_CODE, ERR_INVALID_UNCOMPRESSED_SIZE].includes(msg)) return false;
            throw e;
          }
        });
      } catch (e) {
        throw zipError(e);
      }
    },

    async extract(file, o: ExtractOptions) {
      const counter = { total: 0 };
      const fh = crc32 ? await fsp.open(file, 'r').catch(() => undefined) : undefined;
      try {
        await withZip(file, async (zip) => {
          const codePage = await archiveCodePage(zip, o.limits.maxEntries, o.language);
          const spans = fh ? await entrySpans(zip, (await fh.stat()).size, o.limits.maxEntries) : undefined;
          let count = 0;
          for await (const entry of zip.getEntriesGenerator()) {
            if (o.signal.aborted) throw new ArchiveError('cancelled');
            if (++count > o.limits.maxEntries) throw new ArchiveError('limit', 'too many entries', { kind: 'entries', limit: o.limits.maxEntries, actual: count });
            const c = classifyEntry(entry, codePage);
            if ('refused' in c || !isFile(entry)) continue;
            const listed = c.listed;
            if (needsSevenZip(entry)) {
              await extractWithSevenZip(file, entry, listed, o, counter);
              continue;
            }
            const declared = entry.uncompressedSize;
            let seen = 0;
            const out = new PassThrough({ highWaterMark: 1 << 20 });
            // the failure reaches the caller through `inflating`; a consumer that already stopped reading has no listener left
            out.on('error', () => undefined);
            // stops the inflating when the consumer fails or the task is cancelled
            const stop = new AbortController();
            const onAbort = () => stop.abort(new ArchiveError('cancelled'));
            o.signal.addEventListener('abort', onAbort, { once: true });
            const counted = new WritableStream<Uint8Array>({
              async write(chunk) {
                seen += chunk.byteLength;
                counter.total += chunk.byteLength;
                // a header that lies: no operator limit is named, the task calls the archive damaged
                if (seen > declared) throw new ArchiveError('limit', `entry ${listed.originalName} gives more than its ${declared} bytes`);
                if (counter.total > o.limits.maxTotalBytes) throw new ArchiveError('limit', 'archive over the total size limit', { kind: 'total-size', limit: o.limits.maxTotalBytes, actual: counter.total });
                if (!out.write(chunk)) await new Promise<void>((resolve, reject) => {
                  const done = () => { out.off('drain', done); out.off('close', closed); resolve(); };
                  const closed = () => { out.off('drain', done); reject(new ArchiveError('cancelled', 'consumer closed')); };
                  out.once('drain', done);
                  out.once('close', closed);
                });
              },
              close() {
                out.end();
              },
            });
            const method = (entry as { compressionMethod?: number }).compressionMethod;
            const spanEnd = spans?.get(entry.offset);
            const direct = fh && spanEnd !== undefined && !entry.encrypted && (method === 0 || method === 8);
            const inflating = (direct ? inflateDirect(file, fh, entry, spanEnd, counted, stop.signal) : entry.getData(counted, { ...passwordFor(entry, o.password), signal: stop.signal, checkCrc32: true, checkOverlappingEntry: true }))
              .catch((e) => {
                const err = e instanceof ArchiveError ? e : zipError(stop.signal.aborted && stop.signal.reason instanceof ArchiveError ? stop.signal.reason : e, { encrypted: entry.encrypted });
                out.destroy(err);
                throw err;
              });
            let skipped = false;
            const consuming = o.onEntry(listed, out).then(
              () => {
                // the caller left the bytes unread (a resumed task that stored this entry before): not inflated further
                if (!out.readableEnded) {
                  skipped = true;
                  stop.abort(new ArchiveError('cancelled', 'skipped'));
                  out.destroy();
                }
              },
              (e) => {
                stop.abort(e);
                throw new ConsumerFailure(e);
              },
            );
            try {
              const [a, b] = await Promise.allSettled([inflating, consuming]);
              // the caller's own failure (storage, a database) goes back to it as it was
              if (b.status === 'rejected') throw b.reason;
              if (a.status === 'rejected' && !skipped) throw a.reason;
            } finally {
              o.signal.removeEventListener('abort', onAbort);
            }
          }
        });
      } catch (e) {
        if (e instanceof ConsumerFailure) throw e.cause;
        if (o.signal.aborted) throw new ArchiveError('cancelled');
        throw zipError(e);
      } finally {
        await fh?.close();
      }
    },
  };
}
