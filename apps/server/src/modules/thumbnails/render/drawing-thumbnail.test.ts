import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { compileScene, drawingInfo, flattenLayout, layoutNames, parseDxf } from '@cadcloud/cad';
import { outlierDrawingDxf } from '../../../../../../packages/cad/src/testing/outlier-fixture.ts';
import { writeAsciiDxf } from '../../../../../../packages/cad/src/testing/dxf-writer.ts';
import { drawingThumbnailPng } from './drawing-thumbnail.ts';

/** The box of the ink (pixels darker than mid-grey) as shares of the image's width and height. */
async function inkShare(png: Buffer): Promise<{ w: number; h: number }> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i] + data[i + 1] + data[i + 2] >= 384) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return { w: (x1 - x0 + 1) / info.width, h: (y1 - y0 + 1) / info.height };
}

describe('drawing thumbnails frame what the viewer frames', () => {
  it('shows the content of a drawing with wrong header extents and far-away stray items, not a few dots', async () => {
    const { png } = await drawingThumbnailPng(outlierDrawingDxf(), 256);
    const meta = await sharp(png).metadata();
    // the content is 260 × 100: a wide thumbnail filled by its ink
    expect(meta.width).toBe(256);
    expect(meta.height!).toBeLessThan(128);
    const ink = await inkShare(png);
    expect(ink.w).toBeGreaterThan(0.9);
    expect(ink.h).toBeGreaterThan(0.8);
  });
});

describe('what is not drawn is reported the same everywhere', () => {
  it('cad info, cad render, the viewer scene and the thumbnail give the same counts', async () => {
    // a line, two solids whose ACIS data cannot be read, a TOLERANCE, and a type no reader knows
    const dxf = writeAsciiDxf({
      entities: [
        { type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 10], [21, 10], [31, 0]] },
        { type: '3DSOLID', pairs: [[5, 'A1'], [8, '0'], [100, 'AcDbModelerGeometry'], [70, 1], [1, 'garbage']] },
        { type: '3DSOLID', pairs: [[5, 'A2'], [8, '0'], [100, 'AcDbModelerGeometry'], [70, 1]] },
        { type: 'TOLERANCE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [1, '{\\Fgdt;j}%%v0.1']] },
        { type: 'ACME_WIDGET', pairs: [[8, '0']] },
      ],
    });
    const d = parseDxf(dxf);
    const expected = { '3DSOLID': 2, ACME_WIDGET: 1, TOLERANCE: 1 };
    expect(drawingInfo(d).notDrawn).toEqual(expected);
    // `cad render` flattens with exact curves, the viewer with block instances too
    expect(flattenLayout(d, 'Model', { curves: true })!.skipped).toEqual(expected);
    const scene = compileScene(d, flattenLayout(d, 'Model', { curves: true, blockInstances: true, segmentLists: true })!, { layout: 'Model', layouts: layoutNames(d) });
    expect(scene.meta.notDrawn).toEqual(expected);
    expect((await drawingThumbnailPng(dxf, 128)).notDrawn).toEqual(expected);
  });
});
