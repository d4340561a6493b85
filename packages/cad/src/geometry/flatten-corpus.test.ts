import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseDxf } from '../dxf/reader.ts';
import { flattenEntities, flattenModelSpace } from './flatten.ts';

const samplesDir = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => f.toLowerCase().endsWith('.dxf')) : [];
if (!samples.length) console.warn(`no DXF samples in ${samplesDir}: the flattening corpus test is skipped`);

// the types the drawing engine must draw (issue list); REGION/3DSOLID/BODY carry ACIS data and may only be counted
const MUST_DRAW = ['LINE', 'XLINE', 'RAY', 'POINT', 'CIRCLE', 'ARC', 'ELLIPSE', 'LWPOLYLINE', 'POLYLINE', 'SPLINE', 'TEXT', 'MTEXT', 'ATTRIB', 'ATTDEF', 'INSERT', 'DIMENSION', 'LEADER', 'MULTILEADER', 'HATCH', 'SOLID', 'TRACE', '3DFACE', 'WIPEOUT', 'IMAGE', 'ACAD_TABLE', 'MLINE'];

describe.runIf(samples.length > 0)('flattening every DXF sample', () => {
  const totals: Record<string, number> = {};
  for (const name of samples) {
    it(`${name}: every model-space entity is drawn, or counted as skipped or omitted`, () => {
      const d = parseDxf(readFileSync(path.join(samplesDir, name)));
      const all = flattenModelSpace(d);
      for (const [k, v] of Object.entries(all.skipped)) totals[k] = (totals[k] ?? 0) + v;
      expect(Object.keys(all.skipped).filter((k) => MUST_DRAW.includes(k))).toEqual([]);
      const silent: string[] = [];
      for (const e of d.entities) {
        if (e.paperSpace) continue;
        const one = flattenEntities(d, [e]);
        const drawn = one.polylines.length + one.texts.length > 0;
        const reported = Object.keys(one.skipped).length > 0 || (one.omitted?.[e.type] ?? 0) > 0;
        if (!drawn && !reported) silent.push(`${e.type} ${e.handle ?? ''}`);
        // geometry never lands off the map
        for (const p of one.polylines) for (const v of p.points) if (!Number.isFinite(v)) silent.push(`${e.type} ${e.handle ?? ''} non-finite`);
      }
      expect(silent).toEqual([]);
    });
  }
  it('reports what is left undrawn across the corpus', () => {
    console.info(`skipped across ${samples.length} DXF samples: ${JSON.stringify(totals)}`);
    expect(Object.keys(totals).filter((k) => MUST_DRAW.includes(k))).toEqual([]);
  });
});
