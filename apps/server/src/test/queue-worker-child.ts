/**
 * Test helper run as a child process: a worker on the queue the production factory builds from the environment
 * (JOB_LEASE_MS and the rest at their defaults unless set). It takes `t.hang` jobs, says `started <id>` and never
 * finishes them, so the test can kill it in the middle of one.
 *   env: DATABASE_URL (+ TEST_PG_SCHEMA), REDIS_URL, REDIS_PREFIX, JOB_LEASE_MS
 */
import { createDatabase } from '../infra/db/db.ts';
import { loadConfig } from '../infra/config/index.ts';
import { createQueue } from '../infra/queue/queue.factory.ts';

const config = loadConfig(process.env);
const db = createDatabase(config.databaseUrl, process.env.TEST_PG_SCHEMA ? { searchPath: process.env.TEST_PG_SCHEMA, poolSize: 2 } : undefined);
const queue = createQueue(config, db);
queue.register('t.hang', async (_p, ctx) => {
  console.log(`started ${ctx.id}`);
  await new Promise(() => undefined);
});
await queue.start();
console.log('worker ready');
