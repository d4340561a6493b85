import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dwgToDxf, stopDwgWorker } from './dwg-reader.ts';
import { sample } from '../fidelity/samples.ts';

/**
 * One reader process serves many files (its WASM takes seconds to compile). LibreDWG keeps state between the files
 * of one instance: its DXF writer gave the second file of a process strings ending in bytes of the first (damage
 * nothing detects, unlike a parse failure). The DXF of a file read second must equal the DXF of it read alone.
 */
const PAIRS: [first: string, second: string][] = [
  // seen damaged: a GD&T text "…^J10" written "…^J10A", an MTEXT "…^Janno" written "…^JaCTI"
  ['dwg_2018_libredwg_example.dwg', 'dwg_r14_libredwg_example.dwg'],
  ['dwg_2010_libredwg_example.dwg', 'dwg_2013_libredwg_example.dwg'],
];

const have = (names: string[]) => {
  const ok = names.every((n) => existsSync(sample(n)));
  if (!ok) console.warn(`samples ${names.join(', ')} absent: the reader-state check is skipped`);
  return ok;
};

describe('DWG reader process: a file read after another gives the same DXF as read alone', () => {
  afterAll(() => stopDwgWorker());

  for (const [first, second] of PAIRS) {
    it.runIf(have([first, second]))(`${second} after ${first}`, async () => {
      const bytes = readFileSync(sample(second));
      stopDwgWorker();
      const alone = await dwgToDxf(bytes, { timeoutMs: 60_000 });
      stopDwgWorker();
      // the same process reads both: the worker is kept between files (its idle time is minutes)
      await dwgToDxf(readFileSync(sample(first)), { timeoutMs: 60_000 });
      const after = await dwgToDxf(bytes, { timeoutMs: 60_000 });
      const lines = (b: Buffer) => b.toString('latin1').split('\n');
      const [a, b] = [lines(alone), lines(after)];
      const differing = a.flatMap((l, i) => (l === b[i] ? [] : [`line ${i + 1}: ${JSON.stringify(l.slice(-40))} → ${JSON.stringify((b[i] ?? '').slice(-40))}`]));
      expect(differing.slice(0, 5), `${differing.length} lines differ`).toEqual([]);
      expect(after.length).toBe(alone.length);
    }, 180_000);
  }
});
