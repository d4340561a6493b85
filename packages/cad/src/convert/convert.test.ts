import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { parseDxf } from '../dxf/reader.ts';
import { blockFixtureDxf } from '../testing/block-fixture.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { convertFixtureDxf, ctbFixture, FIXTURE_LAYERS, FIXTURE_SHX_TEXT, FIXTURE_TTF_TEXTS } from '../testing/convert-fixture.ts';
import { inspectPdf, squash } from '../testing/pdf-inspect.ts';
import { decodeBmp } from '../render/bmp.ts';
import { parsePlotStyleTable } from '../render/plot-style.ts';
import { convertDrawing, loadConvertText, writableTargets } from './index.ts';

const noFonts = async () => null;

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

describe('a conversion is a plot', () => {
  // a green line on layer Walls; a red line on a layer whose plot flag is off (290 = 0) and a blue one on Defpoints:
  // the viewer shows all three, as AutoCAD's screen does, but a plot leaves the last two out
  const d = parseDxf(writeAsciiDxf({
    layers: ['0', 'Walls', 'Notes', 'Defpoints'],
    layerPairs: { Notes: [[290, 0]] },
    entities: [
      { type: 'LINE', pairs: [[8, 'Walls'], [62, 3], [10, 0], [20, 0], [11, 100], [21, 0]] },
      { type: 'LINE', pairs: [[8, 'Notes'], [62, 1], [10, 0], [20, 50], [11, 100], [21, 50]] },
      { type: 'LINE', pairs: [[8, 'Defpoints'], [62, 5], [10, 0], [20, 100], [11, 100], [21, 100]] },
    ],
  }));

  it('leaves out layers that are not plotted and Defpoints, in PDF and pictures', async () => {
    const f = await inspectPdf((await convertDrawing(d, 'pdf')).bytes, { operators: true });
    expect(new Set(f.pages[0].strokeColors)).toEqual(new Set(['#00ff00']));
    const png = await sharp((await convertDrawing(d, 'png', { width: 200 })).bytes).raw().toBuffer({ resolveWithObject: true });
    let red = 0, blue = 0, green = 0;
    for (let i = 0; i < png.data.length; i += png.info.channels) {
      const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      if (r > 150 && g < 90 && b < 90) red++;
      if (b > 150 && r < 90 && g < 90) blue++;
      if (g > r + 60 && g > b + 60) green++; // a thin line blends with the white sheet
    }
    expect({ red, blue, green: green > 20 }).toEqual({ red: 0, blue: 0, green: true });
  });
});

describe('drawing to PDF', () => {
  const d = parseDxf(convertFixtureDxf());

  it('reads a layout page setup from its LAYOUT object', () => {
    const sheet = d.layouts.find((l) => l.name === 'Sheet A3')!;
    expect(sheet.plot).toMatchObject({ paperWidth: 420, paperHeight: 297, margins: [10, 10, 10, 10], plotType: 5, paperUnits: 1 });
  });

  it('writes one page per layout on its paper, TrueType text as real text, SHX text searchable, layers as optional content, an outline', async () => {
    const support = await loadConvertText(d, noFonts);
    const pdf = await convertDrawing(d, 'pdf', { layouts: 'all', paper: 'A4' }, support);
    expect(pdf.layouts).toEqual(['Model', 'Sheet A3']);
    const f = await inspectPdf(pdf.bytes, { operators: true });
    expect(f.pages).toHaveLength(2);
    // TrueType text filled (mode 0), SHX text as strokes with invisible text (mode 3) over them
    expect(new Set(f.pages[0].textModes)).toEqual(new Set([0, 3]));
    expect(new Set(f.pages[1].textModes)).toEqual(new Set([0]));
    // model space on the A4 asked for, landscape as the drawing is wide; the sheet on its own A3
    expect(f.pages[0].widthMm).toBeCloseTo(297, 1);
    expect(f.pages[0].heightMm).toBeCloseTo(210, 1);
    expect(f.pages[1].widthMm).toBeCloseTo(420, 1);
    expect(f.pages[1].heightMm).toBeCloseTo(297, 1);
    expect(squash(f.pages[0].text)).toContain(squash(FIXTURE_TTF_TEXTS[0]));
    expect(squash(f.pages[0].text)).toContain(squash(FIXTURE_TTF_TEXTS[1]));
    expect(squash(f.pages[0].text)).toContain(squash(FIXTURE_SHX_TEXT));
    expect(squash(f.pages[1].text)).toBe(squash(FIXTURE_TTF_TEXTS[2]));
    expect(f.layers.sort()).toEqual([...FIXTURE_LAYERS].sort());
    expect(f.outline).toEqual(['Model', 'Sheet A3']);
    // vector only: no picture in the file
    expect(pdf.bytes.includes('/Subtype /Image')).toBe(false);
    // the fonts are embedded as subsets, not whole
    expect(pdf.bytes.length).toBeLessThan(60_000);
  });

  it('prints lines at their lineweight, and by the plot style table when one is given', async () => {
    const plain = await inspectPdf((await convertDrawing(d, 'pdf', {}, await loadConvertText(d, noFonts))).bytes, { operators: true });
    expect(plain.pages[0].strokeColors).toContain('#ff0000');
    // 0.50 mm lines: 1.42 pt whatever the scale
    expect(plain.pages[0].lineWidths).toContain(1.42);
    const ctb = ctbFixture({ 1: { color: 0x00ff00, lineweight: 8 } });
    expect(parsePlotStyleTable(ctb).styles[1]).toMatchObject({ color: 0x00ff00, lineweight: 0.25 });
    const styled = await inspectPdf((await convertDrawing(d, 'pdf', { plotStyleTable: ctb }, await loadConvertText(d, noFonts))).bytes, { operators: true });
    expect(styled.pages[0].strokeColors).toContain('#00ff00');
    expect(styled.pages[0].strokeColors).not.toContain('#ff0000');
    expect(styled.pages[0].lineWidths).toContain(0.71);
    const mono = await inspectPdf((await convertDrawing(d, 'pdf', { colorMode: 'monochrome' })).bytes, { operators: true });
    expect(new Set(mono.pages[0].strokeColors)).toEqual(new Set(['#000000']));
  });

  it('scales 1:N with the drawing units on a page as big as it needs', async () => {
    // 2000 × 1000 mm at 1:10 with 10 mm margins
    const f = await inspectPdf((await convertDrawing(d, 'pdf', { scale: 10 })).bytes);
    expect(f.pages[0].widthMm).toBeCloseTo(220, 1);
    expect(f.pages[0].heightMm).toBeCloseTo(120, 1);
  });

  it('refuses a plot style table it cannot read', async () => {
    await expect(convertDrawing(d, 'pdf', { plotStyleTable: new Uint8Array(80) })).rejects.toMatchObject({ code: 'cad.parseFailed' });
  });
});

describe('drawing to pictures', () => {
  const d = parseDxf(convertFixtureDxf());
  const inked = (rgb: Buffer, channels: number, bg: number) => {
    let n = 0;
    for (let i = 0; i < rgb.length; i += channels) if (rgb[i] !== bg || rgb[i + 1] !== bg || rgb[i + 2] !== bg) n++;
    return n;
  };

  it('makes PNG, JPEG and BMP of exactly the size asked for, with ink', async () => {
    const text = (await loadConvertText(d, noFonts)).text;
    for (const format of ['png', 'jpg'] as const) {
      const r = await convertDrawing(d, format, { width: 640, height: 300 }, { text });
      const { data, info } = await sharp(r.bytes).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.format]).toEqual([640, 300, 'raw']);
      expect(inked(data, info.channels, 255)).toBeGreaterThan(2000);
    }
    const bmp = decodeBmp((await convertDrawing(d, 'bmp', { width: 333, height: 211, background: 'black' }, { text })).bytes);
    expect([bmp.width, bmp.height]).toEqual([333, 211]);
    expect(inked(bmp.data, 4, 0)).toBeGreaterThan(500);
  });

  it('keeps a transparent background in PNG and sizes a picture by DPI on its paper', async () => {
    const png = await convertDrawing(d, 'png', { width: 400, background: 'transparent' });
    const { data, info } = await sharp(png.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0);
    const a4 = await sharp((await convertDrawing(d, 'png', { dpi: 100, paper: 'A4' })).bytes).metadata();
    expect([a4.width, a4.height]).toEqual([Math.round((297 / 25.4) * 100), Math.round((210 / 25.4) * 100)]);
  });

  it('rasterises a wide picture in strips and shows a given area', async () => {
    const r = await convertDrawing(d, 'png', { width: 6000, height: 3000, area: { minX: 0, minY: 0, maxX: 1000, maxY: 500 } });
    const { data, info } = await sharp(r.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([6000, 3000]);
    // the red wall along y = 0 lies on the bottom row band of the area; the strips join without a seam of background
    let red = 0;
    for (let y = info.height - 40; y < info.height; y++) for (let x = 0; x < info.width; x += 7) {
      const i = (y * info.width + x) * info.channels;
      if (data[i] > 200 && data[i + 1] < 80) red++;
    }
    expect(red).toBeGreaterThan(100);
  });

  it('refuses pictures above 16,000 px a side', async () => {
    await expect(convertDrawing(d, 'png', { width: 16_001 })).rejects.toMatchObject({ code: 'cad.tooLarge' });
  });
});
