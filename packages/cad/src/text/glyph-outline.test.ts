import { describe, expect, it } from 'vitest';
import { prepare } from '../render/prepare.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { triangulateWithOutline } from './ttf.ts';

// nonzero winding number of a point in rings
function winding(x: number, y: number, rings: number[][]): number {
  let w = 0;
  for (const r of rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const x0 = r[j], y0 = r[j + 1], x1 = r[i], y1 = r[i + 1];
      const cross = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0);
      if (y0 <= y && y1 > y && cross > 0) w++;
      else if (y0 > y && y1 <= y && cross < 0) w--;
    }
  }
  return w;
}

function inTriangles(x: number, y: number, t: number[]): boolean {
  for (let i = 0; i + 5 < t.length; i += 6) {
    const s = (ax: number, ay: number, bx: number, by: number) => (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    const a = s(t[i], t[i + 1], t[i + 2], t[i + 3]), b = s(t[i + 2], t[i + 3], t[i + 4], t[i + 5]), c = s(t[i + 4], t[i + 5], t[i], t[i + 1]);
    if ((a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0)) return true;
  }
  return false;
}

const square = (x0: number, y0: number, size: number, ccw: boolean) => (ccw ? [x0, y0, x0 + size, y0, x0 + size, y0 + size, x0, y0 + size] : [x0, y0, x0, y0 + size, x0 + size, y0 + size, x0 + size, y0]);

describe('glyph outlines for the rasteriser', () => {
  it('fill nonzero the same area as the triangles: holes by nesting, however the font wound its rings', () => {
    // an outer ring, a hole wound the same way (a badly made font), an island in the hole, and a second outer ring
    // overlapping the first and wound the other way
    const rings = [square(0, 0, 10, true), square(2, 2, 6, true), square(4, 4, 2, false), square(8, 8, 4, false)];
    const { triangles, outline } = triangulateWithOutline(rings);
    let checked = 0;
    for (let x = 0.25; x < 12; x += 0.5) {
      for (let y = 0.25; y < 12; y += 0.5) {
        expect(winding(x, y, outline) !== 0, `${x} ${y}`).toBe(inTriangles(x, y, triangles));
        checked++;
      }
    }
    expect(checked).toBe(576);
  });

  it('go with their triangles into the PNG batches, only when every glyph brought them', () => {
    const f = { polylines: [], entities: 0, skipped: {}, texts: [{ entity: 1, text: 'x', x: 0, y: 0, height: 1, rotation: 0, widthFactor: 1, color: 0, layer: '0' } as never] } as unknown as Flattened;
    const { triangles, outline } = triangulateWithOutline([square(0, 0, 1, true)]);
    const full = prepare(f, { text: () => ({ strokes: [], triangles, outlines: [{ rings: outline, triangles: triangles.length / 6 }] }) });
    expect(full.batches).toEqual([{ kind: 'triangles', color: 0, triangles, outline }]);
    // a count that does not match the triangles: the rasteriser falls back to the triangles
    const partial = prepare(f, { text: () => ({ strokes: [], triangles, outlines: [{ rings: outline, triangles: 1 }] }) });
    expect(partial.batches).toEqual([{ kind: 'triangles', color: 0, triangles, outline: undefined }]);
  });
});
