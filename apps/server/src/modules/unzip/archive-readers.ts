import type { ArchiveFormat } from '@cadcloud/contracts';
import { ArchiveError, type ArchiveReader } from './archive-reader.ts';
import { zipReader } from './zip-reader.ts';

/**
 * The reader of each archive format. zip is read by zip.js here; 7z, rar and tar by 7-Zip in WebAssembly
 * (`sevenzip-reader.ts`, branch unzip7z): until that lands they answer 'unsupported', one marked line each.
 */
export function readerFor(format: ArchiveFormat): ArchiveReader {
  switch (format) {
    case 'zip':
      return zipReader;
    case '7z':
      throw new ArchiveError('unsupported', '7z'); // MERGE(unzip7z): return sevenZipReader('7z');
    case 'rar':
      throw new ArchiveError('unsupported', 'rar'); // MERGE(unzip7z): return sevenZipReader('rar');
    case 'tar':
      throw new ArchiveError('unsupported', 'tar'); // MERGE(unzip7z): return sevenZipReader('tar');
  }
}
