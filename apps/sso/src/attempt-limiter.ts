import { randomBytes } from 'node:crypto';
import type { SsoDb } from './sso-db.ts';
import { clientKey } from './client-key.ts';

const DAY = 24 * 3600_000;

/**
 * Counts attempts per key in a sliding window, in the database: every server process, the login form and the
 * client-token endpoint share one count, and a restart does not lift a lockout. An attempt is recorded
 * *before* the password is checked, so requests sent in parallel cannot all pass the check while the first
 * ones are still being verified; a success clears the key.
 */
export function createAttemptLimiter(db: SsoDb, o: { max: number; windowMs: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  const count = async (key: string, since: number) => {
    const r = await db.selectFrom('sso_attempts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('key', '=', key).where('at', '>', since).executeTakeFirstOrThrow();
    return Number(r.n);
  };
  return {
    /** Records one attempt under `key`; false (and not recorded) when the key already used up its window. */
    async take(key: string): Promise<boolean> {
      const at = now();
      const id = randomBytes(12).toString('base64url');
      await db.insertInto('sso_attempts').values({ id, key, at }).execute();
      // counted after our own row is in: of N parallel attempts only the first `max` see a count within the limit
      if ((await count(key, at - o.windowMs)) <= o.max) {
        // now and then, rows too old to matter to anyone go
        if (Math.random() < 0.02) await db.deleteFrom('sso_attempts').where('at', '<', at - DAY).execute();
        return true;
      }
      await db.deleteFrom('sso_attempts').where('id', '=', id).execute();
      return false;
    },
    /** A success: the key starts afresh. */
    async reset(key: string) {
      await db.deleteFrom('sso_attempts').where('key', '=', key).execute();
    },
  };
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;

/** The e-mail as the accounts store it: spaces around it and letter case never make another key. */
export function normalizeEmail(email: string): string {
  return (email ?? '').trim().toLowerCase();
}

/** Sign-in attempts: per account and client, the same key on the login form and the client-token endpoint. */
export function loginAttemptKey(email: string, address: string | undefined): string {
  return `login|${normalizeEmail(email)}|${clientKey(address)}`;
}
