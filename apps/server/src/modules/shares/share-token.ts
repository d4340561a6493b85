import { createHmac } from 'node:crypto';
import { sameText } from '../../infra/http/same-text.ts';

/**
 * Share tokens: what extraction (or a group membership) hands out, `base64url({shareId, exp, uid?}).HMAC`. A token
 * only proves the code was given (or, with `uid`, that this member opened the group's share: such a token is the
 * member's alone); the share itself is read again on every use, so a cancel takes effect at once.
 */
export function createShareTokens(secret: () => string, now: () => number) {
  const sign = (body: string) => createHmac('sha256', secret()).update(body).digest('base64url');
  return {
    issue(shareId: string, exp: number, uid?: string): string {
      const body = Buffer.from(JSON.stringify({ shareId, exp, ...(uid ? { uid } : {}) })).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** The share id (and bound user) of a genuine, unexpired token; undefined for anything else. */
    verify(token: string | undefined): { shareId: string; uid?: string } | undefined {
      if (!token) return undefined;
      const [body, mac] = token.split('.');
      if (!body || !mac || !sameText(mac, sign(body))) return undefined;
      try {
        const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { shareId?: unknown; exp?: unknown; uid?: unknown };
        if (typeof p.shareId !== 'string' || typeof p.exp !== 'number' || p.exp <= now()) return undefined;
        return typeof p.uid === 'string' ? { shareId: p.shareId, uid: p.uid } : { shareId: p.shareId };
      } catch {
        return undefined;
      }
    },
  };
}
