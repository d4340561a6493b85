import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError } from './infra/config/index.ts';
import { buildApp } from './app.ts';
import { createDeps, startJobs, createBuiltInSso, startHousekeeping } from './compose.ts';
import { registerWebApp } from './web-static.ts';
import Fastify from 'fastify';
import { observabilityRoutes } from './infra/observability/observability.routes.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const deps = await createDeps(config);
  const closers: (() => Promise<unknown>)[] = [];
  // first: what a killed process left in DATA_DIR goes before this one makes anything of its own
  const housekeeping = await startHousekeeping(deps);
  closers.push(() => housekeeping.stop());

  if (config.processMode !== 'web') {
    await startJobs(deps);
    closers.push(() => deps.queue.stop());
  }
  if (config.processMode !== 'worker') {
    const app = await buildApp(deps, { logLevel: config.logLevel, logRequests: process.env.LOG_REQUESTS === '1' });
    await registerWebApp(app, path.resolve(here, '../../web/dist'));
    await app.listen({ port: config.port, host: config.host });
    closers.push(() => app.close());
    // the built-in login site runs beside the product unless another provider is configured
    if (!process.env.SSO_ISSUER) {
      const sso = await createBuiltInSso(deps);
      await sso.listen(config.ssoPort, config.host);
      closers.push(() => sso.close());
      console.log(`CADCloud login site: ${config.ssoIssuer}`);
    }
    console.log(`CADCloud is running at ${config.publicUrl}  (data in ${config.dataDir})`);
  } else {
    // probes and job metrics of the worker (its jobs are counted here, not by the web processes)
    if (config.workerPort) {
      const probe = Fastify({ logger: false });
      await probe.register(observabilityRoutes, { deps });
      await probe.listen({ port: config.workerPort, host: config.host });
      closers.push(() => probe.close());
    }
    console.log('CADCloud worker is running');
  }

  const shutdown = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await deps.db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

// A stray rejection is a bug to fix, not a reason to drop every other user's upload: log it loudly, keep serving.
process.on('unhandledRejection', (err) => console.error('unhandled rejection (please report):', err));

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
