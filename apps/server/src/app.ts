import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { AppDeps } from './app.deps.ts';
import { registerErrorHandler } from './infra/http/error-handler.ts';
import { registerAuthHook } from './infra/http/auth-hook.ts';
import { openApiRoutes } from './infra/http/openapi.ts';
import { fsStorageRoutes } from './infra/storage/fs.routes.ts';
import { persistentSecret, storageSigningSecret } from './infra/storage/storage.factory.ts';
import { createSessionsService } from './modules/users/sessions.service.ts';
import { routeModules } from './modules/index.ts';

export interface BuildAppOptions {
  logger?: boolean;
}

/** The API server: envelope and errors, who is asking, then every module's routes. */
export async function buildApp(deps: AppDeps, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: 'info' } : false,
    bodyLimit: 2 * 1024 * 1024,
    // chunk uploads stream far longer than an ordinary request
    requestTimeout: 0,
    trustProxy: true,
  });
  app.decorate('apiRegistry', []);
  registerErrorHandler(app);
  await app.register(cookie, { secret: persistentSecret(deps.config.dataDir, 'cookie-signing') });
  await app.register(multipart, { limits: { fileSize: deps.config.webUploadFileSize + 1, files: 1, fields: 20 } });
  // raw bodies for chunk uploads
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  registerAuthHook(app, createSessionsService(deps));
  if (deps.storage.name === 'fs') await app.register(fsStorageRoutes, { driver: deps.storage, secret: storageSigningSecret(deps.config) });
  await app.register(openApiRoutes);
  for (const mod of routeModules) await app.register(mod, { deps });
  return app;
}
