import type { FastifyReply } from 'fastify';
import type { StorageDriver } from './storage.types.ts';
import { attachmentDisposition } from './content-disposition.ts';

/** Streams a stored object as a download (`name` sets Content-Disposition), honouring one byte range. */
export async function sendStoredObject(reply: FastifyReply, driver: StorageDriver, key: string, name: string, range: string | undefined) {
  const size = await driver.size(key);
  if (size === null) return reply.code(404).send({ rtnCode: '1000404', bizData: null, msg: 'Not Found' });
  if (name) reply.header('content-disposition', attachmentDisposition(name));
  reply.header('accept-ranges', 'bytes').header('content-type', 'application/octet-stream').header('cache-control', 'no-store');
  const m = /^bytes=(\d*)-(\d*)$/.exec(range ?? '');
  if (m && (m[1] || m[2])) {
    const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
    const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    if (start >= size || start > end) return reply.code(416).header('content-range', `bytes */${size}`).send();
    reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`).header('content-length', end - start + 1);
    return reply.send(await driver.get(key, { start, end }));
  }
  reply.header('content-length', size);
  return reply.send(await driver.get(key));
}
