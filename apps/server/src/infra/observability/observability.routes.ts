import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.deps.ts';
import { httpDuration, httpRequests, registry } from './metrics.ts';

/** How long a readiness check may wait for one dependency before it counts as down. */
const CHECK_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given), b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every answer's route pattern, status and time, counted for /metrics (on the root instance: every route). */
export function registerRequestMetrics(app: FastifyInstance) {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
}

/**
 * For operators and their load balancers: `/healthz` (the process answers), `/readyz` (the database, the storage
 * and the queue answer too: take the process out of rotation while one does not), and `/metrics` (Prometheus text,
 * only with `Authorization: Bearer <METRICS_TOKEN>`; without a configured token it does not exist).
 */
export async function observabilityRoutes(app: FastifyInstance, opts: { deps: AppDeps }) {
  const { deps } = opts;

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_req, reply) => {
    const checks: Record<string, () => Promise<unknown>> = {
      database: () => deps.db.selectFrom('users').select('id').limit(1).execute(),
      storage: () => deps.storage.exists('readyz-probe'),
      queue: () => deps.queue.counts(),
    };
    const results = Object.fromEntries(
      await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await within<unknown>(check(), CHECK_TIMEOUT_MS);
            return [name, 'ok'] as const;
          } catch (e) {
            return [name, (e as Error).message || 'failed'] as const;
          }
        }),
      ),
    );
    const ready = Object.values(results).every((r) => r === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });

  app.get('/metrics', async (req, reply) => {
    const token = deps.config.metricsToken;
    if (!token) return reply.code(404).send({ rtnCode: '1000404', bizData: null, msg: 'Not Found' });
    const given = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!sameToken(given, token)) return reply.code(401).header('www-authenticate', 'Bearer').send({ rtnCode: '101', bizData: null, msg: 'metrics need the operator token' });
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
