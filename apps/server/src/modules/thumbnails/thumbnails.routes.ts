import { appError } from '../../infra/http/app-error.ts';
import { documentEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createThumbnailsService } from './thumbnails.service.ts';

export const THUMB_PATH = '/cloud/v5/file/thumb';

/**
 * GET /cloud/v5/file/thumb/<thumbkey>: the thumbnail image, for a signed-in user with a file showing it (cookie
 * or utoken, so an <img> works as it is). The key names the bytes and the renderer version, so the answer never
 * changes: browsers keep it for a year without asking again. `private`: it is one user's, shared caches keep out.
 */
export const thumbnailsRoutes: RouteModule = async (app, { deps }) => {
  const thumbnails = createThumbnailsService(deps);
  documentEndpoint(app, {
    method: 'get', path: `${THUMB_PATH}/{thumbkey}`, tag: 'thumbnails', auth: 'user', envelope: 'none',
    summary: 'Thumbnail image (PNG for drawings, WebP for pictures) by an item\'s thumbkey; 404 for anyone without a file showing it',
  });
  app.get<{ Params: { thumbkey: string } }>(`${THUMB_PATH}/:thumbkey`, async (req, reply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const etag = `"${req.params.thumbkey}"`;
    const img = await thumbnails.open(req.user.id, req.params.thumbkey);
    reply.header('x-content-type-options', 'nosniff');
    // the plain thumbnail standing in for a variant being drawn again: asked again next time, never kept as the variant
    if (img.standIn) reply.header('cache-control', 'private, no-cache');
    else reply.header('cache-control', 'private, max-age=31536000, immutable').header('etag', etag);
    if (!img.standIn && req.headers['if-none-match'] === etag) {
      img.body.destroy();
      return reply.code(304).send();
    }
    reply.type(img.contentType);
    if (img.size !== null) reply.header('content-length', img.size);
    return reply.send(img.body);
  });
};
