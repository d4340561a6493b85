import type { Readable } from 'node:stream';

/**
 * One object-storage interface with two drivers (local disk, S3-compatible).
 * Keys are opaque strings chosen by the caller (content-addressed blobs use `blobs/ab/<md5>`).
 * A driver never exposes a half-written object: `put` writes to a temporary name and renames
 * (disk) or relies on the atomic PUT of S3.
 */
export interface StorageDriver {
  readonly name: 'fs' | 's3';
  /** Streams `body` into `key`; resolves once the object is fully visible. */
  put(key: string, body: Readable | Buffer, opts?: { size?: number; contentType?: string }): Promise<void>;
  /**
   * Moves a finished local file (already hashed) into `key`: a rename on local disk (no second copy),
   * an upload for S3. The local file is gone afterwards either way.
   */
  importFile(key: string, localPath: string): Promise<void>;
  /** Local disk only: where the object's bytes are, for readers that need a file (decompression reads archives by ranges). */
  localPath?(key: string): string;
  get(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (operator tools: `storage gc`, backups), in no particular order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** URL the browser may GET for a limited time (`downloadName` sets Content-Disposition). */
  signedGetUrl(key: string, opts: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  /**
   * URL the browser may PUT the bytes to directly (call style 6). The PUT must carry header
   * `x-oss-meta-md5` with the hex MD5 the caller declared; null when the driver has no direct upload
   * (the local driver, whose uploads go through the API).
   */
  signedPutUrl(key: string, opts: { expiresInSeconds: number; md5Hex: string; size: number }): Promise<{ url: string; headers: Record<string, string> } | null>;
}

export interface StoredObject {
  key: string;
  size: number;
  /** when the object was last written (ms since the epoch) */
  modifiedAt: number;
}
