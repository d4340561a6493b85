import { describe, expect, it } from 'vitest';
import { convertToGlb } from './convert.ts';
import { stepAssembly } from './fixtures/step.ts';
import { ifcWallAndDoor } from './fixtures/ifc.ts';
import type { Model3dProgress } from './progress.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const ORDER = ['parse', 'import', 'document', 'thumbnail', 'compress', 'write'];

/** the reports keep the stages' order and never go back; returns the import reports */
function expectForward(log: Model3dProgress[]) {
  for (let i = 1; i < log.length; i++) {
    expect(log[i].percent).toBeGreaterThanOrEqual(log[i - 1].percent);
    expect(ORDER.indexOf(log[i].stage)).toBeGreaterThanOrEqual(ORDER.indexOf(log[i - 1].stage));
  }
  expect(log[0]).toEqual({ stage: 'parse', percent: 0 });
  expect(log.at(-1)!.stage).toBe('write');
  return log.filter((p) => p.stage === 'import');
}

describe('conversion progress', () => {
  it('a STEP assembly of 8 parts: every stage in order, the import part by part', async () => {
    const parts = Array.from({ length: 8 }, (_, i) => ({ name: `P${i}`, min: [0, 0, 0] as [number, number, number], max: [1, 2, 3] as [number, number, number], at: [i * 2, 0, 0] as [number, number, number] }));
    const log: Model3dProgress[] = [];
    await convertToGlb(enc(stepAssembly('Asm', parts)), 'asm.step', { thumbnail: 64, onProgress: (p) => log.push(p) });
    expect([...new Set(log.map((p) => p.stage))]).toEqual(ORDER);
    // one report per part read: 8 distinct percents inside the import's span
    expect(new Set(expectForward(log).map((p) => p.percent)).size).toBe(8);
  }, 60_000);

  it('an IFC: its elements move the import; no thumbnail asked, no thumbnail stage', async () => {
    const log: Model3dProgress[] = [];
    await convertToGlb(enc(ifcWallAndDoor()), 'house.ifc', { onProgress: (p) => log.push(p) });
    expect(log.some((p) => p.stage === 'thumbnail')).toBe(false);
    expect(expectForward(log).length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
