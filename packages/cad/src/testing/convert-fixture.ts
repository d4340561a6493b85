import { deflateSync } from 'node:zlib';
import { writeAsciiDxf, type FixtureEntity } from './dxf-writer.ts';

/**
 * A drawing for the conversion tests: model space with lines on three layers (one named in Chinese), a TrueType
 * TEXT and MTEXT, an SHX TEXT, a solid hatch-like SOLID; and a paper layout "Sheet A3" with a page setup (ISO A3
 * landscape, 10 mm margins, 1:1 mm) holding a line and a TrueType text.
 */
export const FIXTURE_TTF_TEXTS = ['Hello PDF world', 'Second line here', 'Sheet title'];
export const FIXTURE_SHX_TEXT = 'SHX searchable';
export const FIXTURE_LAYERS = ['0', 'WALLS', '图层一'];

export function convertFixtureDxf(): Uint8Array {
  const line = (layer: string, color: number, x0: number, y0: number, x1: number, y1: number, paper = false): FixtureEntity => ({
    type: 'LINE',
    pairs: [[8, layer], ...(paper ? ([[67, 1]] as [number, number][]) : []), [62, color], [370, 50], [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]],
  });
  const text = (layer: string, style: string, s: string, x: number, y: number, h: number, paper = false): FixtureEntity => ({
    type: 'TEXT',
    pairs: [[8, layer], ...(paper ? ([[67, 1]] as [number, number][]) : []), [7, style], [10, x], [20, y], [30, 0], [40, h], [1, s]],
  });
  return writeAsciiDxf({
    // 2007 on: the file is UTF-8 (the Chinese layer name)
    version: 'AC1021',
    layers: FIXTURE_LAYERS,
    layerColors: { WALLS: 1, 图层一: 3 },
    styles: [
      { name: 'TT', font: 'arial.ttf' },
      { name: 'SHX', font: 'txt.shx' },
    ],
    entities: [
      line('WALLS', 1, 0, 0, 2000, 0),
      line('WALLS', 1, 2000, 0, 2000, 1000),
      line('图层一', 3, 0, 1000, 2000, 1000),
      line('0', 7, 0, 0, 0, 1000),
      { type: 'SOLID', pairs: [[8, 'WALLS'], [62, 5], [10, 100], [20, 100], [11, 300], [21, 100], [12, 100], [22, 300], [13, 300], [23, 300]] },
      text('0', 'TT', FIXTURE_TTF_TEXTS[0], 200, 600, 80),
      { type: 'MTEXT', pairs: [[8, '图层一'], [7, 'TT'], [10, 200], [20, 450], [30, 0], [40, 60], [71, 1], [1, FIXTURE_TTF_TEXTS[1]]] },
      text('WALLS', 'SHX', FIXTURE_SHX_TEXT, 200, 200, 80),
      line('0', 7, 20, 20, 400, 20, true),
      text('0', 'TT', FIXTURE_TTF_TEXTS[2], 30, 40, 8, true),
    ],
    objects: [
      {
        type: 'LAYOUT',
        pairs: [
          [5, '1F'], [100, 'AcDbPlotSettings'], [1, ''], [4, 'ISO_A3_(420.00_x_297.00_MM)'],
          [40, 10], [41, 10], [42, 10], [43, 10], [44, 420], [45, 297], [46, 0], [47, 0],
          [70, 0], [72, 1], [73, 0], [74, 5], [142, 1], [143, 1],
          [100, 'AcDbLayout'], [1, 'Sheet A3'], [70, 1], [71, 1], [10, -10], [20, -10], [11, 410], [21, 287],
        ],
      },
    ],
  });
}

/**
 * A CTB file as AutoCAD writes it: the 60-byte header and the zlib-compressed text. `styles`: per ACI, the pen
 * colour (0xRRGGBB, or undefined for object colour) and lineweight table index (255 = object lineweight).
 */
export function ctbFixture(styles: Record<number, { color?: number; lineweight?: number }>, lineweights = [0, 0.05, 0.09, 0.1, 0.13, 0.15, 0.18, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]): Uint8Array {
  const lines = ['description="test', 'aci_table_available=TRUE', 'scale_factor=1.0', 'apply_factor=FALSE', 'custom_lineweight_display_units=0', 'aci_table{'];
  for (let i = 0; i < 255; i++) lines.push(` ${i}="Color_${i + 1}`);
  lines.push('}', 'plot_style{');
  for (let i = 0; i < 255; i++) {
    const s = styles[i + 1] ?? {};
    const color = s.color === undefined ? -1 : (0xc3000000 | s.color) >> 0;
    lines.push(` ${i}{`, `  name="Color_${i + 1}`, `  color=${color}`, `  mode_color=${color}`, '  color_policy=1', '  screen=100', `  lineweight=${s.lineweight ?? 255}`, ' }');
  }
  lines.push('}', 'custom_lineweight_table{', ...lineweights.map((w, i) => ` ${i}=${w.toFixed(2)}`), '}');
  const body = Buffer.from(lines.join('\n') + '\n\0', 'utf8');
  const z = deflateSync(body);
  const head = Buffer.alloc(60);
  head.write('PIAFILEVERSION_2.0,CTBVER1,compress\r\npmzlibcodec', 0, 'latin1');
  head.writeUInt32LE(0, 48);
  head.writeUInt32LE(body.length, 52);
  head.writeUInt32LE(z.length, 56);
  return Buffer.concat([head, z]);
}

/**
 * An STB file (named plot styles) as AutoCAD writes it: the same header and zlib text as a CTB without the ACI table,
 * "Normal" (object colour and lineweight) first, then `styles` by name: pen colour, lineweight table index, screening.
 */
export function stbFixture(styles: { name: string; color?: number; lineweight?: number; screen?: number }[], lineweights = [0, 0.05, 0.09, 0.1, 0.13, 0.15, 0.18, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.53, 0.6, 0.7, 0.8, 0.9, 1.0]): Uint8Array {
  const lines = ['description="named test', 'aci_table_available=FALSE', 'scale_factor=1.0', 'apply_factor=FALSE', 'custom_lineweight_display_units=0', 'plot_style{'];
  [{ name: 'Normal' }, ...styles].forEach((s: { name: string; color?: number; lineweight?: number; screen?: number }, i) => {
    const color = s.color === undefined ? -1 : (0xc3000000 | s.color) >> 0;
    lines.push(` ${i}{`, `  name="${s.name}`, '  localized_name="', `  color=${color}`, `  mode_color=${color}`, '  color_policy=1', `  screen=${s.screen ?? 100}`, `  lineweight=${s.lineweight ?? 255}`, ' }');
  });
  lines.push('}', 'custom_lineweight_table{', ...lineweights.map((w, i) => ` ${i}=${w.toFixed(2)}`), '}');
  const body = Buffer.from(lines.join('\n') + '\n\0', 'utf8');
  const z = deflateSync(body);
  const head = Buffer.alloc(60);
  head.write('PIAFILEVERSION_2.0,STBVER1,compress\r\npmzlibcodec', 0, 'latin1');
  head.writeUInt32LE(0, 48);
  head.writeUInt32LE(body.length, 52);
  head.writeUInt32LE(z.length, 56);
  return Buffer.concat([head, z]);
}

/**
 * A named-plot-style drawing: the root dictionary naming ACAD_PLOTSTYLENAME, which names "Normal", "Red" and "Thick"
 * (ACDBPLACEHOLDER objects); layer RED points at "Red", layer 0 at "Normal". Lines: green on RED with no style of its
 * own (ByLayer: "Red"), blue on 0 pointing at "Thick", green on 0 with none (ByLayer: "Normal").
 */
export function namedPlotStyleDxf(): Uint8Array {
  const line = (layer: string, color: number, y: number, style?: string): FixtureEntity => ({
    type: 'LINE',
    pairs: [[5, `A${y}`], [8, layer], [62, color], ...(style ? ([[390, style]] as [number, string][]) : []), [10, 0], [20, y], [30, 0], [11, 100], [21, y], [31, 0]],
  });
  return writeAsciiDxf({
    version: 'AC1018',
    layers: ['0', 'RED'],
    layerPairs: { '0': [[5, '10'], [390, 'F1']], RED: [[5, '11'], [390, 'F2']] },
    entities: [line('RED', 3, 0), line('0', 5, 10, 'F3'), line('0', 3, 20)],
    objects: [
      { type: 'DICTIONARY', pairs: [[5, 'C'], [330, '0'], [100, 'AcDbDictionary'], [281, 1], [3, 'ACAD_GROUP'], [350, 'D'], [3, 'ACAD_PLOTSTYLENAME'], [350, 'E']] },
      { type: 'DICTIONARY', pairs: [[5, 'D'], [330, 'C'], [100, 'AcDbDictionary'], [281, 1]] },
      { type: 'ACDBDICTIONARYWDFLT', pairs: [[5, 'E'], [330, 'C'], [100, 'AcDbDictionary'], [281, 1], [3, 'Normal'], [350, 'F1'], [3, 'Red'], [350, 'F2'], [3, 'Thick'], [350, 'F3'], [100, 'AcDbDictionaryWithDefault'], [340, 'F1']] },
      { type: 'ACDBPLACEHOLDER', pairs: [[5, 'F1'], [330, 'E']] },
      { type: 'ACDBPLACEHOLDER', pairs: [[5, 'F2'], [330, 'E']] },
      { type: 'ACDBPLACEHOLDER', pairs: [[5, 'F3'], [330, 'E']] },
    ],
  });
}
