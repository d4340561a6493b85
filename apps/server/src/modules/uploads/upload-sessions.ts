import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Insertable, Kysely } from 'kysely';
import type { AppDeps } from '../../app.deps.ts';
import type { Database } from '../../infra/db/schema.ts';
import { serializedTransaction } from '../../infra/db/serialized-transaction.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createQuotaRepository } from '../quota/quota.repository.ts';
import { uploadsDir } from './upload-temp.ts';

/** A direct (S3) session's presigned PUT lives an hour: it is not swept before that, however idle. */
const DIRECT_SESSION_MIN_MS = 2 * 3600_000;

export function sessionPartPath(dataDir: string, uploadId: string) {
  return path.join(uploadsDir(dataDir), `session-${uploadId.replace(/[^A-Za-z0-9_-]/g, '')}.part`);
}

/**
 * Open upload sessions and the quota they hold (issue 14 item 9: ten unfinished 45 MB uploads put 450 MB on a
 * 50 MB account's disk). A chunk is written only after its bytes are held: users.storage_reserved grows within the
 * quota (storage_used + storage_reserved <= storage_quota, one conditional UPDATE) in the same transaction as the
 * session's own `reserved`, so the user's total is always the sum of the sessions' holds, in every process and on
 * both databases. Completing turns the hold into used storage in one UPDATE; dropping or expiring a session gives
 * it back. The per-user transaction (serializedTransaction) also makes "count open sessions, then open one" exact.
 */
export function createUploadSessions(deps: Pick<AppDeps, 'db' | 'config'>) {
  const lockKey = (uid: string) => `uploads:${uid}`;
  const inTx = <T>(uid: string, fn: (t: Kysely<Database>) => Promise<T>) => serializedTransaction(deps.db, lockKey(uid), fn);

  /** Removes the session row and gives back its hold (one transaction); false when it was gone already. */
  async function dropRow(t: Kysely<Database>, uid: string, id: string, olderThan?: number): Promise<boolean> {
    const s = await t.selectFrom('upload_sessions').select(['reserved', 'updated_at']).where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    // touched since the sweep listed it: still in use
    if (!s || (olderThan !== undefined && Number(s.updated_at) >= olderThan)) return false;
    await t.deleteFrom('upload_sessions').where('id', '=', id).execute();
    if (Number(s.reserved) > 0) await createQuotaRepository(t).releaseHold(uid, Number(s.reserved));
    return true;
  }

  return {
    /**
     * Opens a session unless the user has UPLOAD_SESSIONS_PER_USER open already (counted and inserted in one
     * per-user transaction, so parallel inits cannot all squeeze past the limit).
     */
    async open(row: Omit<Insertable<Database['upload_sessions']>, 'reserved'> & { kind: 'chunked' | 'direct' }) {
      const max = deps.config.uploadSessionsPerUser;
      await inTx(row.uid, async (t) => {
        const open = await t.selectFrom('upload_sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', row.uid).executeTakeFirstOrThrow();
        if (Number(open.n) >= max) throw appError('upload.tooManySessions', [String(max)]);
        await t.insertInto('upload_sessions').values({ ...row, reserved: 0 }).execute();
      });
    },

    /**
     * Holds the session's quota up to byte `end` before a chunk ending there is written (a chunk sent again holds
     * nothing more). Refused with upload.noSpace when the user's used + held bytes would pass the quota. Also marks
     * the session active, so the idle sweep leaves it alone while chunks arrive.
     */
    async holdUpTo(uid: string, id: string, end: number) {
      await inTx(uid, async (t) => {
        const s = await t.selectFrom('upload_sessions').select(['reserved', 'size']).where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
        if (!s) throw appError('item.notFound');
        const target = Math.min(end, Number(s.size));
        const more = target - Number(s.reserved);
        if (more > 0) {
          if (!(await createQuotaRepository(t).tryHold(uid, more))) throw appError('upload.noSpace');
          await t.updateTable('upload_sessions').set({ reserved: target, updated_at: Date.now() }).where('id', '=', id).execute();
        } else {
          await t.updateTable('upload_sessions').set({ updated_at: Date.now() }).where('id', '=', id).execute();
        }
      });
    },

    /**
     * The finished upload's hold becomes `size` bytes of used storage (one UPDATE of the user's row, in the session's
     * transaction): the quota check of a completed upload never competes with its own chunks. Without a hold (a
     * second completion, a session from before holds existed) it is an ordinary reservation.
     */
    async convertHold(uid: string, id: string, size: number) {
      await inTx(uid, async (t) => {
        const quota = createQuotaRepository(t);
        const s = await t.selectFrom('upload_sessions').select('reserved').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
        const held = Number(s?.reserved ?? 0);
        if (!(await quota.tryConvertHold(uid, held, size))) throw appError('upload.noSpace');
        if (s) await t.updateTable('upload_sessions').set({ reserved: 0 }).where('id', '=', id).execute();
      });
    },

    /** Gives back the hold but keeps the session (an upload that becomes a version, whose storage the versions module counts). */
    async releaseHold(uid: string, id: string) {
      await inTx(uid, async (t) => {
        const s = await t.selectFrom('upload_sessions').select('reserved').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
        if (!s || Number(s.reserved) <= 0) return;
        await createQuotaRepository(t).releaseHold(uid, Number(s.reserved));
        await t.updateTable('upload_sessions').set({ reserved: 0 }).where('id', '=', id).execute();
      });
    },

    /** Ends a session: row and hold in one transaction, then its part file. */
    async drop(uid: string, id: string) {
      await inTx(uid, (t) => dropRow(t, uid, id));
      await fsp.rm(sessionPartPath(deps.config.dataDir, id), { force: true });
    },

    /**
     * Sessions idle longer than UPLOAD_SESSION_IDLE_MINUTES go with their part files and holds (direct ones not
     * before their presigned URL is long dead). Safe in several processes at once: each removal re-checks, in its
     * transaction, that the session is still there and still idle.
     */
    async expireIdle(now = Date.now()) {
      const idleCutoff = now - deps.config.uploadSessionIdleMinutes * 60_000;
      const directCutoff = Math.min(idleCutoff, now - DIRECT_SESSION_MIN_MS);
      const stale = await deps.db
        .selectFrom('upload_sessions')
        .select(['id', 'uid', 'kind'])
        .where('updated_at', '<', idleCutoff)
        .orderBy('updated_at')
        .limit(1000)
        .execute();
      let removed = 0;
      for (const s of stale) {
        const cutoff = s.kind === 'direct' ? directCutoff : idleCutoff;
        if (await inTx(s.uid, (t) => dropRow(t, s.uid, s.id, cutoff))) {
          removed++;
          await fsp.rm(sessionPartPath(deps.config.dataDir, s.id), { force: true });
        }
      }
      return removed;
    },
  };
}

export type UploadSessions = ReturnType<typeof createUploadSessions>;
