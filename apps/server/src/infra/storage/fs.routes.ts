import type { FastifyInstance } from 'fastify';
import type { StorageDriver } from './storage.types.ts';
import { FS_OBJECT_PATH, verifyFsSignedUrl } from './fs-signed-url.ts';
import { attachmentDisposition } from './content-disposition.ts';

/** Serves local-disk signed GET URLs (with Range), the counterpart of S3's presigned GET. */
export async function fsStorageRoutes(app: FastifyInstance, opts: { driver: StorageDriver; secret: string }) {
  app.get(FS_OBJECT_PATH, async (req, reply) => {
    const ok = verifyFsSignedUrl(req.query as Record<string, unknown>, opts.secret);
    if (!ok) return reply.code(403).send({ rtnCode: '1000403', bizData: null, msg: 'Forbidden' });
    const size = await opts.driver.size(ok.key);
    if (size === null) return reply.code(404).send({ rtnCode: '1000404', bizData: null, msg: 'Not Found' });
    if (ok.name) reply.header('content-disposition', attachmentDisposition(ok.name));
    reply.header('accept-ranges', 'bytes').header('content-type', 'application/octet-stream');
    const m = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (m && (m[1] || m[2])) {
      const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
      const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      if (start >= size || start > end) return reply.code(416).header('content-range', `bytes */${size}`).send();
      reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`).header('content-length', end - start + 1);
      return reply.send(await opts.driver.get(ok.key, { start, end }));
    }
    reply.header('content-length', size);
    return reply.send(await opts.driver.get(ok.key));
  });
}
