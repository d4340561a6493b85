/**
 * Test helper: what the share page's web worker does, in Node — ask share/challenge, find a proof, extract.
 *   const r = await extractWithProof(t, { rand, code }, '10.0.0.1')   // the envelope of share/extract
 */
import { createHash } from 'node:crypto';
import { leadingZeroBits, proofMessage } from '@cadcloud/contracts';
import type { TestApp } from './fixtures.ts';

/** The smallest counter (base 36) whose hash has `bits` leading zero bits, and how many hashes that took. */
export function solveProof(challenge: string, bits: number): { proof: string; hashes: number } {
  for (let n = 0; ; n++) {
    const proof = n.toString(36);
    if (leadingZeroBits(createHash('sha256').update(proofMessage(challenge, proof)).digest()) >= bits) return { proof, hashes: n + 1 };
  }
}

export async function postExtract(t: TestApp, data: Record<string, unknown>, ip: string) {
  // the socket's address (not X-Forwarded-For): what the server takes for the client whatever proxies it trusts
  const r = await t.app.inject({ method: 'POST', url: '/cloud/v5/share/extract', remoteAddress: ip, payload: { data, clientInfo: { language: 'en' } } });
  return r.json();
}

/** share/challenge, a proof when the share asks for one, share/extract from `ip`. */
export async function extractWithProof(t: TestApp, o: { rand: string; code: string; password?: string }, ip: string) {
  const c = (await t.call('/cloud/v5/share/challenge', { rand: o.rand })).bizData as { challenge: string; bits: number };
  const proof = c.bits > 0 ? solveProof(c.challenge, c.bits).proof : undefined;
  return postExtract(t, { rand: o.rand, code: o.code, password: o.password ?? '', ...(proof ? { challenge: c.challenge, proof } : {}) }, ip);
}
