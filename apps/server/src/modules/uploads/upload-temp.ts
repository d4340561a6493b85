import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { instanceTempName } from '../../infra/instance.ts';

/** Temp files of uploads in progress live in DATA_DIR/uploads: never visible as items, swept when stale. */
export function uploadsDir(dataDir: string) {
  return path.join(dataDir, 'uploads');
}

/**
 * Streams `source` into a new temp file, hashing on the way (one pass, no buffering of the whole file).
 * Stops with `tooLarge` as soon as more than `maxBytes` arrived.
 */
export async function receiveToTemp(dataDir: string, source: Readable, maxBytes: number): Promise<{ path: string; size: number; md5: string; tooLarge: boolean }> {
  const dir = uploadsDir(dataDir);
  await fsp.mkdir(dir, { recursive: true });
  // named for this process: a sweep tells it from what a killed process left (compose.ts sweepLeftovers)
  const file = path.join(dir, instanceTempName('.part'));
  const hash = createHash('md5');
  let size = 0;
  let tooLarge = false;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        cb(new Error('too large'));
        return;
      }
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  try {
    // 1 MB writes: the default 16 KB turns a 200 MB upload into 12,800 write calls
    await pipeline(source, meter, createWriteStream(file, { highWaterMark: 1 << 20 }));
  } catch (e) {
    await fsp.rm(file, { force: true });
    if (tooLarge) return { path: file, size, md5: '', tooLarge: true };
    throw e;
  }
  return { path: file, size, md5: hash.digest('hex'), tooLarge: false };
}

export async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk);
  return hash.digest('hex');
}
