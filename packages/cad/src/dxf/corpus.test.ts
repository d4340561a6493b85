import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseDxf } from './reader.ts';
import { CadError, type Entity } from '../model/drawing.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const samplesDir = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples');
const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => f.toLowerCase().endsWith('.dxf')) : [];
if (!samples.length) console.warn(`no DXF samples in ${samplesDir}: the corpus tests are skipped`);

/**
 * An independent count of entity records straight from the text: every `0/<TYPE>` pair inside the ENTITIES
 * and BLOCKS sections, BLOCK/ENDBLK markers excepted. ASCII files only (the binary sample has its own test).
 */
function rawCounts(bytes: Buffer): Record<string, number> {
  const lines = bytes.toString('latin1').split(/\r?\n/);
  const counts: Record<string, number> = {};
  let section = '';
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i].trim();
    const value = lines[i + 1].trim();
    if (code === '999') continue;
    if (code === '2' && lines[i - 2]?.trim() === '0' && lines[i - 1]?.trim() === 'SECTION') section = value;
    if (code !== '0') continue;
    if (value === 'ENDSEC') section = '';
    else if ((section === 'ENTITIES' || section === 'BLOCKS') && value !== 'BLOCK' && value !== 'ENDBLK') counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}

function modelled(list: Entity[], into: Record<string, number> = {}) {
  for (const e of list) {
    into[e.type] = (into[e.type] ?? 0) + 1;
    if (e.children) modelled(e.children, into);
  }
  return into;
}

describe.runIf(samples.length > 0)('every DXF sample', () => {
  for (const file of samples) {
    it(`${file}: entity counts match the file, nothing dropped`, () => {
      const bytes = readFileSync(path.join(samplesDir, file));
      const d = parseDxf(bytes);
      const inModel: Record<string, number> = {};
      modelled(d.entities, inModel);
      for (const b of d.blocks) modelled(b.entities, inModel);
      // everything read is in the model (top level, blocks or nested), and everything counted was read
      expect(inModel).toEqual(d.counts);
      if (!d.binary) expect(d.counts).toEqual(rawCounts(bytes));
      else expect(Object.values(d.counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      for (const [type, n] of Object.entries(d.unsupported)) expect(d.counts[type]).toBe(n);
    });
  }

  it('ends a few hundred mutations of the samples with a result or the spec error, each quickly', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const small = samples.map((f) => readFileSync(path.join(samplesDir, f))).filter((b) => b.length < 400_000);
    let errors = 0;
    for (let i = 0; i < 300; i++) {
      const src = small[i % small.length];
      const m = Buffer.from(src);
      const kind = i % 3;
      if (kind === 0) for (let k = 0; k < 20; k++) m[Math.floor(rand() * m.length)] = Math.floor(rand() * 256);
      const bytes = kind === 1 ? m.subarray(0, Math.floor(rand() * m.length)) : kind === 2 ? Buffer.concat([m.subarray(0, Math.floor(rand() * m.length)), Buffer.from(m.subarray(Math.floor(rand() * m.length)))]) : m;
      const t = performance.now();
      try {
        parseDxf(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(CadError);
        expect((e as Error).message).toBe('The drawing analysis failed!');
        errors++;
      }
      expect(performance.now() - t).toBeLessThan(2000);
    }
    expect(errors).toBeGreaterThan(50);
  });
});
