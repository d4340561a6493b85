import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema.ts';
import type { JobQueue } from '../infra/queue/queue.types.ts';

/** The instance at a glance (`admin stats`): accounts, the drive, stored bytes and the job queue. */
export async function instanceStats(db: Kysely<Database>, queue: JobQueue) {
  const count = (n: unknown) => Number(n ?? 0);
  const users = await db.selectFrom('users').select([db.fn.countAll().as('n'), db.fn.sum<number>('storage_used').as('used')]).executeTakeFirstOrThrow();
  const disabled = await db.selectFrom('users').select(db.fn.countAll().as('n')).where('disabled_at', 'is not', null).executeTakeFirstOrThrow();
  const live = (kind: number) => db.selectFrom('items').select(db.fn.countAll().as('n')).where('kind', '=', kind).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  const binned = await db.selectFrom('items').select(db.fn.countAll().as('n')).where('deleted_at', 'is not', null).executeTakeFirstOrThrow();
  const blobs = await db.selectFrom('blobs').select([db.fn.countAll().as('n'), db.fn.sum<number>('size').as('bytes')]).executeTakeFirstOrThrow();
  return {
    users: { total: count(users.n), disabled: count(disabled.n) },
    files: count((await live(1)).n),
    folders: count((await live(0)).n),
    inTrash: count(binned.n),
    // what users are charged for (a file counted for each owner), and what is stored once per content
    bytes: { charged: count(users.used), stored: count(blobs.bytes), blobs: count(blobs.n) },
    jobs: await queue.counts(),
  };
}
