import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const TTL_MS = 24 * 3600_000;

export interface PendingRegistration {
  email: string;
  name: string;
  /** scrypt hash of the chosen password: the password itself never travels in the link */
  passwordHash: string;
}

/**
 * The registration waiting for its mailbox to be proved, carried in the link we mail (AES-256-GCM under a key
 * derived from the login site's cookie key): nothing is stored until the link is opened, and nobody can read
 * or forge it. It is single-use by nature: once the account exists, the same link finds the address taken.
 */
export function createRegistrationTokens(secret: string, now: () => number = Date.now) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'cadcloud-sso', 'registration link', 32));
  return {
    seal(p: PendingRegistration): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify({ ...p, exp: now() + TTL_MS }), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    /** The registration, or null for a link that was altered, made with another key or is older than a day. */
    open(token: string): PendingRegistration | null {
      try {
        const raw = Buffer.from(token, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const p = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as PendingRegistration & { exp: number };
        return p.exp > now() ? { email: p.email, name: p.name, passwordHash: p.passwordHash } : null;
      } catch {
        return null;
      }
    },
  };
}
