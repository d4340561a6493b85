import { describe, expect, it } from 'vitest';
import { parseDxf, pairValue } from './reader.ts';
import { CadError } from '../model/drawing.ts';
import { writeAsciiDxf, writeBinaryDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { drawingInfo } from '../info.ts';

const line = (layer = '0'): FixtureEntity => ({ type: 'LINE', pairs: [[5, 'A1'], [8, layer], [62, 1], [10, 0], [20, 0], [30, 0], [11, 10], [21, 5], [31, 0]] });

/** pairs as ASCII DXF lines, group codes right-aligned in three columns as AutoCAD writes them */
const rawDxf = (pairs: [number, string | number][], eol = '\n') =>
  new TextEncoder().encode(pairs.map(([c, v]) => `${String(c).padStart(3)}${eol}${v}${eol}`).join(''));

describe('DXF reader on drawings generated in code', () => {
  it('reads header, layers, entities with their common properties, blocks and nested records', () => {
    const bytes = writeAsciiDxf({
      layers: ['0', 'Walls'],
      blocks: [{ name: 'DOOR', entities: [{ type: 'ARC', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 1], [50, 0], [51, 90]] }] }],
      entities: [
        line('Walls'),
        { type: 'POLYLINE', pairs: [[8, '0'], [66, 1], [70, 1]] },
        { type: 'VERTEX', pairs: [[8, '0'], [10, 1], [20, 1], [30, 0]] },
        { type: 'VERTEX', pairs: [[8, '0'], [10, 2], [20, 2], [30, 0]] },
        { type: 'SEQEND', pairs: [[8, '0']] },
        { type: 'INSERT', pairs: [[8, '0'], [66, 1], [2, 'DOOR'], [10, 5], [20, 5], [30, 0]] },
        { type: 'ATTRIB', pairs: [[8, '0'], [1, 'D-01'], [2, 'TAG']] },
        { type: 'SEQEND', pairs: [[8, '0']] },
        { type: 'ACME_WIDGET', pairs: [[8, '0']] },
      ],
    });
    const d = parseDxf(bytes);
    expect(d.header).toMatchObject({ version: 'AC1015', units: 4, codePage: 'ANSI_1252' });
    expect(d.layers.map((l) => l.name)).toEqual(['0', 'Walls']);
    expect(d.entities.map((e) => e.type)).toEqual(['LINE', 'POLYLINE', 'INSERT', 'ACME_WIDGET']);
    expect(d.entities[0]).toMatchObject({ handle: 'A1', layer: 'Walls', color: 1, paperSpace: false });
    expect(pairValue(d.entities[0], 11)).toBe(10);
    expect(d.entities[1].children!.map((c) => c.type)).toEqual(['VERTEX', 'VERTEX', 'SEQEND']);
    expect(pairValue(d.entities[2].children![0], 1)).toBe('D-01');
    expect(d.blocks.find((b) => b.name === 'DOOR')!.entities.map((e) => e.type)).toEqual(['ARC']);
    expect(d.counts).toEqual({ LINE: 1, POLYLINE: 1, VERTEX: 2, SEQEND: 2, INSERT: 1, ATTRIB: 1, ACME_WIDGET: 1, ARC: 1 });
    // not understood yet, counted and kept, never dropped
    expect(d.unsupported).toEqual({ ACME_WIDGET: 1 });
    expect(drawingInfo(d).entities.total).toBe(10);
  });

  it('takes the common properties from an entity\'s pairs: owner after the reactor group, colours, lineweight, paper space, escapes', () => {
    const bytes = writeAsciiDxf({
      entities: [
        {
          type: 'MTEXT',
          pairs: [[5, '2F'], [102, '{ACAD_REACTORS'], [330, 'AA'], [102, '}'], [330, '1F'], [330, '1E'], [100, 'AcDbEntity'], [67, 1], [8, 'L\\U+4E2D'], [6, 'DASHED'], [62, 3], [420, 0x102030], [370, 25], [999, 'a comment'], [10, 1.5], [3, 'a\\U+00E9b'], [1, 'x\\Py'], [1000, '\\U+00FC'], [1999999999, 'far']],
        },
        { type: 'LINE', pairs: [[8, 'A'], [62, -2], [67, 0]] },
      ],
    });
    const [m, l] = parseDxf(bytes).entities;
    // the layer name decoded as the LAYER table's names are, so the entity finds its layer
    expect({ ...m }).toEqual({ type: 'MTEXT', handle: '2F', layer: 'L中', color: 3, trueColor: 0x102030, linetype: 'DASHED', lineweight: 25, paperSpace: true, owner: '1F' });
    expect(m.pairs).toEqual([[5, '2F'], [102, '{ACAD_REACTORS'], [330, 'AA'], [102, '}'], [330, '1F'], [330, '1E'], [100, 'AcDbEntity'], [67, 1], [8, 'L中'], [6, 'DASHED'], [62, 3], [420, 0x102030], [370, 25], [10, 1.5], [3, 'aéb'], [1, 'x\\Py'], [1000, 'ü'], [1999999999, 'far']]);
    expect({ ...l }).toEqual({ type: 'LINE', layer: 'A', color: -2, paperSpace: false });
    expect(JSON.parse(JSON.stringify(l))).toEqual({ type: 'LINE', layer: 'A', color: -2, paperSpace: false, pairs: [[8, 'A'], [62, -2], [67, 0]] });
  });

  it('decodes GBK text of an ANSI_936 drawing, and \\U+ and \\M+ escapes', () => {
    const gbk = (s: string) => (s === '中文图层' ? new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0xcd, 0xbc, 0xb2, 0xe3]) : new TextEncoder().encode(s));
    const bytes = writeAsciiDxf({
      codePage: 'ANSI_936',
      encoder: gbk,
      layers: ['0', '中文图层'],
      entities: [
        { type: 'TEXT', pairs: [[8, '中文图层'], [10, 0], [20, 0], [30, 0], [40, 2.5], [1, '中文图层']] },
        { type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 2.5], [1, 'A\\U+4E2D\\U+6587B']] },
        { type: 'MTEXT', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 2.5], [1, '\\M+5D6D0\\M+5CEC4 \\M+1889F']] },
      ],
    });
    const d = parseDxf(bytes);
    expect(d.layers[1].name).toBe('中文图层');
    expect(d.entities[0].layer).toBe('中文图层');
    expect(pairValue(d.entities[0], 1)).toBe('中文图层');
    expect(pairValue(d.entities[1], 1)).toBe('A中文B');
    // GBK D6D0 CEC4 = 中文; Shift-JIS 889F = 亜
    expect(pairValue(d.entities[2], 1)).toBe('中文 亜');
  });

  it('reads UTF-8 text of 2007+ drawings whatever the code page says', () => {
    const d = parseDxf(writeAsciiDxf({ version: 'AC1032', codePage: 'ANSI_1252', entities: [{ type: 'TEXT', pairs: [[8, '0'], [1, '한국어 도면']] }] }));
    expect(pairValue(d.entities[0], 1)).toBe('한국어 도면');
  });

  it('reads binary DXF', () => {
    const bytes = writeBinaryDxf([
      [0, 'SECTION'], [2, 'HEADER'], [9, '$ACADVER'], [1, 'AC1014'], [0, 'ENDSEC'],
      [0, 'SECTION'], [2, 'ENTITIES'],
      [0, 'LINE'], [5, '1F'], [8, 'L1'], [62, 3], [10, 1.5], [20, -2.25], [30, 0], [11, 4], [21, 8], [31, 0],
      [0, 'CIRCLE'], [8, 'L1'], [10, 0], [20, 0], [30, 0], [40, 12.5],
      [0, 'ENDSEC'], [0, 'EOF'],
    ]);
    const d = parseDxf(bytes);
    expect(d.binary).toBe(true);
    expect(d.header.version).toBe('AC1014');
    expect(d.entities.map((e) => [e.type, e.layer, e.color])).toEqual([['LINE', 'L1', 3], ['CIRCLE', 'L1', 256]]);
    expect(pairValue(d.entities[0], 20)).toBe(-2.25);
    expect(pairValue(d.entities[1], 40)).toBe(12.5);
  });

  it('reads header variables as written: the first of a repeated name, a point as its x; version, units, extents', () => {
    const d = parseDxf(rawDxf([
      [0, 'SECTION'], [2, 'HEADER'],
      [9, '$ACADVER'], [1, 'AC1018'], [999, 'a comment'], [9, '$INSUNITS'], [70, 6],
      [9, '$EXTMIN'], [10, -1.5], [20, 2], [30, 0], [9, '$EXTMAX'], [20, 40], [10, 30],
      [9, '$LTSCALE'], [40, 2.5], [9, '$LTSCALE'], [40, 9], [9, '$PROJECTNAME'], [1, 'Nord'],
      [0, 'ENDSEC'], [0, 'EOF'],
    ]));
    expect(d.header).toMatchObject({ version: 'AC1018', units: 6, codePage: 'ANSI_1252', extMin: { x: -1.5, y: 2, z: 0 }, extMax: { x: 30, y: 40, z: 0 } });
    expect(d.header.vars).toEqual({ $ACADVER: 'AC1018', $INSUNITS: 6, $EXTMIN: -1.5, $EXTMAX: 40, $LTSCALE: 2.5, $PROJECTNAME: 'Nord' });
    expect(JSON.parse(JSON.stringify(d.header)).vars.$LTSCALE).toBe(2.5);
    // a caller may replace the table (the DWG reader's model has a plain one)
    d.header.vars = { $LTSCALE: 3 };
    expect(d.header.vars).toEqual({ $LTSCALE: 3 });
    expect(() => parseDxf(rawDxf([[0, 'SECTION'], [2, 'HEADER'], [9, '$ACADVER'], [1, 'AC1018'], [0, 'LINE'], [0, 'ENDSEC'], [0, 'EOF']]))).toThrow(CadError);
  });

  it('finds the layouts and picture definitions among OBJECTS records whatever their values say, in LF, CRLF and binary files', () => {
    const objects: [number, string | number][] = [
      [0, 'SECTION'], [2, 'OBJECTS'],
      // values that spell the records looked for, under codes other than 0: not records
      [0, 'DICTIONARY'], [5, 'C'], [3, 'LAYOUT'], [350, '1A'], [3, 'IMAGEDEF'], [350, '1B'], [3, 'ENDSEC'], [350, '1C'],
      [0, 'XRECORD'], [5, 'D'], [1, 'LAYOUT'], [1, 'ENDSEC'], [70, 0], [1, 'IMAGEDEF'], [1, 'NDSEC'], [1, 'LAYOUTS'], [1, 'xIMAGEDEF'],
      [0, 'IMAGEDEF_REACTOR'], [5, 'G'],
      [0, 'LAYOUT'], [5, '1A'], [100, 'AcDbPlotSettings'], [1, 'plot name'], [100, 'AcDbLayout'], [1, 'Sheet A'], [71, 1], [330, '1F'],
      [0, 'ACDBPLACEHOLDER'], [5, 'E'],
      [0, 'IMAGEDEF'], [5, '1B'], [1, 'C:\\pics\\site.png'], [10, 640], [20, 480],
      [0, 'XRECORD'], [5, 'F'], [1, 'LAYOUT'],
      [0, 'LAYOUT'], [5, '1C'], [100, 'AcDbLayout'], [1, 'Model'], [71, 0], [330, '1E'],
      [0, 'ENDSEC'], [0, 'EOF'],
    ];
    const pairs: [number, string | number][] = [[0, 'SECTION'], [2, 'HEADER'], [9, '$ACADVER'], [1, 'AC1015'], [0, 'ENDSEC'], ...objects];
    for (const bytes of [rawDxf(pairs), rawDxf(pairs, '\r\n'), writeBinaryDxf(pairs)]) {
      const d = parseDxf(bytes);
      expect(d.layouts).toMatchObject([{ name: 'Sheet A', tabOrder: 1, blockRecord: '1F' }, { name: 'Model', tabOrder: 0, blockRecord: '1E' }]);
      expect(d.imageDefs).toEqual({ '1B': { file: 'C:\\pics\\site.png', width: 640, height: 480 } });
    }
  });

  it('ends every bad input with the spec message quickly', () => {
    const good = writeAsciiDxf({ entities: Array.from({ length: 50 }, () => line()) });
    const bad: Uint8Array[] = [new Uint8Array(0), new TextEncoder().encode('not a drawing at all\n'), good.subarray(0, 7), good.subarray(0, Math.floor(good.length / 2))];
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    bad.push(new Uint8Array(4096).map(() => Math.floor(rand() * 256)));
    for (const b of bad) {
      const t = performance.now();
      expect(() => parseDxf(b)).toThrow(CadError);
      try {
        parseDxf(b);
      } catch (e) {
        expect((e as Error).message).toBe('The drawing analysis failed!');
      }
      expect(performance.now() - t).toBeLessThan(2000);
    }
  });
});
