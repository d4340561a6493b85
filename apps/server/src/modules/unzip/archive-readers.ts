import type { ArchiveFormat } from '@cadcloud/contracts';
import type { ArchiveReader } from './archive-reader.ts';
import { sevenZipReader } from './sevenzip-reader.ts';
import { zipReader } from './zip-reader.ts';

/**
 * The reader of each archive format. zip is read by zip.js (GBK names, ranged reads, no worker needed); 7z, rar and
 * tar by 7-Zip in WebAssembly in a worker thread (`sevenzip-reader.ts`), which garbles GBK names in zips.
 */
export function readerFor(format: ArchiveFormat): ArchiveReader {
  switch (format) {
    case 'zip':
      return zipReader;
    case '7z':
    case 'rar':
    case 'tar':
      return sevenZipReader(format);
  }
}
