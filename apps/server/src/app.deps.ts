import type { Kysely } from 'kysely';
import type { Database } from './infra/db/schema.ts';
import type { StorageDriver } from './infra/storage/storage.types.ts';
import type { JobQueue } from './infra/queue/queue.types.ts';
import type { Mailer } from './infra/mail/mail.types.ts';
import type { AppConfig } from './infra/config/index.ts';

/** Everything a module's service may use; built once in main.ts (or by a test) and passed down. */
export interface AppDeps {
  config: AppConfig;
  db: Kysely<Database>;
  storage: StorageDriver;
  queue: JobQueue;
  mailer: Mailer;
}
