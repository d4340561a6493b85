import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { instanceTempName } from '../../infra/instance.ts';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { workerEntry } from '../../infra/workers/worker-entry.ts';
import { ArchiveError, type ArchiveListing, type ArchiveReader, type ExtractOptions } from './archive-reader.ts';
import type { SevenZipJob, SevenZipMessage } from './sevenzip.worker.ts';
import { applyTotalLimits, checkEntryPath, cleanEntryPath, RATIO_CHECK_MIN_BYTES, type ListedEntry, type UnzipLimits } from './zip-listing.ts';

const WORKER = workerEntry(path.join(import.meta.dirname, 'sevenzip.worker.ts'), 'sevenzip.worker');

/**
 * 7z, rar (4 and 5) and tar / tar.gz, read by 7-Zip 24.09 in WebAssembly (7z-wasm), one worker thread per command.
 *
 * - list: `l -slt`, the technical listing, parsed into the same entries and refusals as a zip's (zip-listing.ts).
 * - checkPassword: `t` of one encrypted file (the smallest that starts a solid block), or the header itself.
 * - extract: `x` into a local temp folder mounted into 7-Zip's file system, so bytes go to disk and never through
 *   memory; each file is handed on in listing order as soon as 7-Zip closed it, and deleted once consumed. 7-Zip's
 *   writes are counted in its thread and the folder is measured from here while it runs: past the limits the thread
 *   is terminated (a header that lies is caught by the bytes). Symbolic and hard links are refused in the listing
 *   and never created (the worker makes symlink creation fail; WASM 7-Zip has no hard links).
 *
 * 7-Zip always gets `-p<password>` (empty included) and `-y`, and its stdin is empty: nothing ever waits for input.
 * 7-Zip in WASM is 32-bit: an archive or an entry of 2 GiB or more is refused as 'unsupported'.
 * A .tar.gz is gunzipped here (zlib, bytes counted against the limits) into a temp .tar that 7-Zip reads: 7-Zip opens
 * gzip only as one inner file, not the tar in it.
 */
export interface SevenZipReaderOptions {
  /** where temp folders (extracted files, a gunzipped tar) are made; default the OS temp folder */
  tempDir?: string;
  /** longest a listing or a password check may take */
  listTimeoutMs?: number;
  /** longest a whole extraction may take */
  extractTimeoutMs?: number;
  /** JavaScript heap of the worker thread (7-Zip's WASM memory is separate and bounded by the dictionary check) */
  memoryMb?: number;
  /** largest dictionary (LZMA, RAR window) accepted: 7-Zip allocates it whole to unpack */
  maxDictionaryBytes?: number;
  /** how often the extraction folder is measured */
  pollMs?: number;
}

/** 'zip' only for one-entry zips of methods zip.js cannot decode (zip-methods.ts): 7-Zip garbles GBK names in zips */
export type SevenZipFormat = '7z' | 'rar' | 'tar' | 'zip';

const DEFAULTS: Required<Omit<SevenZipReaderOptions, 'tempDir'>> = {
  listTimeoutMs: 120_000,
  extractTimeoutMs: 2 * 3600_000,
  memoryMb: 128,
  maxDictionaryBytes: 1024 ** 3,
  pollMs: 200,
};

/** 32-bit 7-Zip: sizes from 2 GiB on overflow */
const MAX_WASM_FILE_BYTES = 2 ** 31 - 1;
/** a listing line per field, ~20 fields an entry: 64 MiB holds well over 100,000 entries */
const MAX_LISTING_OUTPUT = 64 * 1024 ** 2;
const MAX_OTHER_OUTPUT = 4 * 1024 ** 2;

export function sevenZipReader(format: SevenZipFormat, options: SevenZipReaderOptions = {}): ArchiveReader {
  const o = { ...DEFAULTS, ...options, tempDir: options.tempDir ?? os.tmpdir() };
  return {
    format,
    async list(file, { password = '', limits }) {
      return withSource(file, format, o.tempDir, limits, async (src) => {
        if (src.limitExceeded) return { format, entries: [], refused: [], encrypted: false, totalCompressed: src.compressedSize, totalUncompressed: src.limitExceeded.actual, limitExceeded: src.limitExceeded };
        return (await listSource(src, format, password, limits, o)).listing;
      });
    },
    async checkPassword(file, password) {
      // tar has no encryption: any password "opens" it, and nothing needs unpacking to say so
      if (format === 'tar') return true;
      const limits = { maxEntries: Number.MAX_SAFE_INTEGER, maxTotalBytes: Number.MAX_SAFE_INTEGER, maxRatio: Number.MAX_SAFE_INTEGER };
      return withSource(file, format, o.tempDir, limits, async (src) => {
        let listed: Listed;
        try {
          listed = await listSource(src, format, password, limits, o);
        } catch (e) {
          if (e instanceof ArchiveError && (e.kind === 'wrong-password' || e.kind === 'password-required')) return false;
          throw e;
        }
        const probe = passwordProbe(listed.items);
        if (!probe) return true;
        checkDictionary(listed.items, o.maxDictionaryBytes);
        const r = await run7z(
          { args: ['t', ...common(src, password), '-spd', '--', src.name, probe], mounts: { '/in': src.dir }, cwd: '/in', maxOutputBytes: MAX_OTHER_OUTPUT },
          { timeoutMs: o.listTimeoutMs, memoryMb: o.memoryMb },
        ).done;
        const err = failure(r, password);
        if (!err) return true;
        if (err.kind === 'wrong-password' || err.kind === 'password-required') return false;
        throw err;
      });
    },
    async extract(file, x) {
      if (x.signal.aborted) throw new ArchiveError('cancelled');
      await withSource(file, format, o.tempDir, x.limits, async (src) => {
        if (src.limitExceeded) throw new ArchiveError('limit', 'the archive unpacks to more than the limit', src.limitExceeded);
        const password = x.password ?? '';
        const listed = await listSource(src, format, password, x.limits, o, x.signal);
        if (listed.listing.limitExceeded) throw new ArchiveError('limit', undefined, listed.listing.limitExceeded);
        if (listed.listing.entries.some((e) => e.uncompressedSize > MAX_WASM_FILE_BYTES)) throw new ArchiveError('unsupported', 'entries of 2 GB or more cannot be unpacked');
        checkDictionary(listed.items, o.maxDictionaryBytes);
        if (x.signal.aborted) throw new ArchiveError('cancelled');
        await extractSource(src, password, listed, x, o);
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// running 7-Zip

interface RunResult {
  code: number;
  output: string;
}

interface Running {
  done: Promise<RunResult>;
  /** ends the thread now; `done` rejects with this error */
  stop(error: ArchiveError): void;
}

function run7z(job: SevenZipJob, o: { timeoutMs: number; memoryMb: number; signal?: AbortSignal; onClosed?(rel: string): void; onLimit?(what: string, bytes: number): ArchiveError }): Running {
  let stop!: (e: ArchiveError) => void;
  const done = new Promise<RunResult>((resolve, reject) => {
    const worker = new Worker(WORKER.script, {
      workerData: { ...WORKER.workerData, ...job },
      resourceLimits: { maxOldGenerationSizeMb: o.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    stop = (e) => finish(() => reject(e));
    const onAbort = () => stop(new ArchiveError('cancelled'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new ArchiveError('limit', `7-Zip took longer than ${Math.round(o.timeoutMs / 1000)} s`)), o.timeoutMs);
    worker.on('message', (m: SevenZipMessage) => {
      if (m.type === 'closed') o.onClosed?.(m.path);
      else if (m.type === 'done') finish(() => resolve({ code: m.code, output: Buffer.from(m.output).toString('utf8') }));
      else if (m.type === 'limit') stop(o.onLimit?.(m.what, m.bytes) ?? new ArchiveError('limit', m.what === 'output' ? 'the listing is too long' : 'the archive unpacks to more than the limit'));
      else stop(new ArchiveError(/memory|allocat/i.test(m.error) ? 'limit' : 'damaged', `7-Zip failed: ${m.error}`));
    });
    worker.once('error', (e: Error & { code?: string }) =>
      stop(new ArchiveError(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'limit' : 'damaged', e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `7-Zip needed more than ${o.memoryMb} MB` : `7-Zip failed: ${e.message}`)),
    );
    worker.once('exit', (code) => stop(new ArchiveError('damaged', `7-Zip's thread stopped (exit ${code})`)));
  });
  return { done, stop: (e) => stop(e) };
}

/** The switches of every command: the archive type, the password (always, so 7-Zip never asks), yes to all, UTF-8. */
function common(src: Source, password: string): string[] {
  return [`-t${src.type}`, `-p${password}`, '-y', '-sccUTF-8', '-bd'];
}

/** What went wrong, from 7-Zip's exit code and messages; undefined when it succeeded (1 is "warnings only"). */
function failure(r: RunResult, password: string): ArchiveError | undefined {
  if (r.code === 0 || r.code === 1) return undefined;
  const out = r.output;
  const errors = out
    .split('\n')
    .filter((l) => /ERROR|Error|Unexpected|Is not archive/.test(l))
    .slice(0, 5)
    .join('; ');
  if (/Can ?not open encrypted archive|Wrong password/i.test(out)) return new ArchiveError(password ? 'wrong-password' : 'password-required', errors);
  if (r.code === 8 || /Can't allocate|not enough memory/i.test(out)) return new ArchiveError('limit', `7-Zip needs more memory: ${errors}`);
  if (/Unsupported Method|Unsupported feature/i.test(out)) return new ArchiveError('unsupported', errors);
  if (/Is not archive/i.test(out) && !/Unexpected end/i.test(out)) return new ArchiveError('not-archive', errors);
  return new ArchiveError('damaged', errors || `7-Zip exit ${r.code}`);
}

// ---------------------------------------------------------------------------------------------------------------
// the archive as 7-Zip reads it

interface Source {
  /** folder mounted at /in, and the archive's name in it */
  dir: string;
  name: string;
  type: '7z' | 'rar' | 'rar5' | 'tar' | 'zip';
  /** size of the archive as stored (of the .gz for a tar.gz) */
  compressedSize: number;
  gzipped: boolean;
  limitExceeded?: { kind: 'total-size'; limit: number; actual: number };
}

async function readHead(file: string, n: number): Promise<Buffer> {
  const h = await open(file, 'r');
  try {
    const b = Buffer.alloc(n);
    const { bytesRead } = await h.read(b, 0, n, 0);
    return b.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

/** Runs `body` on the archive as 7-Zip will read it: the file itself, or the tar inside a .tar.gz (deleted after). */
async function withSource<T>(file: string, format: SevenZipFormat, tempDir: string, limits: UnzipLimits, body: (src: Source) => Promise<T>): Promise<T> {
  const st = await stat(file);
  if (st.size > MAX_WASM_FILE_BYTES) throw new ArchiveError('unsupported', 'archives of 2 GB or more are not supported for this format');
  const head = await readHead(file, 8);
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  if (format !== 'tar' || !gzipped) {
    // RAR 5 starts "Rar!\x1a\x07\x01\x00"; 7-Zip names it a type of its own
    const type = format === 'rar' ? (head[6] === 1 ? 'rar5' : 'rar') : format;
    return body({ dir: path.dirname(path.resolve(file)), name: path.basename(file), type, compressedSize: st.size, gzipped: false });
  }
  const dir = await mkdtemp(path.join(tempDir, instanceTempName('-', 'untgz')));
  try {
    // the tar is the files plus a 512-byte header (and padding) each: past this, the files are over the limit
    const most = limits.maxTotalBytes + Math.min(limits.maxEntries, 10_000_000) * 1024 + 1024 * 1024;
    let bytes = 0;
    let over = false;
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        if (bytes > most) {
          over = true;
          cb(new Error('over'));
        } else cb(null, chunk);
      },
    });
    try {
      await pipeline(createReadStream(file), createGunzip(), count, createWriteStream(path.join(dir, 'archive.tar')));
    } catch (e) {
      if (!over) throw new ArchiveError('damaged', `gzip: ${(e as Error).message}`);
    }
    const src: Source = { dir, name: 'archive.tar', type: 'tar', compressedSize: st.size, gzipped: true };
    if (over) src.limitExceeded = { kind: 'total-size', limit: limits.maxTotalBytes, actual: bytes };
    else if ((await stat(path.join(dir, 'archive.tar'))).size > MAX_WASM_FILE_BYTES) throw new ArchiveError('unsupported', 'archives of 2 GB or more are not supported for this format');
    return await body(src);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// listing

type Item = Record<string, string>;

interface Listed {
  listing: ArchiveListing;
  items: Item[];
  /** the listing's entries that are files, each with the path 7-Zip writes it to (relative, '/'-separated) */
  files: { entry: ListedEntry; rel: string }[];
}

/** `l -slt` output: the archive's block (after "--") and one block per item (after "----------"). */
export function parseTechnicalListing(out: string): { archive: Item; items: Item[] } {
  const lines = out.split(/\r?\n/);
  const archive: Item = {};
  const items: Item[] = [];
  let section: 'head' | 'archive' | 'items' = 'head';
  let current: Item | undefined;
  for (const line of lines) {
    if (section === 'head') {
      if (line === '--') section = 'archive';
      continue;
    }
    if (line === '----------') {
      section = 'items';
      continue;
    }
    const eq = line.indexOf(' = ');
    const key = eq > 0 ? line.slice(0, eq) : line.endsWith(' =') ? line.slice(0, -2) : undefined;
    if (section === 'archive') {
      if (key !== undefined) archive[key] = eq > 0 ? line.slice(eq + 3) : '';
      continue;
    }
    if (key === undefined) {
      current = undefined;
      continue;
    }
    if (key === 'Path' && current === undefined) {
      current = {};
      items.push(current);
    }
    if (current) current[key] = eq > 0 ? line.slice(eq + 3) : '';
  }
  return { archive, items };
}

const num = (s: string | undefined) => (s ? Number(s) || 0 : 0);

function linkKind(it: Item): 'symlink' | 'hardlink' | undefined {
  if (it['Hard Link'] || /\bLink:HardLink\b/.test(it.Characteristics ?? '')) return 'hardlink';
  // a RAR 5 "file copy" takes its bytes from another entry: never followed either
  if (it['Symbolic Link'] || it['Copy Link'] || /\bLink:/.test(it.Characteristics ?? '')) return 'symlink';
  // 7z and RAR 5 keep the Unix mode: "A lrwxrwxrwx"
  if (/(^|\s)l[r-][w-][xsS-]/.test(it.Attributes ?? '')) return 'symlink';
  return undefined;
}

const isDirectory = (it: Item) => it.Folder === '+' || /^D/.test(it.Attributes ?? '');

async function listSource(src: Source, format: SevenZipFormat, password: string, limits: UnzipLimits, o: typeof DEFAULTS, signal?: AbortSignal): Promise<Listed> {
  const r = await run7z(
    { args: ['l', '-slt', ...common(src, password), '--', src.name], mounts: { '/in': src.dir }, cwd: '/in', maxOutputBytes: MAX_LISTING_OUTPUT },
    { timeoutMs: o.listTimeoutMs, memoryMb: o.memoryMb, signal, onLimit: () => new ArchiveError('limit', 'the archive lists too many entries', { kind: 'entries', limit: limits.maxEntries, actual: limits.maxEntries + 1 }) },
  ).done;
  const err = failure(r, password);
  if (err) throw err;
  const { archive, items } = parseTechnicalListing(r.output);
  // a file 7-Zip opened as something else (it may find an archive inside another format) is not this archive
  const type = (archive.Type ?? '').toLowerCase();
  if (!(type === format || (format === 'rar' && type === 'rar5'))) throw new ArchiveError('not-archive', `7-Zip read it as ${archive.Type || 'nothing'}`);
  const listing: ArchiveListing = { format, entries: [], refused: [], encrypted: false, totalCompressed: 0, totalUncompressed: 0 };
  const files: Listed['files'] = [];
  // ratio per solid block (7z): the block's packed size is on its first item, the others say nothing
  const blocks = new Map<string, { packed: number; size: number; first: string }>();
  let count = 0;
  for (const [i, it] of items.entries()) {
    count++;
    if (count > limits.maxEntries) {
      listing.limitExceeded = { kind: 'entries', limit: limits.maxEntries, actual: items.length };
      break;
    }
    const name = it.Path ?? '';
    const size = num(it.Size);
    const packed = num(it['Packed Size']);
    listing.totalUncompressed += size;
    listing.totalCompressed += packed;
    if (it.Encrypted === '+') listing.encrypted = true;
    const link = linkKind(it);
    if (link) {
      listing.refused.push({ originalName: name, reason: link });
      continue;
    }
    const where = checkEntryPath(name);
    if ('refused' in where) {
      listing.refused.push({ originalName: name, reason: where.refused });
      continue;
    }
    const directory = isDirectory(it);
    const { path: cleaned, fixes } = cleanEntryPath(where.parts);
    const entry: ListedEntry = { path: cleaned, originalName: name, encoding: 'utf-8', fixes, directory, encrypted: it.Encrypted === '+', compressedSize: packed, uncompressedSize: size };
    listing.entries.push(entry);
    if (!directory) {
      // where 7-Zip writes it: on a Unix file system only '/' separates ("a\\b" from Windows is one name there)
      files.push({ entry, rel: name.split('/').filter((p) => p !== '' && p !== '.').join('/') });
      const key = it.Block ? `b${it.Block}` : `i${i}`;
      const b = blocks.get(key) ?? { packed: 0, size: 0, first: name };
      b.packed += packed;
      b.size += size;
      blocks.set(key, b);
    }
  }
  if (src.gzipped) listing.totalCompressed = src.compressedSize;
  if (!listing.limitExceeded) {
    for (const b of blocks.values()) {
      if (b.size < RATIO_CHECK_MIN_BYTES) continue;
      const ratio = b.size / Math.max(b.packed, 1);
      if (ratio > limits.maxRatio) {
        listing.limitExceeded = { kind: 'ratio', limit: limits.maxRatio, actual: Math.round(ratio), entry: b.first };
        break;
      }
    }
  }
  applyTotalLimits(listing, limits);
  return { listing, items, files };
}

/** Bytes of the largest dictionary in the methods ("LZMA2:24", "LZMA:64m", RAR 5 "v6:m3:32M", RAR 4 "m3:22"). */
export function dictionaryBytes(method: string): number {
  let most = 0;
  for (const token of method.split(/\s+/)) {
    const m = /^(?:LZMA2?|v\d+:m\d|m\d):(\d+)([kmg])?$/i.exec(token);
    if (!m) continue;
    const n = Number(m[1]);
    const unit = m[2]?.toLowerCase();
    const bytes = unit ? n * 1024 ** (unit === 'k' ? 1 : unit === 'm' ? 2 : 3) : n <= 40 ? 2 ** n : n;
    most = Math.max(most, bytes);
  }
  return most;
}

function checkDictionary(items: Item[], max: number) {
  for (const it of items) {
    const d = dictionaryBytes(it.Method ?? '');
    if (d > max) throw new ArchiveError('unsupported', `${it.Path} needs a dictionary of ${Math.round(d / 1024 ** 2)} MB (at most ${Math.round(max / 1024 ** 2)} MB)`);
  }
}

/** The cheapest encrypted file to test a password on: the smallest one that starts a block (nothing before it to unpack). */
function passwordProbe(items: Item[]): string | undefined {
  let best: Item | undefined;
  let prevBlock: string | undefined;
  for (const it of items) {
    const starts = !it.Block || it.Block !== prevBlock;
    if (it.Block) prevBlock = it.Block;
    if (it.Encrypted !== '+' || isDirectory(it) || linkKind(it)) continue;
    if (!starts && best) continue;
    if (!best || num(it.Size) < num(best.Size)) best = it;
  }
  return best?.Path;
}

// ---------------------------------------------------------------------------------------------------------------
// extraction

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let names: import('node:fs').Dirent[];
  try {
    names = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const d of names) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) total += await folderBytes(p);
    else total += await lstat(p).then((s) => s.size, () => 0);
  }
  return total;
}

async function extractSource(src: Source, password: string, listed: Listed, x: ExtractOptions, o: typeof DEFAULTS & { tempDir: string }): Promise<void> {
  const jobDir = await mkdtemp(path.join(o.tempDir, instanceTempName('-', 'un7z')));
  const out = path.join(jobDir, 'out');
  await mkdir(out);
  // refused entries are not even written: 7-Zip would unpack "../a" as "a" and a link as a link
  const exclude: string[] = [];
  if (listed.listing.refused.length) {
    await writeFile(path.join(jobDir, 'exclude.txt'), listed.listing.refused.map((r) => r.originalName).join('\n') + '\n');
    exclude.push('-scsUTF-8', '-x@/job/exclude.txt');
  }
  const closed = new Set<string>();
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let result: RunResult | undefined;
  let error: unknown;
  const limitError = (actual: number) => new ArchiveError('limit', 'the archive unpacks to more than the limit', { kind: 'total-size', limit: x.limits.maxTotalBytes, actual });
  const run = run7z(
    {
      // -aou: a second entry of the same name is written beside the first (renamed), never over a file being read
      args: ['x', ...common(src, password), '-spd', '-aou', ...exclude, '-o/job/out', '--', `/in/${src.name}`],
      mounts: { '/in': src.dir, '/job': jobDir },
      cwd: '/job/out',
      closedUnder: '/job/out/',
      maxOutputBytes: MAX_OTHER_OUTPUT,
      maxWriteBytes: x.limits.maxTotalBytes,
    },
    {
      timeoutMs: o.extractTimeoutMs,
      memoryMb: o.memoryMb,
      signal: x.signal,
      onClosed: (rel) => {
        closed.add(rel);
        notify();
      },
      onLimit: (what, bytes) => (what === 'written' ? limitError(bytes) : new ArchiveError('limit', '7-Zip wrote too many messages')),
    },
  );
  let handed = 0;
  let polling = false;
  const poll = setInterval(() => {
    if (polling) return;
    polling = true;
    void folderBytes(out)
      .then((bytes) => {
        if (handed + bytes > x.limits.maxTotalBytes) run.stop(limitError(handed + bytes));
      })
      .finally(() => (polling = false));
  }, o.pollMs);
  run.done.then(
    (r) => {
      result = r;
      notify();
    },
    (e) => {
      error = e;
      notify();
    },
  );
  try {
    const passed = new Set<string>();
    for (const { entry, rel } of listed.files) {
      // the same path twice (a tar updated by appending): the first is passed on, as the listing shows it first
      if (passed.has(rel)) continue;
      passed.add(rel);
      while (!closed.has(rel) && !result && !error) await new Promise<void>((r) => (wake = r));
      if (error) throw error;
      if (result && !closed.has(rel)) {
        // 7-Zip finished without writing it: its error says why
        const err = failure(result, password);
        if (err) throw err;
      }
      const file = path.join(out, rel);
      const st = await lstat(file).catch(() => undefined);
      if (!st) throw new ArchiveError('damaged', `7-Zip did not unpack ${entry.originalName}`);
      // whatever 7-Zip made of a link, only plain files are passed on
      if (!st.isFile()) continue;
      if (st.size > entry.uncompressedSize) throw new ArchiveError('limit', `${entry.originalName} unpacks to ${st.size} bytes, its header says ${entry.uncompressedSize}`, { kind: 'total-size', limit: entry.uncompressedSize, actual: st.size });
      if (x.signal.aborted) throw new ArchiveError('cancelled');
      const data = createReadStream(file);
      try {
        await x.onEntry(entry, data);
      } finally {
        data.destroy();
      }
      await unlink(file);
      handed += st.size;
      if (handed > x.limits.maxTotalBytes) throw limitError(handed);
    }
    const r = result ?? (await run.done);
    const err = failure(r, password);
    if (err) throw err;
  } catch (e) {
    run.stop(e instanceof ArchiveError ? e : new ArchiveError('cancelled'));
    await run.done.catch(() => {});
    if (x.signal.aborted) throw new ArchiveError('cancelled');
    throw e;
  } finally {
    clearInterval(poll);
    await rm(jobDir, { recursive: true, force: true });
  }
}
