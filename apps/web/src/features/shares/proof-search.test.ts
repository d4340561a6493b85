import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { leadingZeroBits, proofMessage } from '@cadcloud/contracts';
import { createProofSearch } from './proof-search.ts';
import { solveProof } from './proof-of-work.ts';

const zeros = (challenge: string, proof: string) => leadingZeroBits(createHash('sha256').update(proofMessage(challenge, proof)).digest());

describe('proof of work of share extraction (the share page)', () => {
  it('finds proofs the server accepts, searching disjoint candidates per worker', () => {
    const challenge = 'eyJzIjoieCIsImIiOjEyfQ.c2lnbmF0dXJl';
    const a = createProofSearch(challenge, 12);
    let proof: string | undefined;
    for (let n = 0; !proof; n += 5000) proof = a.run(n, 1, 5000);
    expect(proof).toMatch(/^[0-9a-z]+$/);
    expect(zeros(challenge, proof)).toBeGreaterThanOrEqual(12);
    // the same candidates, split over two workers, find proofs too (each a valid one)
    const evens = createProofSearch(challenge, 12);
    const odds = createProofSearch(challenge, 12);
    let e: string | undefined;
    let o: string | undefined;
    for (let n = 0; !e || !o; n += 10_000) {
      e ??= evens.run(n, 2, 5000);
      o ??= odds.run(n + 1, 2, 5000);
    }
    expect(parseInt(e, 36) % 2).toBe(0);
    expect(parseInt(o, 36) % 2).toBe(1);
    for (const p of [e, o]) expect(zeros(challenge, p)).toBeGreaterThanOrEqual(12);
  });

  it('solves on the page where no worker exists, reporting progress', async () => {
    const seen: number[] = [];
    const proof = await solveProof('abc.def', 14, (p) => seen.push(p.tried));
    expect(zeros('abc.def', proof)).toBeGreaterThanOrEqual(14);
    expect(seen.every((n, i) => i === 0 || n > seen[i - 1])).toBe(true);
  });
});
