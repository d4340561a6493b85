import { describe, expect, it } from 'vitest';
import { parseDxf, pairValue } from '../../dxf/reader.ts';
import { flattenModelSpace } from '../../geometry/flatten.ts';
import { layoutEntities, layoutNames } from '../../geometry/layout.ts';
import { databaseToDxf, numberViewports } from './database-to-dxf.ts';

/** what every entity of LibreDWG's `convert` carries */
const common = (handle: string, layer: string, owner: string) => ({ handle, layer, ownerBlockRecordSoftId: owner, colorIndex: 256, lineType: '', lineweight: 29, lineTypeScale: 1, isVisible: true });
const p = (x: number, y: number, z = 0) => ({ x, y, z });

/** A small DwgDatabase as LibreDWG's `convert` makes it (angles in radians, DWG flags, ATTRIBs inside the INSERT). */
function smallDatabase() {
  const model = [
    { type: 'LINE', ...common('100', 'Walls', '1F'), startPoint: p(0, 0), endPoint: p(10, 5), extrusionDirection: p(0, 0, 1) },
    { type: 'ARC', ...common('101', 'Walls', '1F'), center: p(20, 0), radius: 5, startAngle: 0, endAngle: Math.PI / 2, extrusionDirection: p(0, 0, 1) },
    // DWG flag 512: closed; the first segment bulges a half circle
    { type: 'LWPOLYLINE', ...common('102', 'Walls', '1F'), flag: 512, constantWidth: 0, elevation: 0, extrusionDirection: p(0, 0, 0), vertices: [{ x: 0, y: 20, bulge: 1 }, { x: 10, y: 20, bulge: 0 }, { x: 10, y: 30, bulge: 0 }] },
    { type: 'TEXT', ...common('103', 'Walls', '1F'), text: 'Café', startPoint: { x: 1, y: 2 }, endPoint: { x: 0, y: 0 }, textHeight: 2.5, rotation: Math.PI / 6, xScale: 0.8, obliqueAngle: 0, styleName: 'Notes', generationFlag: 0, halign: 0, valign: 0, extrusionDirection: p(0, 0, 1) },
    {
      type: 'INSERT', ...common('104', 'Walls', '1F'), name: 'DOOR', insertionPoint: p(50, 50), xScale: 2, yScale: 2, zScale: 1, rotation: Math.PI / 2, columnCount: 0, rowCount: 0, columnSpacing: 0, rowSpacing: 0, extrusionDirection: p(0, 0, 1),
      attribs: [{ type: 'ATTRIB', ...common('105', 'Walls', '104'), text: { text: 'D-01', startPoint: { x: 50, y: 48 }, endPoint: { x: 0, y: 0 }, textHeight: 1, rotation: 0, xScale: 1, obliqueAngle: 0, styleName: 'Standard', generationFlag: 0, halign: 0, valign: 0, extrusionDirection: p(0, 0, 1) }, tag: 'NUMBER', flags: 0 }],
    },
    // LibreDWG also lists the INSERT's ATTRIB on its own: it must be written once, under its INSERT
    { type: 'ATTRIB', ...common('105', 'Walls', '104'), text: { text: 'D-01', startPoint: { x: 50, y: 48 } }, tag: 'NUMBER', flags: 0 },
    // a type `convert` does not know, added by the worker with its common fields only
    { type: 'LIGHT', handle: '106', layer: 'Walls', colorIndex: 256, lineweight: 29, unconverted: true },
  ];
  return {
    header: { INSUNITS: 4, EXTMIN: p(-1, -1), EXTMAX: p(100, 100), LTSCALE: 1, CLAYER: 'Walls', DIMSCALE: 1.5 },
    tables: {
      LAYER: {
        entries: [
          // LibreDWG's converter says `locked: true` for every layer (a misspelt field): the flags (4: locked) decide
          { handle: '10', name: '0', standardFlag: 16, colorIndex: 7, lineType: 'Continuous', frozen: false, off: false, locked: true, lineweight: 31 },
          { handle: '11', name: 'Walls', standardFlag: 20, colorIndex: 1, lineType: 'Dashed', frozen: false, off: false, locked: true, lineweight: 9 },
          { handle: '12', name: 'Hidden', standardFlag: 17, colorIndex: 3, lineType: 'Continuous', frozen: true, off: true, locked: true, lineweight: 29 },
          // a true colour layer: no index, its rgb (the nearest index goes to 62)
          { handle: '13', name: 'Brand', standardFlag: 16, colorIndex: 256, color: 0xe8e8e8, lineType: 'Continuous', frozen: false, off: false, locked: true, lineweight: 31 },
        ],
      },
      LTYPE: { entries: [{ handle: '20', name: 'Continuous', description: 'Solid line', totalPatternLength: 0, pattern: [] }, { handle: '21', name: 'Dashed', description: '__ __', totalPatternLength: 0.75, pattern: [{ elementLength: 0.5, elementTypeFlag: 0 }, { elementLength: -0.25, elementTypeFlag: 0 }] }] },
      STYLE: { entries: [{ handle: '30', name: 'Notes', standardFlag: 0, fixedTextHeight: 0, widthFactor: 0.8, obliqueAngle: Math.PI / 12, textGenerationFlag: 0, lastHeight: 2.5, font: 'romans.shx', bigFont: 'gbcbig.shx' }] },
      DIMSTYLE: { entries: [{ handle: '40', name: 'ISO-25' }] },
      BLOCK_RECORD: {
        entries: [
          { handle: '1F', name: '*Model_Space', flags: 0, basePoint: p(0, 0), entities: model },
          { handle: '50', name: '*Paper_Space', flags: 0, basePoint: p(0, 0), entities: [{ type: 'VIEWPORT', ...common('107', '0', '50'), viewportCenter: p(100, 80), width: 200, height: 150, status: 1, viewportId: 1, displayCenter: { x: 0, y: 0 }, targetPoint: p(0, 0), viewHeight: 150, viewTwistAngle: 0 }] },
          { handle: '60', name: 'DOOR', flags: 2, basePoint: p(1, 0), entities: [{ type: 'LINE', ...common('108', '0', '60'), startPoint: p(1, 0), endPoint: p(3, 0) }] },
        ],
      },
    },
    objects: { LAYOUT: [{ handle: '70', layoutName: 'Model', tabOrder: 0, paperSpaceTableId: '1F' }, { handle: '71', layoutName: 'Sheet A', tabOrder: 1, paperSpaceTableId: '50' }] },
  };
}

describe('DwgDatabase → DXF (the fallback when LibreDWG cannot write DXF for a file), read back by parseDxf', () => {
  const d = parseDxf(Buffer.from(databaseToDxf(smallDatabase(), { version: 'AC1018', codePage: 'ANSI_1252' })));

  it('writes the header the model reads', () => {
    expect(d.header).toMatchObject({ version: 'AC1018', codePage: 'ANSI_1252', units: 4, extMin: { x: -1, y: -1, z: 0 }, extMax: { x: 100, y: 100, z: 0 } });
    expect(d.header.vars.$CLAYER).toBe('Walls');
    expect(d.header.vars.$DIMSCALE).toBe(1.5);
  });

  it('writes layers (colour, off as a negative colour, frozen, locked, linetype, lineweight), linetypes and styles', () => {
    // each layer keeps its handle (what a viewport's frozen-layer list names)
    expect(d.layers.every((l) => typeof l.handle === 'string')).toBe(true);
    expect(d.layers.map(({ handle: _handle, ...l }) => l)).toEqual([
      { name: '0', color: 7, linetype: 'Continuous', lineweight: -3, on: true, frozen: false, locked: false },
      // LibreDWG gives the DWG's lineweight index: 9 is 0.35 mm, 29 ByLayer, 31 Default
      { name: 'Walls', color: 1, linetype: 'Dashed', lineweight: 35, on: true, frozen: false, locked: true },
      { name: 'Hidden', color: 3, linetype: 'Continuous', lineweight: -1, on: false, frozen: true, locked: false },
      { name: 'Brand', color: 7, trueColor: 0xe8e8e8, linetype: 'Continuous', lineweight: -3, on: true, frozen: false, locked: false },
    ]);
    expect(d.linetypes.find((l) => l.name === 'Dashed')).toMatchObject({ name: 'Dashed', description: '__ __', pattern: [0.5, -0.25] });
    expect(d.textStyles).toMatchObject([{ name: 'Notes', font: 'romans.shx', bigFont: 'gbcbig.shx', widthFactor: 0.8 }]);
    expect(d.textStyles[0].oblique).toBeCloseTo(15);
  });

  it('writes each entity once with its geometry, ATTRIBs under their INSERT, and counts a type it cannot map', () => {
    expect(d.entities.map((e) => e.type)).toEqual(['LINE', 'ARC', 'LWPOLYLINE', 'TEXT', 'INSERT', 'LIGHT', 'VIEWPORT']);
    expect(d.counts).toEqual({ LINE: 2, ARC: 1, LWPOLYLINE: 1, TEXT: 1, INSERT: 1, ATTRIB: 1, SEQEND: 1, LIGHT: 1, VIEWPORT: 1 });
    expect(d.unsupported).toEqual({ LIGHT: 1 });
    const [line, arc, poly, text, insert, light] = d.entities;
    expect(line).toMatchObject({ handle: '100', layer: 'Walls', color: 256, owner: '1F', paperSpace: false });
    expect([11, 21].map((c) => pairValue(line, c))).toEqual([10, 5]);
    // radians in, degrees out
    expect([40, 50, 51].map((c) => pairValue(arc, c))).toEqual([5, 0, 90]);
    expect(pairValue(poly, 70)).toBe(1);
    expect(poly.pairs.filter(([c]) => c === 42).map(([, v]) => v)).toEqual([1]);
    expect([1, 7, 40, 41].map((c) => pairValue(text, c))).toEqual(['Café', 'Notes', 2.5, 0.8]);
    expect(pairValue(text, 50)).toBeCloseTo(30);
    expect([2, 41, 42, 50].map((c) => pairValue(insert, c))).toEqual(['DOOR', 2, 2, 90]);
    expect(insert.children!.map((c) => [c.type, pairValue(c, 1)])).toEqual([['ATTRIB', 'D-01'], ['SEQEND', undefined]]);
    expect(light).toMatchObject({ handle: '106', layer: 'Walls' });
  });

  it('draws them: the bulge as an arc, the INSERT through its block', () => {
    // Walls is dashed: drawn without its linetype here, so each entity is one polyline
    const flat = flattenModelSpace(d, { linetypes: false, tolerance: 0.01 })!;
    const of = (handle: string) => flat.polylines.filter((pl) => flat.entities[pl.entity].handle === handle);
    // the closed polyline: a half circle below (0,20)–(10,20), then the straight sides back
    const ring = of('102')[0].points;
    const ys = ring.filter((_, i) => i % 2 === 1);
    expect(Math.min(...ys)).toBeCloseTo(15, 1);
    expect(of('102')[0].closed).toBe(true);
    // the block's line (1,0)–(3,0), base (1,0), scaled 2 and turned 90° at (50,50): (50,50)–(50,54)
    const door = of('104').find((pl) => pl.points.length === 4)!.points;
    expect(door.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([50, 50, 50, 54]);
    expect(flat.texts.map((t) => t.text)).toEqual(expect.arrayContaining(['Café', 'D-01']));
  });

  it('keeps the paper layout and its viewport, found by the layout’s block record', () => {
    expect(layoutNames(d)).toEqual(['Model', 'Sheet A']);
    expect(layoutEntities(d, 'Sheet A')!.map((e) => [e.type, e.paperSpace])).toEqual([['VIEWPORT', true]]);
    expect(d.blocks.map((b) => b.name)).toEqual(['*Model_Space', '*Paper_Space', 'DOOR']);
  });

  it('numbers a layout’s viewports as DXF does (1: the sheet), off (68 = 0) only when the DWG flags say so', () => {
    const vp = (handle: string, statusBitFlags: number) => ({ type: 'VIEWPORT', handle, viewportId: 7, status: 0, statusBitFlags });
    const out = numberViewports([vp('1', 32800), { type: 'LINE', handle: '2' }, vp('3', 32800), vp('4', 32800 | 131072)]);
    expect(out.map((e) => [e.handle, e.viewportId, e.status])).toEqual([['1', 1, 1], ['2', undefined, undefined], ['3', 2, 2], ['4', 3, 0]]);
  });
});
