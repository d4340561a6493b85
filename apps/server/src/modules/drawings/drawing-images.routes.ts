import type { FastifyInstance } from 'fastify';
import { DRAWING_IMAGE_PATH, drawingImageQuery } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { documentEndpoint } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createDrawingImagesService, type DrawingsForPictures } from './drawing-images.service.ts';

/**
 * GET /cloud/v5/drawing/image: the picture of an IMAGE entity (see drawing-images.service.ts), asked for with the
 * same access parameters as the scene. Called from drawings.routes.ts with its drawings service.
 */
export function registerDrawingImageRoute(app: FastifyInstance, deps: AppDeps, drawings: DrawingsForPictures) {
  const pictures = createDrawingImagesService(deps, drawings);
  documentEndpoint(app, {
    method: 'get', path: DRAWING_IMAGE_PATH, tag: 'drawings', auth: 'optional', request: drawingImageQuery,
    summary: "The picture an IMAGE of a drawing shows, from the drawing owner's drive (its folder first, then anywhere, by base name ignoring case); TIFF and BMP as PNG",
    bodyNote: "query fileId, name (meta.images[].file of the layout's scene), layout (default Model), shareToken (or header x-share-token), versionId; answers the image bytes, or the JSON envelope: 'No permission to visit this file.' for anyone who may not see the drawing, 'File does not exist' when the drive has no such picture",
  });
  app.get(DRAWING_IMAGE_PATH, async (req, reply) => {
    const q = drawingImageQuery.safeParse(req.query);
    if (!q.success) throw appError('request.invalid');
    const header = req.headers['x-share-token'];
    const shareToken = q.data.shareToken ?? (typeof header === 'string' ? header : undefined);
    if (!req.user && !shareToken) throw appError('auth.notSignedIn');
    const p = await pictures.picture({ uid: req.user?.id, fileId: q.data.fileId, shareToken, versionId: q.data.versionId }, q.data.layout, q.data.name);
    // the picture may be replaced in the drive at any time: revalidate, its bytes name the ETag
    reply.header('cache-control', 'private, no-cache').header('etag', p.etag).header('x-content-type-options', 'nosniff').header('content-security-policy', "default-src 'none'");
    if (req.headers['if-none-match'] === p.etag) {
      if (!Buffer.isBuffer(p.body)) p.body.destroy();
      return reply.code(304).send();
    }
    reply.type(p.contentType);
    if (p.size !== null) reply.header('content-length', p.size);
    return reply.send(p.body);
  });
}
