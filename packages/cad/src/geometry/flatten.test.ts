import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { flattenModelSpace, plainMText } from './flatten.ts';
import { renderSvg, boundsOf } from '../render/svg.ts';
import { aciToRgb } from './aci.ts';

describe('flattening the model space', () => {
  const d = parseDxf(
    writeAsciiDxf({
      layers: ['0', 'Red'],
      blocks: [{ name: 'TICK', entities: [{ type: 'LINE', pairs: [[8, '0'], [62, 0], [10, 0], [20, 0], [30, 0], [11, 1], [21, 0], [31, 0]] }] }],
      entities: [
        { type: 'CIRCLE', pairs: [[8, 'Red'], [62, 1], [10, 10], [20, 10], [30, 0], [40, 5]] },
        // a mirrored (x scale -1), 2 × 3 array of the block, ByBlock colour from the insert (green)
        { type: 'INSERT', pairs: [[8, '0'], [62, 3], [2, 'TICK'], [10, 100], [20, 0], [30, 0], [41, -1], [42, 1], [70, 2], [71, 3], [44, 10], [45, 20]] },
        // a half-circle bulge from (0,0) to (2,0)
        { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 2], [70, 0], [10, 0], [20, 0], [42, 1], [10, 2], [20, 0]] },
        { type: 'MTEXT', pairs: [[8, '0'], [10, 1], [20, 2], [30, 0], [40, 2.5], [1, '{\\fArial|b1;Title}\\PSecond']] },
      ],
    }),
  );
  const flat = flattenModelSpace(d, { tolerance: 0.001 });

  it('tessellates circles within the tolerance', () => {
    const circle = flat.polylines.find((p) => p.color === 0xff0000)!;
    expect(circle.closed).toBe(true);
    for (let i = 0; i < circle.points.length; i += 2) expect(Math.abs(Math.hypot(circle.points[i] - 10, circle.points[i + 1] - 10) - 5)).toBeLessThan(1e-9);
    expect(circle.points.length / 2).toBeGreaterThan(50);
  });

  it('expands inserts through mirrored arrays with ByBlock colour', () => {
    const ticks = flat.polylines.filter((p) => p.color === 0x00ff00);
    expect(ticks).toHaveLength(6);
    const starts = ticks.map((t) => `${t.points[0]},${t.points[1]}->${t.points[2]},${t.points[3]}`).sort();
    expect(starts).toContain('100,0->99,0');
    expect(starts).toContain('110,40->109,40');
  });

  it('follows bulges and strips MTEXT codes', () => {
    const arc = flat.polylines.find((p) => p.points.length > 4 && p.color === 0xffffff)!;
    const ys = arc.points.filter((_, i) => i % 2 === 1);
    expect(Math.min(...ys)).toBeCloseTo(-1, 3);
    expect(flat.texts[0].text).toBe('Title\nSecond');
    expect(plainMText('\\H2.5;\\C1;A\\Sx^2;')).toBe('Ax/2');
  });

  it('writes an SVG whose view covers every point', () => {
    const svg = renderSvg(flat, { width: 800 });
    expect(svg.startsWith('<svg')).toBe(true);
    const b = boundsOf(flat)!;
    expect(b.maxX).toBeGreaterThanOrEqual(110);
    expect(aciToRgb(1)).toBe(0xff0000);
  });

  const flange = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples', 'dxf_qcad_flange.dxf');
  it.runIf(existsSync(flange))('draws the flange sample, its hatch and its blockless dimensions included', () => {
    const f = flattenModelSpace(parseDxf(readFileSync(flange)));
    expect(f.polylines.length).toBeGreaterThan(150);
    expect(f.skipped).toEqual({});
    // the dimensions have no blocks: generated, with the values the reference plot shows
    expect(f.texts.filter((t) => f.entities[t.entity].type === 'DIMENSION').map((t) => t.text).sort()).toEqual(['2', '42', '6', '60', 'R5', '\u230028']);
    // the section hatch is a pattern: parallel straight lines
    const hatch = f.polylines.filter((p) => f.entities[p.entity].type === 'HATCH');
    expect(hatch.length).toBeGreaterThan(10);
    const slopes = new Set(hatch.map((p) => (Math.atan2(p.points[3] - p.points[1], p.points[2] - p.points[0]) * 180 / Math.PI).toFixed(3)));
    expect(hatch.every((p) => p.points.length === 4) && slopes.size).toBe(1);
  });

  it('joins a long MTEXT in file order: the code 3 chunks, then code 1', () => {
    const d = parseDxf(writeAsciiDxf({ entities: [{ type: 'MTEXT', pairs: [[8, '0'], [10, 0], [20, 0], [40, 2.5], [71, 1], [3, 'first chunk, '], [3, 'second chunk, '], [1, 'last part']] }] }));
    const [t] = flattenModelSpace(d).texts;
    expect(t.text).toBe('first chunk, second chunk, last part');
    expect(t.raw).toBe('first chunk, second chunk, last part');
  });
});
