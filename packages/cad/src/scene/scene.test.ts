import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { flattenLayout, layoutNames } from '../geometry/layout.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';
import { entityBounds, pickEntity } from './pick.ts';

const d = parseDxf(writeAsciiDxf({
  layers: ['0', 'A', 'B'],
  entities: [
    { type: 'LINE', pairs: [[5, '1F'], [8, 'A'], [62, 1], [370, 50], [10, 0], [20, 0], [11, 100], [21, 0]] },
    { type: 'LWPOLYLINE', pairs: [[5, '20'], [8, 'B'], [90, 4], [70, 1], [10, 10], [20, 10], [10, 20], [20, 10], [10, 20], [20, 20], [10, 10], [20, 20]] },
    { type: 'SOLID', pairs: [[5, '21'], [8, 'B'], [10, 50], [20, 50], [11, 60], [21, 50], [12, 50], [22, 60], [13, 60], [23, 60]] },
    // paper space: a viewport 100 wide showing model x 0…50 (scale 2), so the line is cut at its border
    { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100], [20, 100], [40, 100], [41, 50], [68, 1], [69, 2], [12, 25], [22, 0], [45, 25]] },
  ],
}));
const scene = (layout: string) => compileScene(d, flattenLayout(d, layout)!, { layout, layouts: layoutNames(d) });

describe('scene compiler', () => {
  it('groups geometry by layer into line and triangle ranges, with weights, and survives the binary round trip', () => {
    const s = decodeScene(encodeScene(scene('Model')));
    const name = (i: number) => s.meta.layers[i].name;
    expect(s.meta.layouts).toEqual(['Model', 'Layout1']);
    expect(s.meta.lineRanges.map(([l, , n]) => [name(l), n])).toEqual([['A', 2], ['B', 8]]);
    expect(s.meta.triRanges.map(([l, , n]) => [name(l), n])).toEqual([['B', 6]]);
    expect([...s.lineWeights]).toEqual([50, 0, 0, 0, 0]);
    expect(s.meta.entities.map((e) => e.handle)).toEqual(['1F', '20', '21']);
    expect(s.meta.bounds).toEqual({ minX: 0, minY: 0, maxX: 100, maxY: 60 });
  });

  it('picks the entity under a point and bounds it', () => {
    const s = scene('Model');
    expect(s.meta.entities[pickEntity(s, 70, 0.4, 1)!].handle).toBe('1F');
    expect(s.meta.entities[pickEntity(s, 15, 19.8, 1)!].handle).toBe('20');
    expect(s.meta.entities[pickEntity(s, 55, 55, 1)!].handle).toBe('21'); // inside the solid
    expect(pickEntity(s, 80, 40, 1)).toBeNull();
    expect(entityBounds(s, 1)).toEqual({ minX: 10, minY: 10, maxX: 20, maxY: 20 });
  });

  it('draws model space through a paper viewport, scaled and clipped to it', () => {
    const s = scene('Layout1');
    const [ox, oy] = s.meta.origin;
    const red: number[] = [];
    for (let v = 0; v < s.lineColors.length / 4; v++) if (s.lineColors[v * 4] === 255 && s.lineColors[v * 4 + 1] === 0) red.push(s.linePositions[v * 2] + ox, s.linePositions[v * 2 + 1] + oy);
    // model (0,0)-(100,0) → paper (100 + (x - 25) · 2, 100 + y · 2): 50…250 at y 100, cut at the viewport's right edge 150
    expect(red.map((n) => Math.round(n * 1000) / 1000)).toEqual([50, 100, 150, 100]);
  });
});
