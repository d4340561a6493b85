import { createProofSearch } from './proof-search.ts';

export interface ProofProgress {
  /** candidates tried so far */
  tried: number;
  /** the work expected on average (2^bits) */
  expected: number;
}

/**
 * Solves a share's proof-of-work challenge in web workers (up to 4, one core left for the page), so the page stays
 * responsive; where workers are missing it searches on the page in slices. Resolves with the proof.
 */
export function solveProof(challenge: string, bits: number, onProgress?: (p: ProofProgress) => void): Promise<string> {
  const expected = 2 ** bits;
  let tried = 0;
  const progress = (n: number) => {
    tried += n;
    onProgress?.({ tried, expected });
  };
  if (typeof Worker === 'undefined') return solveOnPage(challenge, bits, progress);
  const count = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
  return new Promise<string>((resolve, reject) => {
    const workers: Worker[] = [];
    const stop = () => workers.forEach((w) => w.terminate());
    for (let i = 0; i < count; i++) {
      const w = new Worker(new URL('./proof.worker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (e: MessageEvent<{ proof?: string; tried?: number }>) => {
        if (e.data.proof !== undefined) {
          stop();
          resolve(e.data.proof);
        } else progress(e.data.tried ?? 0);
      };
      w.onerror = (e) => {
        stop();
        reject(new Error(e.message || 'proof of work failed'));
      };
      w.postMessage({ challenge, bits, first: i, step: count });
      workers.push(w);
    }
  });
}

async function solveOnPage(challenge: string, bits: number, progress: (n: number) => void): Promise<string> {
  const search = createProofSearch(challenge, bits);
  const slice = 2000;
  for (let n = 0; ; n += slice) {
    const proof = search.run(n, 1, slice);
    if (proof !== undefined) return proof;
    progress(slice);
    await new Promise((r) => setTimeout(r, 0));
  }
}
