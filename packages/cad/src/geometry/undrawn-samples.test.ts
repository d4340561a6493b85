import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { sample } from '../fidelity/samples.ts';
import { flattenModelSpace } from './flatten.ts';

/** Sample drawings whose content used to vanish (issue 15 items 9 and 10): read through the product's own path. */
const read = (name: string) => readDrawing(readFileSync(sample(name)), name, { timeoutMs: 25_000 });
const have = (name: string) => {
  const ok = existsSync(sample(name));
  if (!ok) console.warn(`sample ${name} absent: its check is skipped`);
  return ok;
};

describe('sample drawings whose tables and solids used to draw blank', () => {
  afterAll(() => stopDwgWorker());

  it.runIf(have('dwg_2018_acadsharp_table.dwg'))('draws the R2018 table LibreDWG gives without its cells through its *T block', async () => {
    const f = flattenModelSpace(await read('dwg_2018_acadsharp_table.dwg'));
    expect(f.skipped.ACAD_TABLE).toBeUndefined();
    // the grid and the cell texts of the block (title, headers, values)
    expect(f.polylines.length).toBeGreaterThan(10);
    expect(f.texts.map((t) => t.text)).toContain('Hello this is a title');
  }, 60_000);
});
