import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StorageDriver, StoredObject } from './storage.types.ts';
import { assertSafeKey } from './storage-keys.ts';
import { createFsSignedUrl } from './fs-signed-url.ts';
import { instanceTempName } from '../instance.ts';

/**
 * Local disk. Every put streams into `<root>/.tmp/<random>`, fsyncs and renames into place: rename is
 * atomic on one file system, so a reader sees the whole object or nothing, even if the server dies mid-way.
 */
export function createFsStorage(opts: { root: string; signingSecret: string }): StorageDriver {
  const root = path.resolve(opts.root);
  const tmpDir = path.join(root, '.tmp');
  const full = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };

  return {
    name: 'fs',
    localPath: full,
    async put(key, body) {
      const dest = full(key);
      await fsp.mkdir(tmpDir, { recursive: true });
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      const tmp = path.join(tmpDir, instanceTempName());
      try {
        const out = createWriteStream(tmp, { flags: 'wx' });
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, out);
        await syncFile(tmp);
        await fsp.rename(tmp, dest);
        await syncDir(path.dirname(dest));
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },
    async importFile(key, localPath) {
      const dest = full(key);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      try {
        // the caller wrote the file; make its bytes durable before the name makes it an object
        await syncFile(localPath);
        await fsp.rename(localPath, dest);
        await syncDir(path.dirname(dest));
      } catch (e: any) {
        if (e?.code !== 'EXDEV') throw e;
        // another file system: copy through put (temp + rename), then drop the source
        await this.put(key, createReadStream(localPath));
        await fsp.rm(localPath, { force: true });
      }
    },
    async get(key, range) {
      const file = full(key);
      await fsp.access(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : undefined);
    },
    async exists(key) {
      return (await this.size(key)) !== null;
    },
    async size(key) {
      try {
        return (await fsp.stat(full(key))).size;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await fsp.rm(full(key), { force: true });
    },
    async *list(prefix) {
      // walk only the folder the prefix names (blobs/ab/… lives under blobs/ab/): never the whole store
      const slash = prefix.lastIndexOf('/');
      const start = slash < 0 ? root : path.join(root, prefix.slice(0, slash));
      const walk = async function* (dir: string): AsyncGenerator<StoredObject> {
        let entries;
        try {
          entries = await fsp.readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          const file = path.join(dir, e.name);
          // the temporary folder holds puts in flight, not objects
          if (file === tmpDir) continue;
          if (e.isDirectory()) yield* walk(file);
          else if (e.isFile()) {
            const key = path.relative(root, file).split(path.sep).join('/');
            if (!key.startsWith(prefix)) continue;
            const st = await fsp.stat(file).catch(() => null);
            if (st) yield { key, size: st.size, modifiedAt: st.mtimeMs };
          }
        }
      };
      yield* walk(start);
    },
    async signedGetUrl(key, o) {
      assertSafeKey(key);
      return createFsSignedUrl(opts.signingSecret, key, o.expiresInSeconds, o.downloadName);
    },
    async signedPutUrl() {
      return null;
    },
  };
}

async function syncFile(file: string) {
  const fh = await fsp.open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A rename is durable once its directory is synced; without it a power cut may forget the new name. */
async function syncDir(dir: string) {
  const fh = await fsp.open(dir, 'r').catch(() => null);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
    // some file systems refuse fsync on directories; the rename is still atomic
  } finally {
    await fh.close();
  }
}
