import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import type { PossessionChallenge, PossessionProof } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { sameText } from '../../infra/http/same-text.ts';
import { createBlobsRepository } from './blobs.repository.ts';

/** A challenge is answered within this long: reading a few KB of a local file takes the browser milliseconds. */
export const POSSESSION_TTL_MS = 10 * 60_000;
/** Ranges asked of a file larger than RANGE_COUNT × RANGE_LENGTH; a smaller file is asked whole. */
export const RANGE_COUNT = 8;
export const RANGE_LENGTH = 4096;
/** A checked proof is answered no sooner than this, stored bytes or not (well above reading 8 ranges, even from S3). */
export const VERIFY_FLOOR_MS = 150;

type Range = { start: number; length: number };

/**
 * Random ranges of a file of `size` bytes: the whole file when it is small, otherwise RANGE_COUNT ranges of
 * RANGE_LENGTH at random offsets (the first and last included: headers and trailers are where files differ least,
 * the random ones are what someone holding only part of the file cannot answer).
 */
export function rangesFor(size: number): Range[] {
  if (size <= RANGE_COUNT * RANGE_LENGTH) return [{ start: 0, length: size }];
  const last = size - RANGE_LENGTH;
  const starts = [0, last];
  while (starts.length < RANGE_COUNT) starts.push(randomInt(0, last + 1));
  return starts.map((start) => ({ start, length: RANGE_LENGTH }));
}

/** The proof over bytes read in range order (contracts transfer.ts: MD5 of the nonce, then the ranges). */
export function proofOf(nonce: string, rangeBytes: Iterable<Uint8Array>): string {
  const h = createHash('md5').update(nonce, 'utf8');
  for (const b of rangeBytes) h.update(b);
  return h.digest('hex');
}

/**
 * Challenges are `base64url({u, m, s, n, r, e}).HMAC`: bound to the caller, the MD5 and size they asked about, the
 * nonce and ranges, and an expiry, so the server keeps nothing between the two calls. A proof may be sent again
 * until the challenge expires; that is harmless: whoever computed it held the bytes.
 */
export function createPossessionChallenges(secret: () => string, now: () => number = Date.now) {
  const sign = (body: string) => createHmac('sha256', secret()).update(`possession:${body}`).digest('base64url');
  return {
    issue(uid: string, md5: string, size: number): PossessionChallenge {
      const expiresAt = now() + POSSESSION_TTL_MS;
      const nonce = randomBytes(16).toString('base64url');
      const ranges = rangesFor(size);
      const body = Buffer.from(JSON.stringify({ u: uid, m: md5, s: size, n: nonce, r: ranges.map((x) => [x.start, x.length]), e: expiresAt })).toString('base64url');
      return { token: `${body}.${sign(body)}`, nonce, ranges, expiresAt };
    },
    /** The nonce and ranges of a genuine, unexpired challenge issued to `uid` for exactly these bytes; else undefined. */
    open(token: string, uid: string, md5: string, size: number): { nonce: string; ranges: Range[] } | undefined {
      const [body, mac, extra] = token.split('.');
      if (!body || !mac || extra !== undefined || !sameText(mac, sign(body))) return undefined;
      let p: { u?: unknown; m?: unknown; s?: unknown; n?: unknown; r?: unknown; e?: unknown };
      try {
        p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      if (p.u !== uid || p.m !== md5 || p.s !== size || typeof p.n !== 'string' || typeof p.e !== 'number' || p.e <= now() || !Array.isArray(p.r)) return undefined;
      const ranges = (p.r as unknown[]).map((x) => (Array.isArray(x) ? { start: Number(x[0]), length: Number(x[1]) } : { start: -1, length: 0 }));
      if (!ranges.length || ranges.some((x) => !Number.isInteger(x.start) || !Number.isInteger(x.length) || x.start < 0 || x.length < 1 || x.start + x.length > size)) return undefined;
      return { nonce: p.n, ranges };
    },
  };
}

export type InstantDecision = { reuse: true } | { reuse: false; possession?: PossessionChallenge };

/**
 * Whether an instant upload may place the stored bytes of (md5, size) in `uid`'s drive.
 *
 * - Bytes the caller already owns (a file, trash included; a kept version; a font) are reused at once: they prove
 *   nothing new and reveal nothing about anyone else.
 * - Otherwise only with a right proof of possession. Without one the answer is a fresh challenge, whether or not the
 *   bytes are stored; with a wrong one, or one for bytes that are not stored (or stored with another size), it is
 *   a plain "not stored" — the same answer either way, so presence is never told.
 */
export function createPossessionCheck(deps: Pick<AppDeps, 'db' | 'storage' | 'config'>) {
  const repo = createBlobsRepository(deps.db);
  let secret: string | undefined;
  const challenges = createPossessionChallenges(() => (secret ??= persistentSecret(deps.config.dataDir, 'upload-possession')));

  /** The proof the stored object gives for these ranges, or null when it is not stored with this size. */
  async function storedProof(md5: string, size: number, nonce: string, ranges: Range[]): Promise<string | null> {
    const blob = await repo.find(md5);
    if (!blob || Number(blob.size) !== size) return null;
    const parts = await Promise.all(ranges.map(async (r) => {
      const chunks: Buffer[] = [];
      for await (const c of await deps.storage.get(blobKey(md5), { start: r.start, end: r.start + r.length - 1 })) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    }));
    if (parts.some((b, i) => b.length !== ranges[i].length)) return null;
    return proofOf(nonce, parts);
  }

  return {
    challenges,
    async decide(uid: string, md5: string, size: number, proof?: PossessionProof): Promise<InstantDecision> {
      if (await repo.heldBy(uid, md5, size)) return { reuse: true };
      if (!proof) return { reuse: false, possession: challenges.issue(uid, md5, size) };
      const opened = challenges.open(proof.token, uid, md5, size);
      if (!opened) return { reuse: false };
      // reading the ranges takes time only when the bytes are stored (on S3 several GETs): every checked proof is
      // answered no sooner than VERIFY_FLOOR_MS, so how long the answer takes does not tell either
      const started = Date.now();
      const expected = await storedProof(md5, size, opened.nonce, opened.ranges).catch(() => null);
      const rest = VERIFY_FLOOR_MS - (Date.now() - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      return expected !== null && sameText(expected, proof.proof.toLowerCase()) ? { reuse: true } : { reuse: false };
    },
  };
}

export type PossessionCheck = ReturnType<typeof createPossessionCheck>;
