import { createHmac, timingSafeEqual } from 'node:crypto';

/** Constant-time text comparison (codes, passwords, MACs): how long it takes says nothing about how much matched. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Share tokens: what extraction (or a group membership) hands out, `base64url({shareId, exp}).HMAC`. A token only
 * proves the code was given; the share itself is read again on every use, so a cancel takes effect at once.
 */
export function createShareTokens(secret: () => string, now: () => number) {
  const sign = (body: string) => createHmac('sha256', secret()).update(body).digest('base64url');
  return {
    issue(shareId: string, exp: number): string {
      const body = Buffer.from(JSON.stringify({ shareId, exp })).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** The share id of a genuine, unexpired token; undefined for anything else. */
    verify(token: string | undefined): string | undefined {
      if (!token) return undefined;
      const [body, mac] = token.split('.');
      if (!body || !mac || !sameText(mac, sign(body))) return undefined;
      try {
        const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { shareId?: unknown; exp?: unknown };
        return typeof p.shareId === 'string' && typeof p.exp === 'number' && p.exp > now() ? p.shareId : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
