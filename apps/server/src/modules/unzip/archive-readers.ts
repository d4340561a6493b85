import type { ArchiveFormat } from '@cadcloud/contracts';
import type { ArchiveReader } from './archive-reader.ts';
import { sevenZipReader } from './sevenzip-reader.ts';
import { createZipReader } from './zip-reader.ts';

/**
 * The reader of each archive format. zip is read by zip.js (GBK names, ranged reads, no worker needed); 7z, rar and
 * tar by 7-Zip in WebAssembly in a worker thread (`sevenzip-reader.ts`), which garbles GBK names in zips. `tempDir`: where
 * their unpacked files and one-entry zips wait (the server's uploads folder: on the data disk, swept after a crash).
 */
export function readerFor(format: ArchiveFormat, o: { tempDir?: string } = {}): ArchiveReader {
  switch (format) {
    case 'zip':
      return createZipReader(o);
    case '7z':
    case 'rar':
    case 'tar':
      return sevenZipReader(format, o);
  }
}
