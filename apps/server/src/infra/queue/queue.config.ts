import { defineConfig, envInt, envOptionalString, envString } from '../config/config.ts';

export const queueConfig = defineConfig({
  redisUrl: {
    env: 'REDIS_URL',
    schema: envOptionalString().refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must start with redis://'),
    doc: 'redis://host:port selects BullMQ; unset keeps jobs in the database',
  },
  redisPrefix: { env: 'REDIS_PREFIX', schema: envString('cadcloud'), doc: 'key prefix in Redis, so several installations can share one server' },
  jobLeaseMs: {
    env: 'JOB_LEASE_MS',
    schema: envInt(20_000, 2000, 600_000),
    doc: 'a running job holds its lease this long and renews it while it runs; a killed worker\'s job is taken again within about this (BullMQ: 5/4 of it)',
  },
});
