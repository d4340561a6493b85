import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { parseDwg } from '../dwg-reader.ts';
import { parseDwgR12 } from './reader.ts';
import { pairValue } from '../../dxf/reader.ts';
import { CadError, type Drawing, type Entity } from '../../model/drawing.ts';
import { defaultLayout, flattenLayout, layoutNames, MODEL } from '../../geometry/layout.ts';
import { flattenEntities, flattenModelSpace } from '../../geometry/flatten.ts';
import { buildSceneBytes } from '../../open.ts';
import { drawingInfo } from '../../info.ts';
import { sample } from '../../fidelity/samples.ts';
import { body, writeDwgR12, type R12Drawing } from '../../testing/dwg-r12-writer.ts';

const R11 = sample('dwg_r11_libredwg_ACEB10.dwg');
const haveR11 = existsSync(R11);
if (!haveR11) console.warn(`no ${R11}: the R11 sample tests are skipped`);

/**
 * The independent count: entity records by type straight from the section pointers of the file header and the
 * size word of every record, no field decoded. Deleted records (type bit 7) and the BLOCK/ENDBLK markers are
 * left out, as the DXF counts leave them out.
 */
function rawCounts(b: Buffer): Record<string, number> {
  const names: Record<number, string> = {
    1: 'LINE', 2: 'POINT', 3: 'CIRCLE', 4: 'SHAPE', 7: 'TEXT', 8: 'ARC', 9: 'TRACE', 11: 'SOLID', 14: 'INSERT', 15: 'ATTDEF', 16: 'ATTRIB',
    17: 'SEQEND', 19: 'POLYLINE', 20: 'VERTEX', 21: 'LINE', 22: '3DFACE', 23: 'DIMENSION', 24: 'VIEWPORT',
  };
  const counts: Record<string, number> = {};
  const sections = [
    [b.readUInt32LE(0x14), b.readUInt32LE(0x18)],
    [b.readUInt32LE(0x1c), b.readUInt32LE(0x1c) + (b.readUInt32LE(0x20) & 0x3fffffff)],
  ];
  for (const [start, end] of sections) {
    for (let at = start; at < end; at += b.readUInt16LE(at + 2)) {
      const t = b[at];
      if (t & 0x80 || t === 12 || t === 13) continue;
      counts[names[t]] = (counts[names[t]] ?? 0) + 1;
    }
  }
  return counts;
}

function modelled(list: Entity[], into: Record<string, number> = {}) {
  for (const e of list) {
    into[e.type] = (into[e.type] ?? 0) + 1;
    if (e.children) modelled(e.children, into);
  }
  return into;
}

function everything(d: Drawing): Record<string, number> {
  const into = modelled(d.entities);
  for (const b of d.blocks) modelled(b.entities, into);
  return into;
}

/** an entity's pairs by code, handle left out, numbers rounded (angles went radians → degrees) */
const pairsOf = (e: Entity | undefined) => Object.fromEntries((e?.pairs ?? []).filter(([c]) => c !== 5).map(([c, v]) => [c, typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v]));

describe.runIf(haveR11)('the R11/R12 DWG sample (ACEB10, AC1009)', () => {
  const bytes = haveR11 ? readFileSync(R11) : Buffer.alloc(0);

  it('opens through parseDwg, in process and quickly', async () => {
    parseDwgR12(bytes); // warm up the code paths once
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      parseDwgR12(bytes);
      runs.push(performance.now() - t);
    }
    const d = await parseDwg(bytes);
    expect(d.format).toBe('dwg');
    expect(d.header.version).toBe('AC1009');
    expect(drawingInfo(d).release).toBe('R11/R12');
    const median = runs.sort((a, b) => a - b)[2];
    console.log(`R11 sample (${bytes.length} bytes): parse median ${median.toFixed(1)} ms of 5`);
    expect(median).toBeLessThan(1000);
  });

  it('has the entity counts of an independent walk of the record headers, and keeps every record it counts', () => {
    const d = parseDwgR12(bytes);
    expect(d.counts).toEqual(rawCounts(bytes));
    expect(everything(d)).toEqual(d.counts);
    expect(d.unsupported).toEqual({});
    // the numbers LibreDWG's object map gives (dwg-objects.test.ts checks them against LibreDWG itself)
    expect(d.counts).toMatchObject({ LINE: 1149, TEXT: 116, INSERT: 19, DIMENSION: 15, POLYLINE: 35, VERTEX: 119, ARC: 124, CIRCLE: 50 });
  });

  it('reads the layers, linetypes, text styles, blocks and the inserts that place them', () => {
    const d = parseDwgR12(bytes);
    expect(d.layers.map((l) => l.name)).toEqual(['0', 'EB10-TOP', 'EB10-LEFT', 'EB10-FRONT', 'EB10-RIGHT', 'EB10-BOTTOM', 'EB10-REAR', 'DEFPOINTS', 'BORDER', 'DIM', 'MOUNTINGKIT-EB35DIN', 'MOUNTINGKIT-EB4', 'LABEL']);
    // the drawing's own note says "Turn on MOUNTING KIT layers": they are saved off (negative colour)
    expect(d.layers.filter((l) => !l.on).map((l) => l.name)).toEqual(['MOUNTINGKIT-EB35DIN', 'MOUNTINGKIT-EB4']);
    expect(d.linetypes).toEqual([
      { name: 'CONTINUOUS', description: 'Solid line', pattern: [] },
      { name: 'HIDDENX2', description: 'Hidden (2x) ____ ____ ____ ____ ____ ____ ____', pattern: [0.5, -0.25] },
    ]);
    expect(d.textStyles.map((s) => [s.name, s.font])).toEqual([['STANDARD', 'txt'], ['ADESK1', 'romans'], ['STYLE1', '']]);
    expect(d.blocks).toHaveLength(34);
    const names = d.blocks.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('EB10-LEFT');
    expect(names).toContain('*D0');
    const blocks = new Map(d.blocks.map((b) => [b.name, b]));
    const refs = d.entities.filter((e) => e.type === 'INSERT' || e.type === 'DIMENSION');
    expect(refs).toHaveLength(34);
    // every INSERT and DIMENSION names a block the drawing has, with something in it
    for (const e of refs) expect(blocks.get(String(pairValue(e, 2)))?.entities.length, `${e.type} ${e.handle}`).toBeGreaterThan(0);
    const left = d.entities.find((e) => e.type === 'INSERT' && pairValue(e, 2) === 'EB10-LEFT')!;
    expect([pairValue(left, 10), pairValue(left, 20)]).toEqual([20.99780113083973, 14.174852624546102]);
    expect(d.entities.find((e) => e.type === 'TEXT' && pairValue(e, 1) === 'Mounting Holes')).toMatchObject({ layer: 'DIM', paperSpace: true, handle: '1107A' });
    expect(d.entities.filter((e) => e.type === 'ATTDEF').map((e) => pairValue(e, 2))).toEqual(['FNAME', 'REVDATE']);
    const handles = d.entities.map((e) => e.handle);
    expect(handles.every(Boolean) && new Set(handles).size === handles.length).toBe(true);
    expect(d.header.vars).toMatchObject({ $ACADVER: 'AC1009', $DWGCODEPAGE: 'ANSI_1252', $TILEMODE: 0, $LTSCALE: 0.1, $CLAYER: 'BORDER', $TEXTSTYLE: 'ADESK1', $DIMASZ: 0.18 });
  });

  it('is drawn on its sheet: model space is empty, the paper layout draws everything, and compiles to a scene', async () => {
    const d = parseDwgR12(bytes);
    expect(layoutNames(d)).toEqual([MODEL, 'Layout1']);
    expect(defaultLayout(d)).toBe('Layout1');
    // `cad info` lists the sheet too, and no model extents (the header's ±1e20 says model space is empty)
    expect(drawingInfo(d)).toMatchObject({ layouts: [MODEL, 'Layout1'], extents: null });
    expect(flattenModelSpace(d).polylines).toHaveLength(0);
    const sheet = flattenLayout(d, 'Layout1')!;
    expect(sheet.skipped).toEqual({});
    expect(sheet.polylines.length).toBeGreaterThan(400);
    expect(sheet.texts.length).toBeGreaterThan(80);
    // the title block corner, the sheet's lower right (drawing units: inches)
    const xs = sheet.polylines.flatMap((p) => p.points.filter((_, i) => i % 2 === 0));
    expect(Math.max(...xs)).toBeCloseTo(42.94, 1);
    // every sheet entity draws, or is reported (omitted: its layer is off, an ATTDEF's empty value …), as the DXF corpus test asks
    const silent = d.entities.filter((e) => {
      const one = flattenEntities(d, [e]);
      return one.polylines.length + one.texts.length === 0 && !Object.keys(one.skipped).length && !one.omitted?.[e.type];
    });
    expect(silent.map((e) => `${e.type} ${e.handle}`)).toEqual([]);
    const scene = await buildSceneBytes(d, 'Layout1');
    expect(scene.byteLength).toBeGreaterThan(1000);
  });
});

/** A drawing with every entity kind the reader decodes, as the fixture writer lays them out. */
function everyKind(version: 'AC1009' | 'AC1006' = 'AC1009'): R12Drawing {
  const deg = Math.PI / 180;
  return {
    version,
    layers: [{ name: '0' }, { name: 'WALLS', color: 1, ltype: 1 }, { name: 'HIDDEN', color: -3 }],
    linetypes: [{ name: 'CONTINUOUS', pattern: [] }, { name: 'DASHED', pattern: [0.5, -0.25] }],
    styles: [{ name: 'STANDARD', font: 'txt' }, { name: 'NOTES', font: 'romans', width: 0.8 }],
    blocks: [
      { name: 'BOX', base: [1, 1], entities: [{ type: 1, flat: true, color: 0, body: body().f64(0, 0, 2, 0).bytes() }, { type: 15, opts: 0, body: body().f64(0, 0, 0.5).text('?').text('Tag?').text('TAG').u8(0).bytes() }] },
      { name: '*D0', entities: [{ type: 1, flat: true, body: body().f64(0, 0, 5, 0).bytes() }] },
    ],
    entities: [
      { type: 1, layer: 1, handle: 0x101, body: body().f64(0, 0, 1, 10, 10, 1).bytes() },
      { type: 1, flat: true, ltype: 0x7ffe, color: 3, body: body().f64(0, 0, 10, 0).bytes() },
      { type: 2, flat: true, opts: 2, body: body().f64(5, 5).f64(30 * deg).bytes() },
      { type: 3, elevation: 2, thickness: 1, body: body().f64(5, 5, 2.5).bytes() },
      { type: 8, body: body().f64(0, 0, 3, 0, 90 * deg).bytes() },
      { type: 7, opts: 1 | 8 | 32 | 64, body: body().f64(1, 2, 0.25).text('Hello R12').f64(45 * deg).u8(1).u8(1).f64(3, 4).bytes() },
      { type: 11, body: body().f64(0, 0, 1, 0, 0, 1, 1, 1).bytes() },
      { type: 9, body: body().f64(2, 0, 3, 0, 2, 1, 3, 1).bytes() },
      { type: 22, opts: 1, body: body().f64(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0).u16(5).bytes() },
      { type: 14, children: true, opts: 1 | 2 | 4, body: body().u16(0).f64(10, 10, 2, 3, 90 * deg).bytes() },
      { type: 16, opts: 0, body: body().f64(10, 10, 0.5).text('A-101').text('TAG').u8(0).bytes() },
      { type: 17, body: body().u32(0).bytes() },
      { type: 19, children: true, opts: 1, body: body().u8(1).bytes() },
      { type: 20, opts: 4, body: body().f64(0, 0, 1).bytes() },
      { type: 20, body: body().f64(4, 0).bytes() },
      { type: 20, body: body().f64(4, 4).bytes() },
      { type: 17, body: body().u32(0).bytes() },
      { type: 23, opts: 1 | 2 | 8 | 16, body: body().u16(1).f64(0, 0, 0, 2.5, 1).f64(100, 50).u8(0).f64(0, 0, 0, 5, 0, 0).bytes() },
      { type: 1 | 0x80, body: body().f64(0, 0, 0, 9, 9, 9).bytes() }, // deleted: not in the drawing
      { type: 30, body: body().f64(1).bytes() }, // a type no version writes: kept and reported
      { type: 24, paper: true, body: body().f64(5, 4, 0, 10, 8).u16(1).bytes() },
      { type: 1, paper: true, flat: true, body: body().f64(0, 0, 10, 8).bytes() },
    ],
  };
}

describe('generated R10–R12 files (every entity kind, damaged files)', () => {
  const byType = (d: Drawing, t: string) => d.entities.filter((e) => e.type === t);

  it('reads every entity kind with the group codes an R12 DXF carries', () => {
    const d = parseDwgR12(writeDwgR12(everyKind()));
    expect(d.layers.map((l) => [l.name, l.color, l.linetype, l.on])).toEqual([['0', 7, 'CONTINUOUS', true], ['WALLS', 1, 'DASHED', true], ['HIDDEN', 3, 'CONTINUOUS', false]]);
    expect(d.textStyles[1]).toMatchObject({ name: 'NOTES', font: 'romans', widthFactor: 0.8 });
    const [line3d, line2d] = byType(d, 'LINE');
    expect(line3d).toMatchObject({ handle: '101', layer: 'WALLS', color: 256, paperSpace: false });
    expect(pairsOf(line3d)).toEqual({ 8: 'WALLS', 10: 0, 20: 0, 30: 1, 11: 10, 21: 10, 31: 1 });
    expect(line2d).toMatchObject({ linetype: 'BYBLOCK', color: 3 });
    expect(pairsOf(byType(d, 'POINT')[0])).toMatchObject({ 10: 5, 20: 5, 30: 0, 50: 30 });
    expect(pairsOf(byType(d, 'CIRCLE')[0])).toMatchObject({ 39: 1, 10: 5, 20: 5, 30: 2, 40: 2.5 });
    expect(pairsOf(byType(d, 'ARC')[0])).toMatchObject({ 40: 3, 50: 0, 51: 90 });
    expect(pairsOf(byType(d, 'TEXT')[0])).toMatchObject({ 10: 1, 20: 2, 40: 0.25, 1: 'Hello R12', 50: 45, 7: 'NOTES', 72: 1, 11: 3, 21: 4 });
    expect(pairsOf(byType(d, 'SOLID')[0])).toMatchObject({ 10: 0, 11: 1, 12: 0, 13: 1, 23: 1 });
    expect(pairsOf(byType(d, 'TRACE')[0])).toMatchObject({ 10: 2, 13: 3 });
    expect(pairsOf(byType(d, '3DFACE')[0])).toMatchObject({ 10: 0, 11: 1, 21: 0, 12: 1, 22: 1, 70: 5 });
    const insert = byType(d, 'INSERT')[0];
    expect(pairsOf(insert)).toMatchObject({ 66: 1, 2: 'BOX', 10: 10, 20: 10, 41: 2, 42: 3, 50: 90 });
    expect(insert.children?.map((c) => c.type)).toEqual(['ATTRIB', 'SEQEND']);
    expect(pairsOf(insert.children![0])).toMatchObject({ 1: 'A-101', 2: 'TAG', 70: 0 });
    const pline = byType(d, 'POLYLINE')[0];
    expect(pairsOf(pline)).toMatchObject({ 66: 1, 70: 1 });
    expect(pline.children?.map((c) => [c.type, pairValue(c, 10), pairValue(c, 42)])).toEqual([['VERTEX', 0, 1], ['VERTEX', 4, undefined], ['VERTEX', 4, undefined], ['SEQEND', undefined, undefined]]);
    expect(pairsOf(byType(d, 'DIMENSION')[0])).toMatchObject({ 2: '*D0', 11: 2.5, 12: 100, 22: 50, 70: 0, 13: 0, 14: 5 });
    expect(byType(d, 'VIEWPORT')[0]).toMatchObject({ paperSpace: true });
    expect(pairsOf(byType(d, 'VIEWPORT')[0])).toMatchObject({ 10: 5, 20: 4, 40: 10, 41: 8, 69: 1, 67: 1 });
    expect(d.blocks.map((b) => [b.name, b.base, b.entities.map((e) => e.type)])).toEqual([['BOX', { x: 1, y: 1, z: 0 }, ['LINE', 'ATTDEF']], ['*D0', { x: 0, y: 0, z: 0 }, ['LINE']]]);
    // the deleted LINE is gone; the unknown record is kept, counted and reported as not drawable
    expect(d.counts).toEqual(everything(d));
    expect(d.counts.LINE).toBe(5);
    expect(d.unsupported).toEqual({ R12_TYPE_30: 1 });
    // model space draws all of it but the unknown record; the paper sheet has its line
    const model = flattenModelSpace(d);
    expect(model.skipped).toEqual({ R12_TYPE_30: 1 });
    expect(model.omitted).toEqual({});
    expect(defaultLayout(d)).toBe(MODEL);
    expect(flattenLayout(d, 'Layout1')!.polylines).toHaveLength(1);
  });

  it('shows model space through a paper-space viewport whose view is in its MVIEW xdata', () => {
    // EED items: code byte, value (0 string with a length byte, 1 application index, 2 brace, 10 point, 40 real, 70 integer)
    const view = body().u8(1).u16(0).u8(0).u8(5).raw(new TextEncoder().encode('MVIEW')).u8(2).u8(0).u8(70).u16(16)
      .u8(10).f64(100, 0, 0).u8(10).f64(0, 0, 1).u8(40).f64(0).u8(40).f64(20).u8(40).f64(0).u8(40).f64(0).u8(2).u8(1).bytes();
    const d = parseDwgR12(writeDwgR12({
      tileMode: 0,
      entities: [
        { type: 24, paper: true, body: body().f64(50, 50, 0, 40, 40).u16(1).bytes() }, // the sheet itself
        { type: 24, paper: true, eed: view, body: body().f64(50, 50, 0, 20, 10).u16(2).bytes() },
        { type: 1, flat: true, body: body().f64(95, 0, 105, 0).bytes() }, // model space, around the view target (100, 0)
      ],
    }));
    expect(pairsOf(d.entities[1])).toMatchObject({ 1001: 'ACAD', 1000: 'MVIEW', 1002: '}' });
    // view height 20 in a 10 high viewport: half scale, the target at the viewport centre (50, 50)
    const sheet = flattenLayout(d, 'Layout1')!;
    // the viewport's border (on layer 0, plotted) and the model line inside it
    expect(sheet.polylines.map((p) => p.points.map((v) => Math.round(v * 1e6) / 1e6))).toEqual([[40, 45, 60, 45, 60, 55, 40, 55], [47.5, 50, 52.5, 50]]);
  });

  it('reads an R10 (AC1006) file of the same drawing alike (no CRCs, no "used" counts, byte linetype indexes)', () => {
    const r12 = parseDwgR12(writeDwgR12(everyKind()));
    const r10 = parseDwgR12(writeDwgR12(everyKind('AC1006')));
    expect(r10.header.version).toBe('AC1006');
    expect(drawingInfo(r10).release).toBe('R10');
    expect(r10.counts).toEqual(r12.counts);
    expect(r10.entities.map((e) => e.pairs)).toEqual(r12.entities.map((e) => e.pairs));
    expect(r10.layers).toEqual(r12.layers);
  });

  it('refuses every truncation of a small file with the spec error, or reads what is whole, each in milliseconds', () => {
    const whole = writeDwgR12(everyKind());
    let refused = 0;
    const t0 = performance.now();
    for (let n = 0; n < whole.length; n++) {
      try {
        const d = parseDwgR12(whole.subarray(0, n));
        expect(everything(d)).toEqual(d.counts);
      } catch (e) {
        expect(e).toBeInstanceOf(CadError);
        expect((e as CadError).message).toBe('The drawing analysis failed!');
        refused++;
      }
    }
    // the blocks section ends the file: a file cut anywhere before its end lacks part of it
    expect(refused).toBeGreaterThan(whole.length - 100);
    expect(performance.now() - t0).toBeLessThan(20_000);
  }, 30_000);

  it('refuses other versions, garbage after a valid version and impossible section pointers', async () => {
    const bad: Uint8Array[] = [
      new TextEncoder().encode('AC1009' + 'x'.repeat(3000)),
      Uint8Array.from({ length: 5000 }, (_, i) => (i < 6 ? 'AC1006'.charCodeAt(i) : (i * 7919) & 255)),
      new TextEncoder().encode('AC1004' + '\0'.repeat(3000)),
    ];
    const pointing = writeDwgR12(everyKind());
    new DataView(pointing.buffer).setUint32(0x18, 0x7fffffff, true); // entities end far past the file
    bad.push(pointing);
    const sized = writeDwgR12(everyKind());
    new DataView(sized.buffer).setUint16(0x6cf + 2, 2, true); // a record shorter than its own header
    bad.push(sized);
    for (const b of bad) {
      const err = await parseDwg(b).catch((e) => e);
      expect(err).toBeInstanceOf(CadError);
      expect((err as CadError).message).toBe('The drawing analysis failed!');
    }
  });
});

describe.runIf(haveR11)('damaged copies of the R11 sample', () => {
  const bytes = haveR11 ? readFileSync(R11) : Buffer.alloc(0);

  /** parse, then flatten every layout: a result or the spec's error, within the time limit */
  function survive(b: Uint8Array): 'drawing' | 'refused' {
    const t = performance.now();
    let out: 'drawing' | 'refused';
    try {
      const d = parseDwgR12(b);
      expect(everything(d)).toEqual(d.counts);
      for (const name of layoutNames(d)) flattenLayout(d, name);
      out = 'drawing';
    } catch (e) {
      expect(e).toBeInstanceOf(CadError);
      expect((e as CadError).message).toBe('The drawing analysis failed!');
      out = 'refused';
    }
    expect(performance.now() - t).toBeLessThan(3000);
    return out;
  }

  it('ends truncations at 300 points (and around every section boundary) in a drawing or the spec error', () => {
    const cuts = new Set<number>();
    for (let i = 0; i < 300; i++) cuts.add(Math.floor((i * bytes.length) / 300));
    for (const at of [0x14, 0x5e, 0x200, 0x6bd, 0x6cf, 0x6cfe, 0x6d1e, 0x7dad, bytes.length - 1]) for (const d of [-1, 0, 1]) cuts.add(at + d);
    const outcomes = [...cuts].map((n) => survive(bytes.subarray(0, n)));
    expect(outcomes.filter((o) => o === 'refused').length).toBeGreaterThan(250);
  }, 120_000);

  it('ends 200 random mutations (20 bytes each, some in the header) in a drawing or the spec error', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const outcomes: string[] = [];
    for (let i = 0; i < 200; i++) {
      const m = Buffer.from(bytes);
      // every fourth copy is damaged in the header and tables, where pointers and counts live
      const span = i % 4 === 0 ? 0x8000 : m.length;
      for (let k = 0; k < 20; k++) m[Math.floor(rand() * span)] = Math.floor(rand() * 256);
      outcomes.push(survive(m));
    }
    // both outcomes happen: damage in coordinates still reads, damage in sizes and pointers is refused
    expect(outcomes.filter((o) => o === 'refused').length).toBeGreaterThan(20);
    expect(outcomes.filter((o) => o === 'drawing').length).toBeGreaterThan(20);
  }, 180_000);
});
