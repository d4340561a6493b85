// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import type { PossessionProof } from '@cadcloud/contracts';
import { proveRanges, tryInstant } from './possession.ts';

const challenge = (ranges: { start: number; length: number }[]) => ({ token: 'tok', nonce: 'n-ü-1', ranges, expiresAt: Date.now() + 60_000 });

describe('proof of possession in the browser', () => {
  it('hashes the nonce then the asked ranges of the File, as contracts transfer.ts defines it', async () => {
    const bytes = randomBytes(100_000);
    const c = challenge([{ start: 0, length: 4096 }, { start: 95_904, length: 4096 }, { start: 50_000, length: 4096 }]);
    const want = createHash('md5').update(Buffer.from(c.nonce, 'utf8'));
    for (const r of c.ranges) want.update(bytes.subarray(r.start, r.start + r.length));
    expect(await proveRanges(new Blob([bytes]), c)).toBe(want.digest('hex'));
  });

  it('answers a challenge and asks again; no challenge, a wrong proof or a short file fall back to a normal upload', async () => {
    const file = new Blob([randomBytes(5000)]);
    const asked: (PossessionProof | undefined)[] = [];
    // placed at once (the caller's own bytes)
    expect(await tryInstant(file, async () => ({ exists: true }))).toBe(true);
    // challenge, then placed
    const placed = await tryInstant(file, async (p) => {
      asked.push(p);
      return p ? { exists: true } : { exists: false, possession: challenge([{ start: 0, length: 5000 }]) };
    });
    expect(placed).toBe(true);
    expect(asked[0]).toBeUndefined();
    expect(asked[1]).toEqual({ token: 'tok', proof: await proveRanges(file, challenge([{ start: 0, length: 5000 }])) });
    // challenge, proof refused (bytes not stored, or not these): upload
    expect(await tryInstant(file, async (p) => (p ? { exists: false } : { exists: false, possession: challenge([{ start: 0, length: 10 }]) }))).toBe(false);
    // no challenge: upload
    expect(await tryInstant(file, async () => ({ exists: false }))).toBe(false);
    // ranges beyond the local file: upload, without a second question
    let calls = 0;
    expect(await tryInstant(file, async () => (calls++, { exists: false, possession: challenge([{ start: 4000, length: 4096 }]) }))).toBe(false);
    expect(calls).toBe(1);
  });
});
