import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { outlierDrawingDxf } from '../testing/outlier-fixture.ts';
import { compileScene } from '../scene/compile.ts';
import { flattenLayout, layoutNames } from './layout.ts';
import { contentExtents, outlierFreeExtents } from './extents.ts';

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y1];

describe('content extents (what the viewer and the thumbnails frame)', () => {
  it('leaves out far-away stray items, keeps content a little apart', () => {
    const grid = Array.from({ length: 50 }, (_, i) => box(i * 2, 0, i * 2 + 1, 100)).flat();
    expect(contentExtents([...grid, ...box(1e6, 1e6, 1e6, 1e6), ...box(-5e5, 3, -5e5, 3)])).toEqual({ minX: 0, minY: 0, maxX: 99, maxY: 100 });
    // a legend one drawing-width away, and a title block around everything, stay
    expect(contentExtents([...grid, ...box(150, 10, 180, 20), ...box(150, 30, 180, 40)])).toEqual({ minX: 0, minY: 0, maxX: 180, maxY: 100 });
    expect(contentExtents([...grid, ...box(-50, -50, 500, 300)])).toEqual({ minX: -50, minY: -50, maxX: 500, maxY: 300 });
    // two equal halves far apart are both content
    expect(contentExtents([...box(0, 0, 10, 10), ...box(0, 0, 10, 10), ...box(1e6, 0, 1e6 + 10, 10), ...box(1e6, 0, 1e6 + 10, 10)])).toEqual({ minX: 0, minY: 0, maxX: 1e6 + 10, maxY: 10 });
    expect(contentExtents([])).toBeNull();
  });

  it('frames the drawing made to have outliers (wrong header extents, stray points, an XLINE) on its content, in the scene too', () => {
    const d = parseDxf(outlierDrawingDxf());
    const flat = flattenLayout(d, 'Model')!;
    const e = outlierFreeExtents(flat)!;
    expect([e.minX, e.minY, e.maxX, e.maxY].map((v) => Math.round(v))).toEqual([0, 0, 260, 100]);
    // the scene's first view is the same frame (one function for both), while its bounds still hold everything
    const scene = compileScene(d, flattenLayout(d, 'Model', { blockInstances: true, curves: true })!, { layout: 'Model', layouts: layoutNames(d) });
    expect(scene.meta.home).toEqual(e);
    expect(scene.meta.bounds.maxX).toBeGreaterThan(9e5);
  });
});

describe('a drawing without outliers', () => {
  it('keeps its own full extents (no home view of its own)', () => {
    const d = parseDxf(outlierDrawingDxf());
    // the same drawing less its strays and its XLINE
    d.entities = d.entities.filter((e) => e.type === 'LINE' && Number(e.pairs.find((p) => p[0] === 10)?.[1]) < 1000);
    const flat = flattenLayout(d, 'Model')!;
    expect(outlierFreeExtents(flat)).toBeNull();
    const scene = compileScene(d, flattenLayout(d, 'Model', { blockInstances: true, curves: true })!, { layout: 'Model', layouts: layoutNames(d) });
    expect(scene.meta.home).toBeUndefined();
  });
});
