import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { inlineScripts } from './infra/http/security-headers.ts';
import path from 'node:path';

/** Paths the SPA never owns: API families answer JSON 404s, not index.html. */
const API_PREFIXES = ['/api/', '/cloud/', '/user/', '/global/', '/order/', '/invoice/', '/company/', '/ad/'];

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
    if (req.method !== 'GET' || API_PREFIXES.some((p) => url.startsWith(p)) || path.extname(url)) {
      return reply.code(404).send({ rtnCode: '1000404', bizData: null, msg: 'Not Found' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
