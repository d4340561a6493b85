import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { asciiStl, cube, off } from '../fixtures/mesh.ts';
import { stepPart } from '../fixtures/step.ts';

const enc = (s: string) => new TextEncoder().encode(s);
async function pixels(png: Uint8Array) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4));
  return { info, at, data };
}

describe('thumbnail', () => {
  it('a red STEP cube: a PNG of the size asked, the cube in the middle on a transparent ground, three shades of red', async () => {
    const t = performance.now();
    const r = await convertToGlb(enc(stepPart({ name: 'Red', min: [0, 0, 0], max: [10, 10, 10], color: [1, 0, 0] })), 'red.stp', { thumbnail: 128 });
    console.log(`STEP cube with a thumbnail: ${Math.round(performance.now() - t)} ms`);
    const { info, at, data } = await pixels(r.thumbnail!);
    expect([info.width, info.height, info.channels]).toEqual([128, 128, 4]);
    expect(at(0, 0)[3]).toBe(0);
    const centre = at(64, 64);
    expect(centre[3]).toBe(255);
    expect(centre[0]).toBeGreaterThan(100);
    expect(centre[1]).toBe(0);
    expect(centre[2]).toBe(0);
    // the three faces seen from the front-right-top, each its own shade (the edges between them blend two)
    const shades = new Map<string, number>();
    let opaque = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) (opaque++, shades.set(`${data[i]},${data[i + 1]},${data[i + 2]}`, (shades.get(`${data[i]},${data[i + 1]},${data[i + 2]}`) ?? 0) + 1));
    expect([...shades.values()].filter((n) => n > opaque * 0.1)).toHaveLength(3);
  });

  it('the model\'s up axis is up: a column tall in z (STL, Z up) and one tall in y (OFF, Y up) both stand', async () => {
    const column = (tall: number) => {
      const c = cube(1);
      for (const v of c.vertices) v[tall] *= 10;
      return c;
    };
    for (const [name, bytes] of [['z.stl', enc(asciiStl('z', column(2)))], ['y.off', enc(off(column(1)))]] as const) {
      const r = await convertToGlb(bytes, name, { thumbnail: 100 });
      const { at } = await pixels(r.thumbnail!);
      const opaque = (x: number, y: number) => at(x, y)[3] > 0;
      const cols = Array.from({ length: 100 }, (_, x) => Array.from({ length: 100 }, (_, y) => opaque(x, y)).some(Boolean)).filter(Boolean).length;
      const rows = Array.from({ length: 100 }, (_, y) => Array.from({ length: 100 }, (_, x) => opaque(x, y)).some(Boolean)).filter(Boolean).length;
      expect(rows, name).toBeGreaterThan(90);
      expect(cols, name).toBeLessThan(rows / 3);
    }
  });

  it('none unless asked', async () => {
    expect((await convertToGlb(enc(stepPart({ name: 'C', min: [0, 0, 0], max: [1, 1, 1] })), 'c.stp')).thumbnail).toBeUndefined();
  });
});
