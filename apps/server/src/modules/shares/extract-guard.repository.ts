import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

/**
 * The counters of the extraction guard (share_extract_clients, share_extract_budget, share_extract_challenges), in
 * the database so every server process sees the same ones. Each step that decides is one atomic statement, so
 * parallel attempts, from any process, cannot slip past a limit together.
 */
export function createExtractGuardRepository(db: Kysely<Database>) {
  const C = sql.ref('share_extract_clients');
  const B = sql.ref('share_extract_budget');
  return {
    /**
     * Takes the client's turn: when the client may try now (next_at passed), holds it for `holdMs` (a parallel
     * attempt of the same client waits) and answers its failure count (0 when the last failure is older than
     * `forgetMs`); undefined when the client must wait.
     */
    async claimClient(shareId: string, client: string, now: number, holdMs: number, forgetMs: number): Promise<{ failures: number } | undefined> {
      const r = await db
        .insertInto('share_extract_clients')
        .values({ share_id: shareId, client, failures: 0, next_at: now + holdMs, last_failure_at: 0 })
        .onConflict((oc) =>
          oc
            .columns(['share_id', 'client'])
            .doUpdateSet({
              failures: sql`case when ${C}.last_failure_at <= ${now - forgetMs} then 0 else ${C}.failures end`,
              next_at: now + holdMs,
            })
            .where('share_extract_clients.next_at', '<=', now),
        )
        .returning('failures')
        .executeTakeFirst();
      return r && { failures: Number(r.failures) };
    },
    /** When a waiting client may try again. */
    async clientNextAt(shareId: string, client: string): Promise<number> {
      const r = await db.selectFrom('share_extract_clients').select('next_at').where('share_id', '=', shareId).where('client', '=', client).executeTakeFirst();
      return Number(r?.next_at ?? 0);
    },
    /** A wrong code: the new count and when the client's next attempt is answered. */
    async clientFailed(shareId: string, client: string, failures: number, now: number, nextAt: number) {
      await db.updateTable('share_extract_clients').set({ failures, last_failure_at: now, next_at: nextAt }).where('share_id', '=', shareId).where('client', '=', client).execute();
    },
    /** An attempt that compared no code (no proof, an error): the client's turn is free again, nothing counted. */
    async releaseClient(shareId: string, client: string, now: number) {
      await db.updateTable('share_extract_clients').set({ next_at: now }).where('share_id', '=', shareId).where('client', '=', client).where('next_at', '>', now).execute();
    },
    async clearClient(shareId: string, client: string) {
      await db.deleteFrom('share_extract_clients').where('share_id', '=', shareId).where('client', '=', client).execute();
    },

    /**
     * Counts one attempt against the share before its code is compared (a success or a refused proof takes it back)
     * and answers the share's failures before it: those of the current window and the previous one. Windows are
     * `windowMs` long and follow each other from the share's first counted attempt.
     */
    async countShareAttempt(shareId: string, now: number, windowMs: number): Promise<number> {
      const rolled = now - windowMs;
      const gone = now - 2 * windowMs;
      const r = await db
        .insertInto('share_extract_budget')
        .values({ share_id: shareId, window_start: now, failures: 1, prev_failures: 0 })
        .onConflict((oc) =>
          oc.column('share_id').doUpdateSet({
            prev_failures: sql`case when ${B}.window_start <= ${gone} then 0 when ${B}.window_start <= ${rolled} then ${B}.failures else ${B}.prev_failures end`,
            failures: sql`case when ${B}.window_start <= ${rolled} then 1 else ${B}.failures + 1 end`,
            window_start: sql`case when ${B}.window_start <= ${gone} then ${now} when ${B}.window_start <= ${rolled} then ${B}.window_start + ${windowMs} else ${B}.window_start end`,
          }),
        )
        .returning(['failures', 'prev_failures'])
        .executeTakeFirstOrThrow();
      return Number(r.failures) + Number(r.prev_failures) - 1;
    },
    async uncountShareAttempt(shareId: string) {
      await db.updateTable('share_extract_budget').set({ failures: sql`case when failures > 0 then failures - 1 else 0 end` }).where('share_id', '=', shareId).execute();
    },
    /** The share's failures in the current and previous window at `now` (a read: what a new challenge must prove). */
    async shareFailures(shareId: string, now: number, windowMs: number): Promise<number> {
      const r = await db.selectFrom('share_extract_budget').selectAll().where('share_id', '=', shareId).executeTakeFirst();
      if (!r) return 0;
      const start = Number(r.window_start);
      if (start <= now - 2 * windowMs) return 0;
      if (start <= now - windowMs) return Number(r.failures);
      return Number(r.failures) + Number(r.prev_failures);
    },

    /** Marks a challenge used; false when it was used before. Forgets challenges that have expired. */
    async useChallenge(id: string, shareId: string, expiresAt: number, now: number): Promise<boolean> {
      await db.deleteFrom('share_extract_challenges').where('expires_at', '<', now).execute();
      const r = await db.insertInto('share_extract_challenges').values({ id, share_id: shareId, expires_at: expiresAt }).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
      return !!r;
    },
  };
}

export type ExtractGuardRepository = ReturnType<typeof createExtractGuardRepository>;
