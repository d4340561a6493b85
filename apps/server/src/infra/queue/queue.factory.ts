import type { Kysely } from 'kysely';
import type { AppConfig } from '../config/index.ts';
import type { Database } from '../db/schema.ts';
import type { JobQueue } from './queue.types.ts';
import { createDbQueue } from './db.queue.ts';
import { createBullmqQueue } from './bullmq.queue.ts';

/** BullMQ when REDIS_URL is set (workers may run in other processes), else durable jobs in the database. */
export function createQueue(config: AppConfig, db: Kysely<Database>): JobQueue {
  return config.redisUrl ? createBullmqQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix, leaseMs: config.jobLeaseMs }) : createDbQueue(db, { lockMs: config.jobLeaseMs });
}
