import type { FastifyInstance } from 'fastify';
import type { StorageDriver } from './storage.types.ts';
import { FS_OBJECT_PATH, verifyFsSignedUrl } from './fs-signed-url.ts';
import { sendStoredObject } from './object-reply.ts';

/**
 * Serves local-disk signed GET URLs (with Range), the counterpart of S3's presigned GET. The product hands out
 * download links (modules/downloads/download-links.ts) that check their grant on every use and stream themselves;
 * these raw URLs remain the driver's primitive.
 */
export async function fsStorageRoutes(app: FastifyInstance, opts: { driver: StorageDriver; secret: string }) {
  app.get(FS_OBJECT_PATH, async (req, reply) => {
    const ok = verifyFsSignedUrl(req.query as Record<string, unknown>, opts.secret);
    if (!ok) return reply.code(403).send({ rtnCode: '1000403', bizData: null, msg: 'Forbidden' });
    return sendStoredObject(reply, opts.driver, ok.key, ok.name, req.headers.range);
  });
}
