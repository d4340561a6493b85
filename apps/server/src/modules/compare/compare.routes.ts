import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import type { RouteModule } from '../index.ts';
import { drawingFonts } from '../drawings/drawing-fonts.ts';
import { workerMemory } from '../../infra/workers/worker-budget.ts';
import { createCompareBuilder } from './compare-builder.ts';
import { createCompareService } from './compare.service.ts';

/** Drawing compare (issue 4 part 7): two versions of one of the user's files, owner only. */
export const compareRoutes: RouteModule = async (app, { deps }) => {
  // its own capped worker (the scene worker's limits): a compare never waits behind, or blocks, drawing opens
  const builder = createCompareBuilder({ maxHeapMb: deps.config.sceneMaxHeapMb, timeoutMs: deps.config.sceneTimeoutMs, memory: workerMemory(deps.config) });
  app.addHook('onClose', async () => builder.close());
  const compare = createCompareService(deps, builder, drawingFonts(deps));
  const tag = 'compare';

  defineEndpoint(app, {
    path: c.COMPARE_PATHS.changes, tag, auth: 'user',
    summary: 'What changed from version a to version b of a drawing: added, removed and modified entities (what changed, where), with counts; cached per pair of contents',
    request: c.compareRequest, response: c.compareChangesResult,
    handler: async (d, { user }) => {
      const { cached: _cached, ...r } = await compare.changes(user.id, d);
      return r;
    },
  });

  documentEndpoint(app, {
    method: 'get', path: c.COMPARE_PATHS.scene, tag, auth: 'user', request: c.compareRequest,
    summary: 'The compare overlay as a scene (binary, packages/cad/src/scene/binary.ts): unchanged grey, added green, removed red, modified orange over A\'s geometry in faint red; one scene layer per state',
    bodyNote: 'query fileId, a, b (versionIds), layout (default Model); answers application/vnd.cadcloud.scene, or the JSON envelope with the spec error',
  });
  app.get(c.COMPARE_PATHS.scene, async (req, reply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const q = c.compareRequest.safeParse(req.query);
    if (!q.success) throw appError('request.invalid');
    const s = await compare.scene(req.user.id, q.data);
    reply.header('content-type', 'application/vnd.cadcloud.scene').header('content-length', s.size).header('cache-control', 'private, no-cache').header('x-scene-cache', s.cached ? 'hit' : 'miss');
    return reply.send(s.body instanceof Uint8Array ? Buffer.from(s.body.buffer, s.body.byteOffset, s.body.byteLength) : s.body);
  });
};
