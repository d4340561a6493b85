/**
 * One extraction by our readers, in a process of its own so its peak RSS is the extraction's (unzip.bench.ts):
 * each entry is consumed as storage consumes it, hashed (md5) on its way into a file under the output folder.
 * Prints one JSON line: { ms, files, bytes, maxRssMb, cpuMs } (cpuMs: user + system time of all threads during the extraction).
 *
 *   npx tsx bench/unzip-extract.child.ts <zip|7z> <archive> <out-dir> <temp-dir>
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readerFor } from '../apps/server/src/modules/unzip/archive-readers.ts';
import { sevenZipReader } from '../apps/server/src/modules/unzip/sevenzip-reader.ts';

const [format, archive, out, temp] = process.argv.slice(2);

// the readers the decompression task uses (archive-readers.ts); the 7z one with the bench's temp folder
const reader = format === 'zip' ? readerFor('zip') : sevenZipReader('7z', { tempDir: temp });
const cpuMsSince = (before: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(before);
  return Math.round((d.user + d.system) / 1000);
};
const limits = { maxEntries: 100_000, maxTotalBytes: 2 ** 31 - 1, maxRatio: 10_000 };
const started = performance.now();
const cpuBefore = process.cpuUsage();
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
console.log(JSON.stringify({ ms: Math.round(performance.now() - started), files, bytes, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), cpuMs: cpuMsSince(cpuBefore) }));
process.exit(0);
