import type { Readable } from 'node:stream';
import type { ArchiveFormat } from '@cadcloud/contracts';
import type { LimitExceeded, ListedEntry, UnzipLimits, ZipListing } from './zip-listing.ts';

/**
 * What every archive format gives the decompression task: a listing made before anything is written, a password
 * check that writes nothing, and an extraction that hands each file's bytes to the caller, who stores them.
 * zip goes through zip.js (`zip-reader.ts`); 7z, rar and tar through 7-Zip in WebAssembly in a worker thread
 * (`sevenzip-reader.ts`). The reader opens a local file: an archive kept on S3 is copied to local temp first.
 */
export interface ArchiveListing extends ZipListing {
  format: ArchiveFormat;
}

export interface ExtractOptions {
  /** always given to 7-Zip, empty included, so nothing ever waits for a password on stdin */
  password?: string;
  limits: UnzipLimits;
  /** the user's language (clientInfo.language): a zip's legacy names may be Shift-JIS or EUC-KR (archive-names.ts) */
  language?: string;
  signal: AbortSignal;
  /**
   * One file entry (directories are listed, not passed here). `data` must be consumed before the next entry comes,
   * or left unread: then the entry is skipped (a resumed task does so for the files it stored before).
   * The caller counts the bytes it reads; the reader also stops when an entry gives more than it declared, or the
   * archive more than `limits.maxTotalBytes`, with ArchiveError 'limit'.
   */
  onEntry(entry: ListedEntry, data: Readable): Promise<void>;
}

export interface ArchiveReader {
  readonly format: ArchiveFormat;
  /** Throws ArchiveError: 'password-required' only when the header itself is encrypted (7z -mhe) and none is given. */
  list(file: string, o: { password?: string; limits: UnzipLimits; language?: string }): Promise<ArchiveListing>;
  /** True when the password opens the archive (its first encrypted entry decrypts and checks). */
  checkPassword(file: string, password: string): Promise<boolean>;
  extract(file: string, o: ExtractOptions): Promise<void>;
}

export type ArchiveErrorKind = 'not-archive' | 'damaged' | 'password-required' | 'wrong-password' | 'limit' | 'cancelled' | 'unsupported';

/** Every failure of a reader, mapped by the task onto its status and the spec's message. */
export class ArchiveError extends Error {
  constructor(
    readonly kind: ArchiveErrorKind,
    message?: string,
    readonly limit?: LimitExceeded,
  ) {
    super(message ?? kind);
    this.name = 'ArchiveError';
  }
}

/** The format an archive is in, from its first bytes (names lie: a zip called .rar is read as the zip it is). */
export function sniffArchiveFormat(head: Uint8Array): ArchiveFormat | undefined {
  const b = head;
  if (b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5 || b[2] === 7)) return 'zip';
  if (b[0] === 0x37 && b[1] === 0x7a && b[2] === 0xbc && b[3] === 0xaf && b[4] === 0x27 && b[5] === 0x1c) return '7z';
  if (b[0] === 0x52 && b[1] === 0x61 && b[2] === 0x72 && b[3] === 0x21 && b[4] === 0x1a && b[5] === 0x07) return 'rar';
  // gzip (a tar.gz, read through 7-Zip as tar), or a POSIX tar's "ustar" at offset 257
  if (b[0] === 0x1f && b[1] === 0x8b) return 'tar';
  if (b.length > 262 && String.fromCharCode(...b.subarray(257, 262)) === 'ustar') return 'tar';
  return undefined;
}
