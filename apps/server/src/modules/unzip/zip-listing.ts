import { BlobReader, Uint8ArrayReader, ZipReader, type Entry, type Reader } from '@zip.js/zip.js';
import { cleanNamePart, decodeEntryName, isLegacyName, legacyCodePage, type LegacyCodePage, type NameEncoding, type NameFix } from './archive-names.ts';
import { DEFAULT_UNZIP_LIMITS } from './unzip.config.ts';

/**
 * The listing of a zip, read from its central directory before anything is extracted, with everything that makes
 * it unsafe found up front: a path that leaves the target folder, a symlink, or an archive over the operator's limits.
 * Unsafe entries are refused one by one and reported; a limit refuses the whole archive.
 */
export interface UnzipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
}

export interface ListedEntry {
  /** cleaned path parts, each valid for the drive (`isValidItemName`), e.g. ['图纸', '平面图.dwg'] */
  path: string[];
  /** the name as decoded from the archive, before cleaning */
  originalName: string;
  encoding: NameEncoding;
  /** what cleaning changed in any part; empty when the name was taken as is */
  fixes: NameFix[];
  directory: boolean;
  encrypted: boolean;
  compressedSize: number;
  uncompressedSize: number;
}

export type RefusalReason = 'parent-path' | 'absolute-path' | 'drive-letter' | 'symlink' | 'hardlink' | 'empty-name';
export interface RefusedEntry {
  originalName: string;
  reason: RefusalReason;
}

export type LimitExceeded =
  | { kind: 'entries'; limit: number; actual: number }
  | { kind: 'total-size'; limit: number; actual: number }
  | { kind: 'ratio'; limit: number; actual: number; entry?: string };

export interface ZipListing {
  entries: ListedEntry[];
  refused: RefusedEntry[];
  /** any entry (or, in a 7z, the header) encrypted: extraction needs a password */
  encrypted: boolean;
  totalCompressed: number;
  totalUncompressed: number;
  /** set when the archive must not be extracted at all */
  limitExceeded?: LimitExceeded;
}

/** Ratio is checked per entry only from this size: a tiny file of blanks compresses far past 200:1 and is harmless. */
export const RATIO_CHECK_MIN_BYTES = 1024 * 1024;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** "version made by" host 3 is Unix: only then do the high 16 bits of the external attributes hold a file mode */
const HOST_UNIX = 3;

function isSymlink(entry: Entry): boolean {
  if (entry.symlink) return true;
  const unixMode = entry.externalFileAttributes >>> 16;
  return entry.versionMadeBy >> 8 === HOST_UNIX && (unixMode & S_IFMT) === S_IFLNK;
}

/**
 * Where a decoded name would land. Backslashes count as separators here: zips made on Windows use them, and
 * "..\\evil.txt" is a parent path on a Windows host whatever the zip format says.
 */
export function checkEntryPath(name: string): { parts: string[] } | { refused: RefusalReason } {
  if (/^[a-zA-Z]:/.test(name)) return { refused: 'drive-letter' };
  if (name.startsWith('/') || name.startsWith('\\')) return { refused: 'absolute-path' };
  const parts = name.split(/[\\/]/);
  if (parts.includes('..')) return { refused: 'parent-path' };
  // "a//b" and "./a" name the same place as "a/b" and "a"
  const kept = parts.filter((p) => p !== '' && p !== '.');
  return kept.length === 0 ? { refused: 'empty-name' } : { parts: kept };
}

/**
 * One central-directory entry as the drive will see it: its cleaned path, or why it is refused. The listing and the
 * extraction (zip-reader.ts) both go through here, so what is extracted is exactly what was listed.
 */
export function classifyEntry(entry: Entry, codePage?: LegacyCodePage): { listed: ListedEntry } | { refused: RefusedEntry } {
  const unicodePath = entry.extraFieldUnicodePath?.valid ? entry.extraFieldUnicodePath.filename : undefined;
  const decoded = unicodePath !== undefined ? { name: unicodePath, encoding: 'utf-8' as const } : decodeEntryName(entry.rawFilename, utf8Flagged(entry), codePage);
  // never created: a link inside the target folder can point anywhere on the server
  if (isSymlink(entry)) return { refused: { originalName: decoded.name, reason: 'symlink' } };
  const where = checkEntryPath(decoded.name);
  if ('refused' in where) return { refused: { originalName: decoded.name, reason: where.refused } };
  const { path, fixes } = cleanEntryPath(where.parts);
  return {
    listed: {
      path,
      originalName: decoded.name,
      encoding: decoded.encoding,
      fixes,
      directory: entry.directory,
      encrypted: entry.encrypted,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    },
  };
}

/** The entry's own UTF-8 flag (bit 11): zip.js's `filenameUTF8` is also true for unflagged names that merely look like UTF-8. */
function utf8Flagged(entry: Entry): boolean {
  return entry.bitFlag?.languageEncodingFlag ?? entry.filenameUTF8;
}

/**
 * The code page of the archive's names when some unflagged name (within the first `maxEntries`) is not UTF-8, for a
 * user of `language` (`legacyCodePage`); undefined when the names are UTF-8.
 */
export async function archiveCodePage(zip: ZipReader<unknown>, maxEntries: number, language?: string): Promise<LegacyCodePage | undefined> {
  const legacy: Uint8Array[] = [];
  let count = 0;
  for await (const entry of zip.getEntriesGenerator()) {
    if (++count > maxEntries) break;
    if (isLegacyName(entry.rawFilename, utf8Flagged(entry))) legacy.push(entry.rawFilename);
  }
  return legacy.length ? legacyCodePage(legacy, language) : undefined;
}

type ZipSource = Uint8Array | Blob | Reader<unknown>;

function readerOf(source: ZipSource): Reader<unknown> {
  if (source instanceof Uint8Array) return new Uint8ArrayReader(source);
  if (source instanceof Blob) return new BlobReader(source);
  return source;
}

/**
 * Lists a zip (bytes, a Blob, or any zip.js Reader, e.g. one doing ranged reads from storage). Throws zip.js's
 * errors for what is not a zip or is damaged; the caller turns them into the task's status.
 */
export async function listZip(source: ZipSource, limits: UnzipLimits = DEFAULT_UNZIP_LIMITS, language?: string): Promise<ZipListing> {
  // tolerant: zip.js would refuse the whole archive on one unsafe name; we refuse that entry and report it
  const zip = new ZipReader(readerOf(source), { filenameValidation: 'tolerant', useWebWorkers: false });
  const listing: ZipListing = { entries: [], refused: [], encrypted: false, totalCompressed: 0, totalUncompressed: 0 };
  try {
    const codePage = await archiveCodePage(zip, limits.maxEntries, language);
    let count = 0;
    for await (const entry of zip.getEntriesGenerator()) {
      count++;
      // stop reading a directory of 100,000 entries at the first one over the limit
      if (count > limits.maxEntries) {
        listing.limitExceeded = { kind: 'entries', limit: limits.maxEntries, actual: count };
        break;
      }
      listing.totalCompressed += entry.compressedSize;
      listing.totalUncompressed += entry.uncompressedSize;
      const c = classifyEntry(entry, codePage);
      if ('refused' in c) {
        listing.refused.push(c.refused);
        continue;
      }
      if (entry.encrypted) listing.encrypted = true;
      if (!entry.directory && entry.uncompressedSize >= RATIO_CHECK_MIN_BYTES && !listing.limitExceeded) {
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (ratio > limits.maxRatio) listing.limitExceeded = { kind: 'ratio', limit: limits.maxRatio, actual: Math.round(ratio), entry: c.listed.originalName };
      }
      listing.entries.push(c.listed);
    }
  } finally {
    await zip.close();
  }
  applyTotalLimits(listing, limits);
  return listing;
}

/** Each part of a checked path cleaned for the drive (`cleanNamePart`), with every fix made to any part. */
export function cleanEntryPath(parts: string[]): { path: string[]; fixes: NameFix[] } {
  const fixes = new Set<NameFix>();
  const path = parts.map((part) => {
    const clean = cleanNamePart(part);
    clean.fixes.forEach((f) => fixes.add(f));
    return clean.name;
  });
  return { path, fixes: [...fixes] };
}

/** The whole archive's limits (total size, then overall ratio), unless an entry's limit was already hit. Shared by every format. */
export function applyTotalLimits(listing: Pick<ZipListing, 'limitExceeded' | 'totalCompressed' | 'totalUncompressed'>, limits: UnzipLimits): void {
  if (!listing.limitExceeded && listing.totalUncompressed > limits.maxTotalBytes) {
    listing.limitExceeded = { kind: 'total-size', limit: limits.maxTotalBytes, actual: listing.totalUncompressed };
  }
  if (!listing.limitExceeded && listing.totalUncompressed >= RATIO_CHECK_MIN_BYTES) {
    const ratio = listing.totalUncompressed / Math.max(listing.totalCompressed, 1);
    if (ratio > limits.maxRatio) listing.limitExceeded = { kind: 'ratio', limit: limits.maxRatio, actual: Math.round(ratio) };
  }
}
