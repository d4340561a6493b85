/**
 * Issue 15 item 16: gradient hatches in both their colours, for AutoCAD's nine kinds, one-colour with tint, angle and
 * shift. The kinds' look is described in gradient.ts (ezdxf's drawing add-on fills gradients with one colour).
 */
import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { renderPng } from '../render/png.ts';
import { decodeImage } from '../fidelity/image-metric.ts';
import { compileScene } from '../scene/compile.ts';

const RED = 0xff0000, BLUE = 0x0000ff;
/** a gradient HATCH over 0..100 × 0..100 */
const gradient = (name: string, o: { angle?: number; shift?: number; one?: boolean; tint?: number } = {}): FixtureEntity => {
  const pairs: Pairs = [[8, '0'], [100, 'AcDbHatch'], [10, 0], [20, 0], [30, 0], [210, 0], [220, 0], [230, 1], [2, 'SOLID'], [70, 1], [71, 0], [91, 1], [92, 3], [72, 0], [73, 1], [93, 4]];
  for (const [x, y] of [[0, 0], [100, 0], [100, 100], [0, 100]]) pairs.push([10, x], [20, y]);
  pairs.push([97, 0], [75, 0], [76, 1], [98, 0]);
  pairs.push([450, 1], [451, 0], [452, o.one ? 1 : 0], [453, o.one ? 1 : 2], [460, o.angle ?? 0], [461, o.shift ?? 0], [462, o.tint ?? 0], [463, 0], [63, 1], [421, RED]);
  if (!o.one) pairs.push([463, 1], [63, 5], [421, BLUE]);
  pairs.push([470, name]);
  return { type: 'HATCH', pairs };
};
const flat = (e: FixtureEntity) => flattenModelSpace(parseDxf(writeAsciiDxf({ entities: [e] })));
/** the colour of the fill drawn last over point (x, y) */
const colorAt = (f: ReturnType<typeof flat>, x: number, y: number) => {
  let c: number | undefined;
  for (const p of f.polylines) if (p.filled && inside(p.points, x, y)) c = p.color;
  return c;
};
const inside = (r: number[], x: number, y: number) => {
  let s = false;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) if (r[i + 1] > y !== r[j + 1] > y && x < ((r[j] - r[i]) * (y - r[i + 1])) / (r[j + 1] - r[i + 1]) + r[i]) s = !s;
  return s;
};
const red = (c = 0) => c >> 16, blue = (c = 0) => c & 255;

describe('gradient hatches (issue 15 item 16)', () => {
  it('LINEAR runs from colour 1 to colour 2 along its angle', () => {
    const f = flat(gradient('LINEAR'));
    expect(new Set(f.polylines.map((p) => p.color)).size).toBeGreaterThan(20);
    expect(red(colorAt(f, 1, 50))).toBeGreaterThan(240);
    expect(blue(colorAt(f, 99, 50))).toBeGreaterThan(240);
    expect(colorAt(f, 50, 50)).toBe(colorAt(f, 50, 5));
    // at 90° the ramp runs up
    const up = flat(gradient('LINEAR', { angle: Math.PI / 2 }));
    expect(red(colorAt(up, 50, 1))).toBeGreaterThan(240);
    expect(blue(colorAt(up, 50, 99))).toBeGreaterThan(240);
  });

  it('CYLINDER is colour 2 along the middle and colour 1 at the sides; INVCYLINDER the other way round', () => {
    const f = flat(gradient('CYLINDER'));
    expect(blue(colorAt(f, 50, 50))).toBeGreaterThan(230);
    expect(red(colorAt(f, 1, 50))).toBeGreaterThan(240);
    expect(red(colorAt(f, 99, 50))).toBeGreaterThan(240);
    const inv = flat(gradient('INVCYLINDER'));
    expect(red(colorAt(inv, 50, 50))).toBeGreaterThan(230);
    expect(blue(colorAt(inv, 1, 50))).toBeGreaterThan(240);
  });

  it('SPHERICAL and HEMISPHERICAL are colour 2 at their centre, colour 1 at the rim; the INV kinds the other way round', () => {
    const s = flat(gradient('SPHERICAL'));
    expect(blue(colorAt(s, 50, 50))).toBeGreaterThan(230);
    expect(red(colorAt(s, 1, 1))).toBeGreaterThan(230);
    expect(red(colorAt(flat(gradient('INVSPHERICAL')), 50, 50))).toBeGreaterThan(230);
    const h = flat(gradient('HEMISPHERICAL'));
    expect(blue(colorAt(h, 50, 1))).toBeGreaterThan(230);
    expect(blue(colorAt(h, 50, 1))).toBeGreaterThan(blue(colorAt(h, 50, 60)));
    expect(red(colorAt(flat(gradient('INVHEMISPHERICAL')), 50, 1))).toBeGreaterThan(230);
  });

  it('CURVED runs across the angle from colour 2 at the bottom, quickly at first; INVCURVED the other way round', () => {
    const c = flat(gradient('CURVED'));
    // (the first band is 2 % up a curve that is steep there: already a seventh of the way)
    expect(blue(colorAt(c, 50, 1))).toBeGreaterThan(200);
    expect(red(colorAt(c, 50, 99))).toBeGreaterThan(240);
    // past the middle it is mostly colour 1 already
    expect(red(colorAt(c, 50, 50))).toBeGreaterThan(blue(colorAt(c, 50, 50)));
    expect(red(colorAt(flat(gradient('INVCURVED')), 50, 1))).toBeGreaterThan(200);
  });

  it('one colour with tint: the second colour is the first darkened (tint 0) or lightened (tint 1)', () => {
    const dark = flat(gradient('LINEAR', { one: true, tint: 0 }));
    expect(colorAt(dark, 99, 50)! & 0xffffff).toBeLessThan(0x100000);
    const light = flat(gradient('LINEAR', { one: true, tint: 1 }));
    const c = colorAt(light, 99, 50)!;
    expect(((c >> 8) & 255) > 240 && (c & 255) > 240).toBe(true);
  });

  it('shift moves the centre of a symmetric kind', () => {
    const f = flat(gradient('CYLINDER', { shift: 0.5 }));
    // the middle (colour 2) moves left by a quarter of the width
    expect(blue(colorAt(f, 25, 50))).toBeGreaterThan(blue(colorAt(f, 75, 50)));
  });

  it('reaches PNG and the viewer scene in both colours', async () => {
    const f = flat(gradient('LINEAR'));
    const img = await decodeImage(renderPng(f, { width: 208 }));
    const px = (x: number) => {
      const i = (104 * img.width + Math.round(((x + 2) / 104) * img.width)) * 4;
      return [img.data[i], img.data[i + 1], img.data[i + 2]];
    };
    expect(px(3)[0]).toBeGreaterThan(230);
    expect(px(97)[2]).toBeGreaterThan(230);
    const d = parseDxf(writeAsciiDxf({ entities: [gradient('SPHERICAL')] }));
    const scene = compileScene(d, flattenModelSpace(d, { curves: true, blockInstances: true, segmentLists: true }), { layout: 'Model', layouts: ['Model'] });
    const colours = new Set<number>();
    for (let t = 0; t < scene.triangleColors.length; t += 4) colours.add((scene.triangleColors[t] << 16) | (scene.triangleColors[t + 1] << 8) | scene.triangleColors[t + 2]);
    expect(colours.size).toBeGreaterThan(20);
  });
});
