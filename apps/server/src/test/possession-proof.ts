/**
 * Test helper: what the web client does for instant upload of bytes stored for someone else (contracts
 * transfer.ts) — read the challenge's ranges of the local bytes and hash them after the nonce.
 *   const proof = proveRanges(bytes, answer.bizData.possession)   // send { possession: { token, proof } }
 */
import { createHash } from 'node:crypto';

export type TestChallenge = { token: string; nonce: string; ranges: { start: number; length: number }[] };

export function proveRanges(bytes: Buffer, c: TestChallenge): string {
  const h = createHash('md5').update(Buffer.from(c.nonce, 'utf8'));
  for (const r of c.ranges) h.update(bytes.subarray(r.start, r.start + r.length));
  return h.digest('hex');
}

/** The `possession` field answering challenge `c` with `bytes`. */
export const possessionFor = (bytes: Buffer, c: TestChallenge) => ({ token: c.token, proof: proveRanges(bytes, c) });
