import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import path from 'node:path';
import { repoRoot, sample } from '../fidelity/samples.ts';
import { ACIS_TYPES } from '../acis/index.ts';
import { flattenEntities, flattenModelSpace } from './flatten.ts';

/** CORPUS_DIR, default ../shared/corpus next to the repository (LibreDWG's test drawings with their DXF twins) */
const corpus = (name: string) => path.resolve(repoRoot, process.env.CORPUS_DIR ?? '../shared/corpus', name);

/** Sample drawings whose content used to vanish (issue 15 items 9 and 10): read through the product's own path. */
const read = (name: string) => readDrawing(readFileSync(sample(name)), name, { timeoutMs: 25_000 });
const have = (name: string, file = sample(name)) => {
  const ok = existsSync(file);
  if (!ok) console.warn(`sample ${name} absent: its check is skipped`);
  return ok;
};

describe('sample drawings whose tables and solids used to draw blank', () => {
  afterAll(() => stopDwgWorker());

  it.runIf(have('dwg_2018_acadsharp_table.dwg'))('draws the R2018 table LibreDWG gives without its cells through its *T block', async () => {
    const f = flattenModelSpace(await read('dwg_2018_acadsharp_table.dwg'));
    expect(f.skipped.ACAD_TABLE).toBeUndefined();
    expect(f.skipped['ACAD_TABLE:position']).toBeUndefined();
    // the grid and the cell texts of the block (title, headers, values)
    expect(f.polylines.length).toBeGreaterThan(10);
    expect(f.texts.map((t) => t.text)).toContain('Hello this is a title');
  }, 60_000);

  // LibreDWG gives R2010+ tables with no insertion point (they were drawn at the origin): placed from their own
  // graphics, they stand where the R2000 copy of the same drawing has them (its tables carry their point)
  for (const v of ['2010', '2018']) {
    const name = `dwg_${v}_acadsharp_sample.dwg`;
    it.runIf(have(name) && have('dwg_2000_acadsharp_sample.dwg'))(`the tables of ${name} stand where the R2000 copy has them`, async () => {
      const boxes = async (file: string) => {
        const f = flattenModelSpace(await read(file));
        const out: Record<string, number[]> = {};
        for (const p of f.polylines) {
          const e = f.entities[p.entity];
          if (e.type !== 'ACAD_TABLE') continue;
          const b = (out[e.handle ?? '?'] ??= [Infinity, Infinity, -Infinity, -Infinity]);
          for (let i = 0; i < p.points.length; i += 2) {
            b[0] = Math.min(b[0], p.points[i]);
            b[1] = Math.min(b[1], p.points[i + 1]);
            b[2] = Math.max(b[2], p.points[i]);
            b[3] = Math.max(b[3], p.points[i + 1]);
          }
        }
        return { boxes: Object.fromEntries(Object.entries(out).map(([h, b]) => [h, b.map((x) => Math.round(x * 1000) / 1000)])), skipped: f.skipped['ACAD_TABLE:position'] };
      };
      const [r2000, later] = [await boxes('dwg_2000_acadsharp_sample.dwg'), await boxes(name)];
      expect(Object.keys(r2000.boxes).sort()).toEqual(['528', 'A35']);
      expect(later.skipped).toBeUndefined();
      expect(later.boxes).toEqual(r2000.boxes);
    }, 120_000);
  }

  it.runIf(have('dwg_2007_libredwg_ATMOS-DC22S.dwg'))('draws the drawing made of 3D solids (R2007 DWG, binary ACIS) as their wireframe', async () => {
    const d = await read('dwg_2007_libredwg_ATMOS-DC22S.dwg');
    const f = flattenModelSpace(d);
    // 49 solids: before, only the one text of the drawing showed, and 49 3DSOLID were reported
    expect(f.skipped['3DSOLID']).toBeUndefined();
    const solids = new Set(f.polylines.map((p) => f.entities[p.entity]).filter((e) => e.type === '3DSOLID'));
    expect(solids.size).toBeGreaterThan(40);
    expect(f.polylines.length).toBeGreaterThan(600);
  }, 90_000);

  // the DWG's solids and regions (R2004–R2010: binary ACIS through LibreDWG's object reader; 2013 on: the AcDs data
  // storage, by handle; R13/R14: SAT text) give the same wireframe as their DXF twin's (SAT, or SAB in the ACDSDATA
  // section from 2013 on), entity by entity: in example_2013 the solid once got a region's data (4 edges, not 18)
  // 2004/Surface: the five kinds of surface of a 2004 DWG, whose SAT LibreDWG's DXF writer cuts short (none drawn
  // before): their SAB through the object reader, as for solids
  for (const v of ['example_r14', 'example_2004', 'example_2007', 'example_2010', 'example_2013', 'example_2018', '2004/Surface']) {
    const dwg = corpus(`libredwg/${v}.dwg`), dxf = corpus(`libredwg/${v}.dxf`);
    it.runIf(have(`${v}.dwg`, dwg) && have(`${v}.dxf`, dxf))(`corpus ${v}: solids and surfaces of the DWG drawn as in its DXF twin`, async () => {
      const wire = async (file: string) => {
        const d = await readDrawing(readFileSync(file), file, { timeoutMs: 25_000 });
        const f = flattenEntities(d, d.entities.filter((e) => ACIS_TYPES.has(e.type) && !e.paperSpace), { tolerance: 0.01 });
        const box = [Infinity, Infinity, -Infinity, -Infinity];
        for (const p of f.polylines) for (let i = 0; i < p.points.length; i += 2) {
          box[0] = Math.min(box[0], p.points[i]);
          box[1] = Math.min(box[1], p.points[i + 1]);
          box[2] = Math.max(box[2], p.points[i]);
          box[3] = Math.max(box[3], p.points[i + 1]);
        }
        const edges: Record<string, number> = {};
        for (const p of f.polylines) edges[f.entities[p.entity].handle!] = (edges[f.entities[p.entity].handle!] ?? 0) + 1;
        return { skipped: f.skipped, count: f.polylines.length, edges, box: box.map((x) => Math.round(x)) };
      };
      const [a, b] = [await wire(dwg), await wire(dxf)];
      expect(a.skipped).toEqual({});
      expect(b.skipped).toEqual({});
      expect(a.count).toBeGreaterThan(20);
      expect(a).toEqual(b);
    }, 90_000);
  }

  it.runIf(have('dwg_2018_acadsharp_sample.dwg') && have('dxf_2018_acadsharp_sample_ascii.dxf'))('draws the solids and region of a 2018 DWG (ASM data in its AcDs storage) as its DXF twin does', async () => {
    const edges = async (name: string) => {
      const d = await read(name);
      const f = flattenEntities(d, d.entities.filter((e) => ACIS_TYPES.has(e.type)), { tolerance: 0.01 });
      const per: Record<string, number> = {};
      for (const p of f.polylines) per[f.entities[p.entity].handle!] = (per[f.entities[p.entity].handle!] ?? 0) + 1;
      return { skipped: f.skipped, per };
    };
    const [dwg, dxf] = [await edges('dwg_2018_acadsharp_sample.dwg'), await edges('dxf_2018_acadsharp_sample_ascii.dxf')];
    // before: LibreDWG found no ACIS data in the file, and 2 3DSOLID and 1 REGION were reported as not drawn
    expect(dwg.skipped).toEqual({});
    expect(Object.keys(dwg.per).sort()).toEqual(['D65', 'D69', 'D6A']);
    expect(dwg).toEqual(dxf);
  }, 90_000);
});
