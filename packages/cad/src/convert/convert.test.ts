import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { blockFixtureDxf } from '../testing/block-fixture.ts';
import { convertDrawing, writableTargets } from './index.ts';

describe('convertDrawing', () => {
  const d = parseDxf(blockFixtureDxf(10));

  it('writes a PDF and a PNG of the default layout', async () => {
    const pdf = await convertDrawing(d, 'pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.mime).toBe('application/pdf');
    const png = await convertDrawing(d, 'png', { width: 200 });
    expect(png.bytes.readUInt32BE(16)).toBe(200);
  });

  it('saves the drawing as another DXF version (2018 unless asked), every layout kept', async () => {
    const dxf = await convertDrawing(d, 'dxf', { version: '2013' });
    expect(dxf).toMatchObject({ ext: 'dxf', mime: 'image/vnd.dxf' });
    const back = parseDxf(dxf.bytes);
    expect(back.header.version).toBe('AC1027');
    expect(back.counts).toEqual(d.counts);
    expect(parseDxf((await convertDrawing(d, 'dxf')).bytes).header.version).toBe('AC1032');
  });

  it('never offers or pretends a DWG target while no DWG writer exists', async () => {
    expect(writableTargets()).not.toContain('dwg');
    await expect(convertDrawing(d, 'dwg')).rejects.toMatchObject({ code: 'cad.targetUnavailable' });
  });

  it('names the layouts a drawing has when asked for one it lacks', async () => {
    await expect(convertDrawing(d, 'pdf', { layouts: ['Nope'] })).rejects.toMatchObject({ code: 'cad.layoutNotFound' });
  });
});
