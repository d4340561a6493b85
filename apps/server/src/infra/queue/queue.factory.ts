import type { Kysely } from 'kysely';
import type { AppConfig } from '../config/index.ts';
import type { Database } from '../db/schema.ts';
import type { JobQueue } from './queue.types.ts';
import { createDbQueue } from './db.queue.ts';
import { createBullmqQueue } from './bullmq.queue.ts';

export function createQueue(config: AppConfig, db: Kysely<Database>): JobQueue {
  return config.redisUrl ? createBullmqQueue({ redisUrl: config.redisUrl }) : createDbQueue(db);
}
