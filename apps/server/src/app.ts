import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
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
import { createProxyTrust } from './infra/http/proxy-trust.ts';
import { registerRequestGuards } from './infra/http/request-guards.ts';
import { registerSecurityHeaders } from './infra/http/security-headers.ts';
import { registerFormStyle } from './infra/http/form-style.ts';
import { createCallSecrets } from './infra/http/signed-style.ts';
import { observabilityRoutes, registerRequestMetrics } from './infra/observability/observability.routes.ts';

export interface BuildAppOptions {
  /** JSON log lines on stdout at this level (off when absent: tests) */
  logLevel?: string;
  /** a line for every request as well (LOG_REQUESTS=1), not only for what goes wrong */
  logRequests?: boolean;
}

/** An id a caller (or a proxy) sent in X-Request-Id is kept when it is plain; anything else gets one of ours. */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The API server: envelope and errors, who is asking, then every module's routes. */
export async function buildApp(deps: AppDeps, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: opts.logLevel ? { level: opts.logLevel } : false,
    logController: new LogController({ disableRequestLogging: !opts.logRequests }),
    // the request id is in every log line of the request (pino's reqId), in the X-Request-Id answer header and in
    // the body of an answer that reports a failure of ours, so a user's report finds its log lines
    requestIdHeader: false,
    genReqId: (req) => {
      const given = String(req.headers['x-request-id'] ?? '');
      return PLAIN_REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 2 * 1024 * 1024,
    // Node's timeouts: the headers (a connection that sends nothing or half a header is closed), the whole
    // request (uploads included: generous), the idle time between requests; a stalled body is request-guards'
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // how often Node looks for connections past those limits (its default, 30 s, would add up to 30 s to each)
      connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(config.headersTimeoutMs / 4))),
    },
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // X-Forwarded-* only from TRUSTED_PROXIES: req.ip is what per-client limits count
    trustProxy: config.trustedProxies.length ? createProxyTrust(config.trustedProxies) : false,
  });
  app.decorate('apiRegistry', []);
  app.decorate('callSecrets', createCallSecrets(deps));
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  registerRequestMetrics(app);
  registerErrorHandler(app);
  registerRequestGuards(app, { bodyIdleTimeoutMs: config.bodyIdleTimeoutMs });
  registerSecurityHeaders(app);
  await app.register(cookie, { secret: persistentSecret(deps.config.dataDir, 'cookie-signing') });
  await app.register(multipart, {
    limits: { fileSize: deps.config.webUploadFileSize + 1, files: 1, fields: 20 },
    // A part the parser skips (no usable Content-Disposition, a CR or LF in its file name) stalls busboy for
    // good when more than its buffer of that part ends inside one write: the request is never read to its end.
    // A network read is at most 64 KiB, so a larger buffer keeps every skipped part flowing
    // (request-guards answers whatever still stalls).
    fileHwm: 128 * 1024,
  });
  registerFormStyle(app);
  // raw bodies for chunk uploads
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  registerAuthHook(app, createSessionsService(deps));
  if (deps.storage.name === 'fs') await app.register(fsStorageRoutes, { driver: deps.storage, secret: storageSigningSecret(deps.config) });
  await app.register(openApiRoutes);
  await app.register(observabilityRoutes, { deps });
  for (const mod of routeModules) await app.register(mod, { deps });
  return app;
}
