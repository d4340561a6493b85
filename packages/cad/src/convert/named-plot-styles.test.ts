import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { namedPlotStyleDxf, stbFixture } from '../testing/convert-fixture.ts';
import { inspectPdf } from '../testing/pdf-inspect.ts';
import { parsePlotStyleTable } from '../render/plot-style.ts';
import { convertDrawing } from './index.ts';

describe('named plot styles (STB)', () => {
  const d = parseDxf(namedPlotStyleDxf());
  // "Red": red pen, 0.50 mm; "Thick": object colour, 1.00 mm, screened to 50 %
  const stb = stbFixture([
    { name: 'Red', color: 0xff0000, lineweight: 13 },
    { name: 'Thick', lineweight: 19, screen: 50 },
  ]);

  it('reads the style names of layers (390) and of the ACAD_PLOTSTYLENAME dictionary', () => {
    expect(d.plotStyleNames).toEqual({ F1: 'Normal', F2: 'Red', F3: 'Thick' });
    expect(Object.fromEntries(d.layers.map((l) => [l.name, l.plotStyle]))).toEqual({ '0': 'F1', RED: 'F2' });
    expect(parsePlotStyleTable(stb)).toMatchObject({ kind: 'stb', styles: [{ name: 'Normal' }, { name: 'Red', color: 0xff0000, lineweight: 0.5 }, { name: 'Thick', lineweight: 1, screen: 50 }] });
  });

  it('prints each line with its own named style, else its layer’s', async () => {
    const plain = await inspectPdf((await convertDrawing(d, 'pdf')).bytes, { operators: true });
    expect(new Set(plain.pages[0].strokeColors)).toEqual(new Set(['#00ff00', '#0000ff']));
    const styled = await inspectPdf((await convertDrawing(d, 'pdf', { plotStyleTable: stb })).bytes, { operators: true });
    const colors = new Set(styled.pages[0].strokeColors);
    // the green line on RED (ByLayer → "Red"), the green one on 0 ("Normal": as drawn), the blue one "Thick" at 50 %
    expect(colors).toEqual(new Set(['#ff0000', '#00ff00', '#8080ff']));
    // 0.50 mm = 1.42 pt, 1.00 mm = 2.83 pt
    expect(styled.pages[0].lineWidths).toEqual(expect.arrayContaining([1.42, 2.83]));
  });
});
