import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

/** A holder renews its lease this often; a lease not renewed for LEASE_MS (its process died) is taken over. */
const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const POLL_MS = 25;
/** far longer than any change of one file takes; a waiter past it fails instead of hanging its request */
const WAIT_MS = 120_000;

/**
 * One change at a time per file, in every process sharing the database: a version's number, the file's pointer
 * and the blob references it moves are read-then-write, and a second server doing the same at the same moment
 * would number alike (refused by the unique index after the bytes were stored) or release the old bytes twice.
 * Calls in this process queue in memory first, so only one of them at a time polls for the row.
 */
export function createFileLock(db: Kysely<Database>) {
  const local = new Map<string, Promise<unknown>>();

  async function acquire(itemId: string, owner: string) {
    const end = Date.now() + WAIT_MS;
    for (;;) {
      const now = Date.now();
      await db.deleteFrom('file_locks').where('item_id', '=', itemId).where('expires_at', '<', now).execute();
      const r = await db.insertInto('file_locks').values({ item_id: itemId, owner, expires_at: now + LEASE_MS }).onConflict((oc) => oc.column('item_id').doNothing()).executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0n) === 1) return;
      if (now > end) throw new Error(`file ${itemId}: its lock was not free within ${WAIT_MS} ms`);
      await new Promise((res) => setTimeout(res, POLL_MS));
    }
  }

  async function held<T>(itemId: string, fn: () => Promise<T>): Promise<T> {
    const owner = randomBytes(8).toString('hex');
    await acquire(itemId, owner);
    const renew = setInterval(() => {
      db.updateTable('file_locks').set({ expires_at: Date.now() + LEASE_MS }).where('item_id', '=', itemId).where('owner', '=', owner).execute().catch((e) => console.error(`file lock ${itemId}: not renewed`, e));
    }, RENEW_MS);
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await db.deleteFrom('file_locks').where('item_id', '=', itemId).where('owner', '=', owner).execute().catch((e) => console.error(`file lock ${itemId}: not released (expires by itself)`, e));
    }
  }

  return async function withFileLock<T>(itemId: string, fn: () => Promise<T>): Promise<T> {
    const prev = local.get(itemId) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(() => held(itemId, fn));
    const tail = run.catch(() => undefined);
    local.set(itemId, tail);
    try {
      return await run;
    } finally {
      if (local.get(itemId) === tail) local.delete(itemId);
    }
  };
}
