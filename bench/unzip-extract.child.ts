/**
 * One extraction by our readers, in a process of its own so its peak RSS is the extraction's (unzip.bench.ts):
 * each entry is consumed as storage consumes it, hashed (md5) on its way into a file under the output folder.
 * Prints one JSON line: { ms, files, bytes } or { skipped }.
 *
 *   npx tsx bench/unzip-extract.child.ts <zip|7z> <archive> <out-dir> <temp-dir>
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ArchiveReader } from '../apps/server/src/modules/unzip/archive-reader.ts';
import { sevenZipReader } from '../apps/server/src/modules/unzip/sevenzip-reader.ts';

const [format, archive, out, temp] = process.argv.slice(2);

async function readerOf(): Promise<ArchiveReader | undefined> {
  if (format !== 'zip') return sevenZipReader('7z', { tempDir: temp });
  // the zip reader comes with the decompression task (archive-readers.ts): measured once it is merged
  const modulePath = '../apps/server/src/modules/unzip/archive-readers.ts';
  try {
    const m = (await import(modulePath)) as { readerFor(format: 'zip'): ArchiveReader };
    return m.readerFor('zip');
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw e;
  }
}

const reader = await readerOf();
if (!reader) {
  console.log(JSON.stringify({ skipped: 'no zip reader' }));
  process.exit(0);
}
const limits = { maxEntries: 100_000, maxTotalBytes: 2 ** 31 - 1, maxRatio: 10_000 };
const started = performance.now();
let files = 0;
let bytes = 0;
await reader.extract(archive, {
  limits,
  signal: new AbortController().signal,
  async onEntry(entry, data) {
    const file = path.join(out, ...entry.path);
    mkdirSync(path.dirname(file), { recursive: true });
    const md5 = createHash('md5');
    const hash = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        md5.update(chunk);
        bytes += chunk.length;
        cb(null, chunk);
      },
    });
    await pipeline(data, hash, createWriteStream(file));
    md5.digest('hex');
    files++;
  },
});
console.log(JSON.stringify({ ms: Math.round(performance.now() - started), files, bytes, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
process.exit(0);
