import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { inlineScripts } from './infra/http/security-headers.ts';
import path from 'node:path';

/**
 * Paths the SPA never owns: the API answers JSON 404s there, not index.html. The API's families carry a version
 * (`/cloud/v5/…`, `/invoice/v5/…`), which is what tells them from pages of the same name: `/invoice/index` is a page
 * of the spec's route table, `/invoice/v5/…` a call.
 */
const API_PATH = /^\/(?:api\/|(?:cloud|user|global|order|invoice|company|ad|customer)\/v\d+\/)/;

/**
 * Serves the built single-page app (apps/web/dist) with history-mode fallback: any GET of a page path
 * answers index.html, and the client router shows its own 404 route for unknown pages.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn(`web app not built (${distDir}/index.html missing): run \`npm start\` or \`npm run build\``);
    return;
  }
  // the boot scripts index.html carries inline are the only inline code the policy lets run
  app.securityHeaders.allowInlineScripts(inlineScripts(readFileSync(path.join(distDir, 'index.html'), 'utf8')));
  await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false, maxAge: '1h', immutable: false });
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    // HEAD answers as GET does (Fastify sends the headers only)
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PATH.test(url) || path.extname(url)) {
      return reply.code(404).send({ rtnCode: '1000404', bizData: null, msg: 'Not Found' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
