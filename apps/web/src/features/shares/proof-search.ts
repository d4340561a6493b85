import { sha256 } from '@noble/hashes/sha2';
import { leadingZeroBits } from '@cadcloud/contracts/share-extraction';

/**
 * The proof of work of share extraction (contracts share-extraction.ts): find p, written in base 36, with
 * SHA-256(`${challenge}:${p}`) starting with `bits` zero bits. The challenge's part of the hash is computed once and
 * copied for every candidate, so each try hashes only the last block.
 */
export function createProofSearch(challenge: string, bits: number) {
  const prefix = sha256.create().update(new TextEncoder().encode(`${challenge}:`));
  const digits = new Uint8Array(14);
  return {
    /** Tries n = first, first + step, … (`count` of them); the proof found, or undefined. */
    run(first: number, step: number, count: number): string | undefined {
      for (let i = 0, n = first; i < count; i++, n += step) {
        let len = 0;
        for (let v = n; ; v = Math.floor(v / 36)) {
          const d = v % 36;
          digits[digits.length - 1 - len++] = d < 10 ? 48 + d : 87 + d;
          if (v < 36) break;
        }
        const tail = digits.subarray(digits.length - len);
        if (leadingZeroBits(prefix.clone().update(tail).digest()) >= bits) return String.fromCharCode(...tail);
      }
      return undefined;
    },
  };
}
