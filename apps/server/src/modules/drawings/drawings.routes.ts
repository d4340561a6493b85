import { z } from 'zod';
import { documentEndpoint } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import type { RouteModule } from '../index.ts';
import { sharedDrawingsService } from './drawings.service.ts';
import { sharedSceneBuilder } from './scene-builder.ts';
import { registerDrawingImageRoute } from './drawing-images.routes.ts';

const sceneQuery = z.object({
  fileId: z.string().min(1),
  layout: z.string().max(255).default('Model'),
  shareToken: z.string().max(2000).optional(),
  versionId: z.string().max(64).optional(),
});

/** A build's phases for the browser's devtools (and the viewer bench): `parse;dur=41.2, flatten;dur=12.0, …` */
function serverTiming(t: Record<string, number>): string {
  return Object.entries(t).map(([k, ms]) => `${k};dur=${ms.toFixed(1)}`).join(', ');
}

export const drawingsRoutes: RouteModule = async (app, { deps }) => {
  const builder = sharedSceneBuilder(deps);
  app.addHook('onClose', async () => builder.close());
  const drawings = sharedDrawingsService(deps);

  documentEndpoint(app, {
    method: 'get', path: '/cloud/v5/drawing/scene', tag: 'drawings', auth: 'optional',
    summary: 'One layout of a drawing as a compiled scene (binary, see packages/cad/src/scene/binary.ts), cached per file version',
    request: sceneQuery,
    bodyNote: 'query fileId, layout (default Model), shareToken (or header x-share-token) for a share, versionId for an earlier version; answers application/vnd.cadcloud.scene, or the JSON envelope with the spec error',
  });
  app.get('/cloud/v5/drawing/scene', async (req, reply) => {
    const q = sceneQuery.safeParse(req.query);
    if (!q.success) throw appError('request.invalid');
    const header = req.headers['x-share-token'];
    const shareToken = q.data.shareToken ?? (typeof header === 'string' ? header : undefined);
    // a visitor may look through a share; everything else needs a signed-in user
    if (!req.user && !shareToken) throw appError('auth.notSignedIn');
    const s = await drawings.scene({ uid: req.user?.id, fileId: q.data.fileId, shareToken, versionId: q.data.versionId }, q.data.layout);
    // no browser caching: the server's cache is per font set, which the URL does not show
    if (s.timings) reply.header('server-timing', serverTiming(s.timings));
    reply.header('content-type', 'application/vnd.cadcloud.scene').header('content-length', s.size).header('cache-control', 'private, no-cache').header('x-scene-cache', s.cached ? 'hit' : 'miss');
    return reply.send(s.body instanceof Uint8Array ? Buffer.from(s.body.buffer, s.body.byteOffset, s.body.byteLength) : s.body);
  });

  registerDrawingImageRoute(app, deps, drawings);
};
