/**
 * Issue 15 text fidelity: each case isolated in a small DXF generated here (what AutoCAD's plot shows; where unsure,
 * the same DXF was drawn with ezdxf 0.18.1's drawing add-on and the choice is written beside the test).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { readDrawing } from '../open.ts';
import { sample } from '../fidelity/samples.ts';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { flattenModelSpace, type TextRun } from '../geometry/flatten.ts';
import type { Drawing } from '../model/drawing.ts';
import { loadFonts, textBounds, type FontBytesProvider, type TextBox } from './index.ts';

const none: FontBytesProvider = async () => null;
const mtext = (x: number, y: number, h: number, s: string, more: [number, string | number][] = []): FixtureEntity => ({ type: 'MTEXT', pairs: [[8, '0'], [10, x], [20, y], [30, 0], [40, h], [71, 1], [1, s], ...more] });
const drawing = (entities: FixtureEntity[]): Drawing => parseDxf(writeAsciiDxf({ entities, version: 'AC1032' }));
const runs = (d: Drawing): TextRun[] => flattenModelSpace(d).texts;

describe('MTEXT paragraph codes at the start (issue 15 item 1)', () => {
  it('a text that starts with \\pxqc; / \\pql; / \\pxi…; hangs from its insertion point like one without', async () => {
    const d = drawing([mtext(0, 0, 2, 'ROOM'), mtext(0, 0, 2, '\\pxqc;ROOM'), mtext(0, 0, 2, '\\pql;ROOM'), mtext(0, 0, 2, '\\pxi-3,l4,qc;{\\fArial|b0;\\pqc;ROOM}\\PKITCHEN')]);
    const f = await loadFonts(d, none);
    const [plain, ...coded] = runs(d);
    const top = textBounds(plain, d, f).maxY;
    expect(top).toBeCloseTo(0, 6);
    for (const r of coded) expect(textBounds(r, d, f).maxY).toBeCloseTo(top, 6); // not one line (2 · 5/3) lower
    // the code still aligns: centred in the box of the widest line
    const centred = textBounds(runs(drawing([mtext(0, 0, 2, '\\pxqc;AB\\PABCDEFGH')]))[0], d, f);
    const first = textBounds(runs(drawing([mtext(0, 0, 2, '\\pxqc;AB\\P        ')]))[0], d, f);
    expect(first.minX).toBeGreaterThan(centred.minX + 2);
    expect(coded[0].text).toBe('ROOM'); // the plain text (search, PDF text) holds no code
  });
});

describe('word wrap (issue 15 item 5)', () => {
  it('a word wider than the box overflows it instead of breaking inside', async () => {
    const d = drawing([mtext(0, 0, 2.5, '+3,230', [[41, 5]]), mtext(0, 0, 2.5, 'MULTILEADERTEST', [[41, 3]]), mtext(0, 0, 2.5, 'ab +3,230 cd', [[41, 5]])]);
    const f = await loadFonts(d, none);
    const [num, long, mixed] = runs(d);
    for (const r of [num, long]) {
      const b = textBounds(r, d, f);
      expect(b.maxY - b.minY).toBeLessThan(2.5 * 1.6); // one line
      expect(b.maxX).toBeGreaterThan(5); // wider than the box
    }
    const m = textBounds(mixed, d, f);
    // three lines (ab / +3,230 / cd): breaks at the spaces only
    expect(m.maxY - m.minY).toBeGreaterThan(2.5 * 2 * (5 / 3));
    expect(m.maxY - m.minY).toBeLessThan(2.5 * 3 * (5 / 3) + 1);
  });
});

describe('MTEXT direction and mirroring (issue 15 items 6 and 7)', () => {
  it('AutoCAD 2018+ DXF: the 11 of the "101 Embedded Object" section is not the direction', () => {
    const embedded: [number, string | number][] = [[101, 'Embedded Object'], [70, 1], [10, 1], [20, 0], [30, 0], [11, 25.6], [21, 59.9], [31, 0], [40, 48], [41, 0], [42, 28], [43, 5.4], [71, 2], [72, 1], [44, 48], [45, 1], [73, 0], [74, 0], [46, 0]];
    const d = drawing([mtext(25.6, 59.9, 2, 'LABEL', [[41, 48], [73, 1], [44, 1], ...embedded]), mtext(25.6, 59.9, 2, 'ROTATED', [[11, 0], [21, 1], [31, 0], ...embedded]), mtext(0, 0, 2, 'FIFTY', [[50, 30], ...embedded])]);
    const [label, rotated, fifty] = runs(d);
    expect(label.rotation).toBeCloseTo(0, 9);
    expect(rotated.rotation).toBeCloseTo(90, 9); // the entity's own 11 wins
    expect(fifty.rotation).toBeCloseTo(30, 9); // as does its 50
  });

  it('extrusion 0,0,-1 mirrors MTEXT: y axis = extrusion × x axis (ezdxf MText.ucs(), AutoCAD)', async () => {
    const down: [number, number][] = [[210, 0], [220, 0], [230, -1]];
    const d = drawing([mtext(100, 0, 2, 'MIRROR', [...down, [11, 1], [21, 0], [31, 0]]), mtext(100, 0, 2, 'MIRROR', [...down, [11, -1], [21, 0], [31, 0]]), mtext(100, 0, 2, 'MIRROR', down), mtext(100, 0, 2, 'MIRROR')]);
    const f = await loadFonts(d, none);
    const [upsideDown, backward, ocs, plain] = runs(d);
    const p = textBounds(plain, d, f);
    expect(p.maxY).toBeCloseTo(0, 6);
    expect(p.minX).toBeCloseTo(100, 6);
    // x along +x, y along -y: the text hangs upward from its insertion point
    const u = textBounds(upsideDown, d, f);
    expect(upsideDown.mirrored).toBe(true);
    expect(u.minY).toBeCloseTo(0, 6);
    expect(u.minX).toBeCloseTo(100, 6);
    // x along -x, y along +y: backward, running left of the insertion point
    const b = textBounds(backward, d, f);
    expect(b.maxX).toBeCloseTo(100, 6);
    expect(b.maxY).toBeCloseTo(0, 6);
    // no 11: rotation 0 in the OCS, whose x axis is -x for this extrusion (arbitrary axis algorithm): backward too
    expect(textBounds(ocs, d, f)).toEqual(b);
  });
});

describe('samples (issue 15 items 1, 6, 7)', () => {
  it.skipIf(!existsSync(sample('dwg_2004_ddc_floorplan.dwg')))('floor plan: room labels and the schedule start with \\pqc; / \\pql; and stay on their line', async () => {
    const d = await readDrawing(new Uint8Array(readFileSync(sample('dwg_2004_ddc_floorplan.dwg'))), 'floorplan.dwg');
    const f = await loadFonts(d, none);
    let checked = 0;
    for (const r of flattenModelSpace(d).texts) {
      if (r.kind !== 'mtext' || !/\\p/.test(r.raw ?? '') || /\\P/.test(r.raw ?? '')) continue;
      // the same one-paragraph text without its paragraph codes: the codes may move it along its baseline
      // (alignment), never across it: compare the centres along the text's own y axis (the plan is rotated)
      const plain = { ...r, raw: r.raw!.replace(/\\p[^;]*;/g, '') };
      const a = (r.rotation * Math.PI) / 180;
      const across = (b: TextBox) => (-Math.sin(a) * (b.minX + b.maxX)) / 2 + (Math.cos(a) * (b.minY + b.maxY)) / 2;
      expect(across(textBounds(r, d, f))).toBeCloseTo(across(textBounds(plain, d, f)), 6);
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
  }, 120_000);

  it.skipIf(!existsSync(sample('dxf_ezdxf_hatches.dxf')))('hatches sample (AutoCAD 2018 DXF): every label is horizontal', () => {
    const d = parseDxf(new Uint8Array(readFileSync(sample('dxf_ezdxf_hatches.dxf'))));
    const labels = runs(d).filter((r) => r.kind === 'mtext');
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const r of labels) expect(r.rotation).toBeCloseTo(0, 9);
  });

  it.skipIf(!existsSync(sample('dxf_ezdxf_mtext_inline_codes.dxf')))('inline-codes sample: the MTEXTs with extrusion 0,0,-1 are mirrored', () => {
    const d = parseDxf(new Uint8Array(readFileSync(sample('dxf_ezdxf_mtext_inline_codes.dxf'))));
    const texts = flattenModelSpace(d).texts.filter((r) => r.kind === 'mtext');
    expect(texts.length).toBeGreaterThanOrEqual(8);
    const mirroredCount = texts.filter((r) => r.mirrored).length;
    // four of the eight copies have extrusion 0,0,-1 (handles DA, E1, FD, 104)
    expect(mirroredCount).toBe(d.entities.filter((e) => e.type === 'MTEXT' && e.pairs.some((p) => p[0] === 230 && Number(p[1]) < 0)).length);
    expect(mirroredCount).toBe(4);
  });
});
