/// <reference lib="webworker" />
import { createProofSearch } from './proof-search.ts';

/**
 * One of the share page's proof-of-work workers: searches n = first, first + step, … in rounds, reporting how many
 * it tried after each, until it finds a proof (or is terminated when another worker did).
 */
const ROUND = 20_000;
self.onmessage = (e: MessageEvent<{ challenge: string; bits: number; first: number; step: number }>) => {
  const { challenge, bits, first, step } = e.data;
  const search = createProofSearch(challenge, bits);
  for (let n = first; ; n += ROUND * step) {
    const proof = search.run(n, step, ROUND);
    if (proof !== undefined) {
      self.postMessage({ proof });
      return;
    }
    self.postMessage({ tried: ROUND });
  }
};
