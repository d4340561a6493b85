import type { FastifyReply } from 'fastify';
import yazl from 'yazl';
import type { StorageDriver } from './storage.types.ts';
import { attachmentDisposition } from './content-disposition.ts';

export interface ZipEntry {
  name: string;
  /** storage key of the bytes */
  key: string;
  size: number;
  modified: number;
}

/**
 * Streams stored files as one zip in the answer (call style 7). Each entry's storage stream is opened only when yazl
 * reaches it, one at a time. Names that differ only in case get " (1)": unzip tools on Windows and macOS fold case.
 */
export function sendStoredZip(reply: FastifyReply, storage: StorageDriver, entries: ZipEntry[], fallbackName: string) {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const e of entries) {
    let name = e.name;
    for (let i = 1; used.has(name.toLowerCase()); i++) name = e.name.replace(/(\.[^.]+)?$/, (x) => ` (${i})${x}`);
    used.add(name.toLowerCase());
    zip.addReadStreamLazy(name, { mtime: new Date(e.modified), size: e.size }, (cb) => {
      storage.get(e.key).then((s) => cb(null, s), (err) => cb(err, undefined as never));
    });
  }
  zip.end();
  const zipName = entries.length === 1 ? `${entries[0].name.replace(/\.[^.]+$/, '')}.zip` : fallbackName;
  reply.header('content-type', 'application/zip').header('content-disposition', attachmentDisposition(zipName)).header('cache-control', 'no-store');
  return reply.send(zip.outputStream);
}
