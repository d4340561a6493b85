import { createHash, createHmac, randomBytes } from 'node:crypto';
import { leadingZeroBits, proofMessage } from '@cadcloud/contracts';
import { sameText } from '../../infra/http/same-text.ts';

/** A challenge is answered within this long (a browser needs seconds; a slow phone under attack maybe minutes). */
export const CHALLENGE_TTL_MS = 15 * 60_000;

export interface VerifiedProof {
  /** single use: the repository remembers it until `expiresAt` */
  id: string;
  bits: number;
  expiresAt: number;
}

/**
 * Proof-of-work challenges of share extraction: `base64url({s: shareId, b: bits, e: expiry, n: nonce}).HMAC`, so the
 * server keeps nothing until one is used. A proof is a string p with SHA-256(`${challenge}:${p}`) starting with
 * `bits` zero bits: finding one costs 2^bits hashes on average, checking it one.
 */
export function createShareChallenges(secret: () => string, now: () => number) {
  const sign = (body: string) => createHmac('sha256', secret()).update(body).digest('base64url');
  return {
    issue(shareId: string, bits: number) {
      const expiresAt = now() + CHALLENGE_TTL_MS;
      const body = Buffer.from(JSON.stringify({ s: shareId, b: bits, e: expiresAt, n: randomBytes(12).toString('base64url') })).toString('base64url');
      return { challenge: `${body}.${sign(body)}`, bits, expiresAt };
    },
    /** The challenge's id, difficulty and expiry when it is genuine, of this share, unexpired, and the proof solves it. */
    verify(challenge: string | undefined, proof: string | undefined, shareId: string): VerifiedProof | undefined {
      if (!challenge || !proof || !/^[0-9a-z]{1,32}$/.test(proof)) return undefined;
      const [body, mac] = challenge.split('.');
      if (!body || !mac || !sameText(mac, sign(body))) return undefined;
      let p: { s?: unknown; b?: unknown; e?: unknown; n?: unknown };
      try {
        p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      if (p.s !== shareId || typeof p.b !== 'number' || typeof p.e !== 'number' || typeof p.n !== 'string' || p.e <= now()) return undefined;
      const hash = createHash('sha256').update(proofMessage(challenge, proof)).digest();
      if (leadingZeroBits(hash) < p.b) return undefined;
      return { id: p.n, bits: p.b, expiresAt: p.e };
    },
  };
}
