import { defineConfig, envOptionalString } from '../config/config.ts';

export const queueConfig = defineConfig({
  redisUrl: {
    env: 'REDIS_URL',
    schema: envOptionalString().refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must start with redis://'),
    doc: 'redis://host:port selects BullMQ; unset keeps jobs in the database',
  },
});
