import { defineConfig, envOptionalString, envString } from '../config/config.ts';

export const queueConfig = defineConfig({
  redisUrl: {
    env: 'REDIS_URL',
    schema: envOptionalString().refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must start with redis://'),
    doc: 'redis://host:port selects BullMQ; unset keeps jobs in the database',
  },
  redisPrefix: { env: 'REDIS_PREFIX', schema: envString('cadcloud'), doc: 'key prefix in Redis, so several installations can share one server' },
});
