import { createHash, randomBytes } from 'node:crypto';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createSessionsRepository } from './sessions.repository.ts';

/**
 * Session tickets: the random ticket travels in the `ticket` cookie or the `utoken` query parameter;
 * only its SHA-256 is stored, so a database leak does not hand out live sessions.
 */
export const TICKET_COOKIE = 'ticket';

/** Every cookie the product sets: never read by scripts, sent on top-level navigation, Secure behind https (config). */
export function cookieOptions(config: Pick<AppDeps['config'], 'cookieSecure'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure };
}

export function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

export function createSessionsService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const repo = createSessionsRepository(deps.db);
  const ttlMs = deps.config.sessionTtlDays * 24 * 3600 * 1000;
  return {
    /** Creates a session and returns the ticket (shown once, never stored in clear). */
    async createSession(userId: string, clientType: string): Promise<{ ticket: string; expiresAt: number }> {
      // a disabled account signs in nowhere (browser, client token): the one place every session is made
      const user = await deps.db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
      if (user?.disabled_at != null) throw appError('auth.accountDisabled');
      const ticket = randomBytes(32).toString('base64url');
      const now = Date.now();
      const expiresAt = now + ttlMs;
      await repo.insert({ ticket_hash: hashTicket(ticket), user_id: userId, client_type: clientType, created_at: now, expires_at: expiresAt });
      return { ticket, expiresAt };
    },
    async resolveSession(ticket: string | undefined | null) {
      if (!ticket) return null;
      return (await repo.findUserByTicketHash(hashTicket(ticket), Date.now())) ?? null;
    },
    async endSession(ticket: string) {
      await repo.delete(hashTicket(ticket));
    },
    /**
     * The account's password was reset or changed: every ticket, `utoken` and client token issued before
     * ends, wherever it was used.
     */
    async endAllSessionsOfAccount(ssoSub: string) {
      await repo.deleteAllOfSsoSub(ssoSub);
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
export type SessionUser = NonNullable<Awaited<ReturnType<SessionsService['resolveSession']>>>;
