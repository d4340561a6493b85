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
import { loadFonts, nodeBundledFiles, textBounds, textGeometry, textGlyphs, type FontBytesProvider, type TextBox } from './index.ts';

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

/** Ink area of filled glyphs: bold faces cover more than regular ones. */
const area = (t: number[]) => {
  let a = 0;
  for (let i = 0; i < t.length; i += 6) a += Math.abs((t[i + 2] - t[i]) * (t[i + 5] - t[i + 1]) - (t[i + 4] - t[i]) * (t[i + 3] - t[i + 1])) / 2;
  return a;
};

/** A STYLE table with TrueType XDATA (1001 ACAD, 1000 family, 1071 flags) spliced into a fixture DXF. */
function withStyles(entities: FixtureEntity[], styles: { name: string; font: string; flags?: number }[]): Drawing {
  const s = Buffer.from(writeAsciiDxf({ entities, version: 'AC1032' })).toString('binary');
  const tab = ['  0', 'TABLE', '  2', 'STYLE'];
  for (const st of styles) {
    tab.push('  0', 'STYLE', '  2', st.name, ' 70', '0', ' 40', '0', ' 41', '1', ' 50', '0', '  3', st.font, '  4', '');
    if (st.flags !== undefined) tab.push('1001', 'ACAD', '1000', 'Arial', '1071', String(st.flags));
  }
  tab.push('  0', 'ENDTAB');
  const at = s.indexOf('  0\r\nENDTAB\r\n') + '  0\r\nENDTAB\r\n'.length;
  return parseDxf(new Uint8Array(Buffer.from(s.slice(0, at) + tab.join('\r\n') + '\r\n' + s.slice(at), 'binary')));
}

describe('fonts (issue 15 item 15)', () => {
  const letters = 'ŁČŐŞ łčőş αβγΩ ЖЯщ 中文';
  it('Latin Extended, Greek, Cyrillic and CJK are drawn by the bundled stand-ins, for missing SHX and TrueType fonts alike', async () => {
    const text = (style: string): FixtureEntity => ({ type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, 0], [40, 2], [7, style], [1, letters]] });
    const d = withStyles([text('SHX'), text('TTF')], [{ name: 'SHX', font: 'txt' }, { name: 'TTF', font: 'arial.ttf' }]);
    const f = await loadFonts(d, none);
    expect(f.report.resolved).toContainEqual({ name: 'Noto Sans', from: 'bundled' });
    for (const r of runs(d)) {
      const g = textGlyphs(r, d, f);
      expect(g.strokes).toEqual([]); // a character no font has is an empty box stroke
      expect(g.glyphs.length).toBe([...letters].filter((c) => c !== ' ').length);
    }
  });

  it('bold TrueType text without its font uses the stand-in\'s bold weight (\\fArial|b1;)', async () => {
    const d = drawing([mtext(0, 0, 5, '{\\fArial|b1|i0;Heavy text}'), mtext(0, 0, 5, '{\\fArial|b0|i0;Heavy text}')]);
    const f = await loadFonts(d, none);
    const [bold, regular] = runs(d).map((r) => area(textGeometry(r, d, f).triangles));
    expect(regular).toBeGreaterThan(0);
    expect(bold).toBeGreaterThan(regular * 1.25);
  });

  it('bold / italic styles and switches use the family\'s bold and italic faces from the library, else slant', async () => {
    // the library: Noto Sans' Latin files under Windows' Arial names (regular, bold, italic; no bold italic)
    const file = (w: string) => nodeBundledFiles(`@fontsource/noto-sans/files/noto-sans-latin-${w}.woff`);
    const lib: Record<string, Uint8Array | null> = { 'arial.ttf': await file('400-normal'), 'arialbd.ttf': await file('700-normal'), 'ariali.ttf': await file('400-italic') };
    const provide: FontBytesProvider = async (name) => lib[name.toLowerCase()] ?? null;
    const t = (style: string, s = 'Face'): FixtureEntity => ({ type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, 0], [40, 5], [7, style], [1, s]] });
    const d = withStyles(
      [t('REGULAR'), t('BOLD'), t('ITALIC'), t('BOLDITALIC'), mtext(0, 0, 5, '{\\fArial|b1|i0;Face}', [[7, 'REGULAR']])],
      [{ name: 'REGULAR', font: 'arial.ttf', flags: 34 }, { name: 'BOLD', font: 'arial.ttf', flags: 0x2000000 + 34 }, { name: 'ITALIC', font: 'arial.ttf', flags: 0x1000000 + 34 }, { name: 'BOLDITALIC', font: 'arial.ttf', flags: 0x3000000 + 34 }],
    );
    expect(d.textStyles.find((s) => s.name === 'BOLD')).toMatchObject({ bold: true });
    const f = await loadFonts(d, provide);
    const all = runs(d);
    const [regular, bold, italic, boldItalic] = all.map((r) => textGlyphs(r, d, f).glyphs);
    const [inkRegular, inkBold, , , inkSwitched] = all.map((r) => area(textGeometry(r, d, f).triangles));
    expect(inkBold).toBeGreaterThan(inkRegular * 1.25);
    expect(inkSwitched).toBeCloseTo(inkBold, 6);
    // the italic face is slanted by its own outlines (no shear added); bold italic has no face here: bold, slanted 15°
    expect(italic[0].glyph).not.toBe(regular[0].glyph);
    expect(italic.every((g) => Math.abs(g.c) < 1e-9)).toBe(true);
    expect(boldItalic[0].glyph).toBe(bold[0].glyph);
    expect(boldItalic[0].c).toBeCloseTo(5 * Math.tan((15 * Math.PI) / 180), 6);
    expect(regular.every((g) => Math.abs(g.c) < 1e-9)).toBe(true);
  });
});

describe('multileaders (issue 15 items 5 and 8)', () => {
  /** A MULTILEADER with MTEXT content: context data (text, location, direction, rotation, width), then 292 frame. */
  const mleader = (o: { text: string; x: number; y: number; rot?: number; width?: number; frame?: boolean }): FixtureEntity => {
    const a = o.rot ?? 0;
    return {
      type: 'MULTILEADER',
      pairs: [
        [8, '0'], [100, 'AcDbMLeader'], [270, 2], [300, 'CONTEXT_DATA{'], [40, 1], [10, o.x], [20, o.y], [30, 0], [41, 4], [140, 4], [145, 2], [290, 1], [304, o.text],
        [12, o.x], [22, o.y], [32, 0], [13, Math.cos(a)], [23, Math.sin(a)], [33, 0], [42, a], [43, o.width ?? 0], [44, 0], [45, 1], [171, 1], [292, 0], [296, 0],
        [302, 'LEADER{'], [290, 1], [291, 1], [10, o.x], [20, o.y], [30, 0], [11, 1], [21, 0], [31, 0], [40, 8], [304, 'LEADER_LINE{'], [10, o.x - 50], [20, o.y - 50], [30, 0], [305, '}'], [303, '}'], [301, '}'],
        [170, 1], [290, 1], [291, 1], [41, 8], [42, 4], [172, 2], [292, o.frame ? 1 : 0],
      ],
    };
  };

  it('rotated text with a width breaks at spaces and paragraphs only (not "MU/LTI/LEA/DE/R")', async () => {
    const d = drawing([mleader({ text: 'MULTILEADER\\PTEST\\P123', x: 0, y: 0, rot: Math.PI / 12, width: 20 }), mleader({ text: 'MULTILEADER\\PTEST\\P123', x: 0, y: 0 })]);
    const f = await loadFonts(d, none);
    const [rotated, plain] = runs(d);
    expect(rotated.rotation).toBeCloseTo(15, 9);
    // the same three lines as without a width: the same box once turned back by 15°
    const turned = textBounds({ ...rotated, rotation: 0 }, d, f), p = textBounds(plain, d, f);
    expect(turned.maxY - turned.minY).toBeCloseTo(p.maxY - p.minY, 6);
    expect(turned.maxX - turned.minX).toBeCloseTo(p.maxX - p.minX, 6);
  });

  it('"frame text" draws a rectangle around the text at the landing gap', async () => {
    const d = drawing([mleader({ text: 'FRAMED\\PTEXT', x: 0, y: 0, frame: true }), mleader({ text: 'FRAMED\\PTEXT', x: 0, y: 0 })]);
    const f = await loadFonts(d, none);
    const [framed, plain] = runs(d);
    expect(framed.frame).toBe(2);
    const g = textGeometry(framed, d, f), n = textGeometry(plain, d, f);
    expect(g.strokes.length).toBe(n.strokes.length + 1);
    const rect = g.strokes[g.strokes.length - 1];
    expect(rect).toHaveLength(10); // closed rectangle
    const b = textBounds(plain, d, f);
    const xs = rect.filter((_v, i) => i % 2 === 0), ys = rect.filter((_v, i) => i % 2 === 1);
    expect(Math.min(...xs)).toBeCloseTo(b.minX - 2, 1);
    expect(Math.max(...xs)).toBeCloseTo(b.maxX + 2, 0);
    expect(Math.max(...ys)).toBeCloseTo(b.maxY + 2, 6);
    expect(Math.min(...ys)).toBeCloseTo(b.minY - 2, 6);
  });

  it.skipIf(!existsSync(sample('dwg_2018_acadsharp_mleader.dwg')))('mleader sample: framed texts have frames, no word is split', async () => {
    const d = await readDrawing(new Uint8Array(readFileSync(sample('dwg_2018_acadsharp_mleader.dwg'))), 'mleader.dwg');
    const f = await loadFonts(d, none);
    const texts = runs(d).filter((r) => r.kind === 'mtext');
    expect(texts.filter((r) => r.frame !== undefined).length).toBe(d.entities.filter((e) => e.type === 'MULTILEADER' && e.pairs.slice(e.pairs.findIndex((p) => p[0] === 301)).some((p) => p[0] === 292 && Number(p[1]) === 1)).length);
    expect(texts.filter((r) => r.frame !== undefined).length).toBeGreaterThan(3);
    for (const r of texts) {
      // a line per paragraph: "MULTILEADER\PTEST\P123" is three lines, "MULTILEADER TEST" one or two
      const turned = textBounds({ ...r, rotation: 0, frame: undefined }, d, f);
      const paragraphs = (r.raw ?? '').split('\\P').length;
      const words = (r.raw ?? '').split(/\\P| /).length;
      expect(turned.maxY - turned.minY).toBeLessThan(r.height * (5 / 3) * words);
      expect(turned.maxY - turned.minY).toBeGreaterThan(r.height * (5 / 3) * (paragraphs - 1));
    }
  }, 60_000);
});

describe('stacked fractions (issue 15 item 6)', () => {
  it('{\\H0.7x;\\S1/2;} (what AutoCAD writes for a 70 % stack) draws each part at 70 % of the text height, not 49 %', async () => {
    const d = drawing([mtext(0, 0, 10, '{\\H0.7x;\\S1/2;}')]);
    const f = await loadFonts(d, none);
    const g = textGeometry(runs(d)[0], d, f);
    const one = textGeometry({ ...runs(d)[0], raw: '1' }, d, f).strokes.length;
    const ys = g.strokes.slice(0, one).flat().filter((_v, i) => i % 2 === 1);
    expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(7, 1); // the numeral 1 spans the cap height
  });
});

describe('stroke stand-in for SHX fonts (issue 15 item 15)', () => {
  it('draws Latin Extended (base letter + accent: Č = C + caron above the cap height), Greek and Cyrillic as strokes', async () => {
    const d = drawing([mtext(0, 0, 10, 'Č'), mtext(0, 0, 10, 'C'), mtext(0, 0, 10, 'ŁŐŞąęıŽ ΑΩαωά ЖЯщЁй')]);
    const f = await loadFonts(d, none);
    const [c, plain, more] = runs(d);
    const caron = textGlyphs(c, d, f).glyphs[0].glyph;
    const base = textGlyphs(plain, d, f).glyphs[0].glyph;
    expect(caron.triangles ?? []).toEqual([]); // strokes like the rest of the SHX text, not the outline stand-in
    expect(caron.strokes!.slice(0, base.strokes!.length)).toEqual(base.strokes);
    expect(caron.strokes!.length).toBe(base.strokes!.length + 1);
    expect(Math.min(...caron.strokes!.at(-1)!.filter((_v, i) => i % 2 === 1))).toBeGreaterThan(1); // above the cap
    for (const g of textGlyphs(more, d, f).glyphs) {
      expect(g.glyph.strokes!.length).toBeGreaterThan(0);
      expect(g.glyph.triangles ?? []).toEqual([]);
    }
  });
});

describe('MTEXT text frame (AutoCAD 2018+, 90 bit 16)', () => {
  it('frames the text at (45 − 1) heights outside it, as ezdxf draws it', async () => {
    const d = drawing([mtext(0, 0, 2, 'BOXED', [[90, 16], [45, 1.5]]), mtext(0, 0, 2, 'BOXED')]);
    const f = await loadFonts(d, none);
    const [framed, plain] = runs(d);
    expect(framed.frame).toBeCloseTo(1, 9);
    const g = textGeometry(framed, d, f);
    expect(g.strokes.length).toBe(textGeometry(plain, d, f).strokes.length + 1);
    const ys = g.strokes.at(-1)!.filter((_v, i) => i % 2 === 1);
    expect(Math.max(...ys)).toBeCloseTo(1, 6); // the text's top is at the insertion point (attachment 1)
  });
});
