import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { flattenModelSpace, type TextRun } from '../geometry/flatten.ts';
import type { Drawing } from '../model/drawing.ts';
import { loadFonts, textBounds, textGeometry, type FontBytesProvider, type FontSet, type TextGeometry } from './index.ts';
import { CJK_FALLBACK, nodeBundledFiles, STROKE_FALLBACK } from './bundled.ts';
import { sb, writeBigFont, writeShapesFont, writeUnifont } from './testing/shx-writer.ts';
import { writeCollection, writeFont } from './testing/font-writer.ts';

interface StyleDef {
  name: string;
  font: string;
  bigFont?: string;
  widthFactor?: number;
}

/** A DXF written with the test writer, plus a STYLE table (the writer only writes layers). */
function drawing(entities: FixtureEntity[], styles: StyleDef[] = [{ name: 'Standard', font: 'txt' }], o: { version?: string; codePage?: string; encoder?: (s: string) => Uint8Array } = {}): Drawing {
  const bytes = writeAsciiDxf({ entities, ...o });
  const s = Buffer.from(bytes).toString('binary');
  const tab = ['  0', 'TABLE', '  2', 'STYLE'];
  for (const st of styles) tab.push('  0', 'STYLE', '  2', st.name, ' 70', '0', ' 40', '0', ' 41', String(st.widthFactor ?? 1), ' 50', '0', '  3', st.font, '  4', st.bigFont ?? '');
  tab.push('  0', 'ENDTAB');
  const at = s.indexOf('  0\r\nENDTAB\r\n') + '  0\r\nENDTAB\r\n'.length;
  return parseDxf(new Uint8Array(Buffer.from(s.slice(0, at) + tab.join('\r\n') + '\r\n' + s.slice(at), 'binary')));
}

const text = (x: number, y: number, h: number, s: string, more: [number, string | number][] = []): FixtureEntity => ({ type: 'TEXT', pairs: [[8, '0'], [10, x], [20, y], [30, 0], [40, h], [1, s], ...more] });
const mtext = (x: number, y: number, h: number, s: string, more: [number, string | number][] = []): FixtureEntity => ({ type: 'MTEXT', pairs: [[8, '0'], [10, x], [20, y], [30, 0], [40, h], [71, 1], ...more, [1, s]] });

const none: FontBytesProvider = async () => null;
const library = (files: Record<string, Uint8Array>): FontBytesProvider => async (name) => files[name.toLowerCase()] ?? files[`${name.toLowerCase()}.shx`] ?? null;

function runs(d: Drawing): TextRun[] {
  return flattenModelSpace(d).texts;
}

function box(g: TextGeometry) {
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const add = (a: number[]) => {
    for (let i = 0; i < a.length; i += 2) {
      b.minX = Math.min(b.minX, a[i]);
      b.maxX = Math.max(b.maxX, a[i]);
      b.minY = Math.min(b.minY, a[i + 1]);
      b.maxY = Math.max(b.maxY, a[i + 1]);
    }
  };
  g.strokes.forEach(add);
  add(g.triangles);
  return b;
}

/** Test font "ZFONT": above 6, below 2; 'A' is a Z (top bar, diagonal, bottom bar) 6 wide with an advance of 8. */
const ZFONT = writeShapesFont('ZFONT', 6, 2, [
  { code: 65, name: 'A', bytes: [2, 8, 0, 6, 1, 0x60, 8, sb(-6), sb(-6), 0x60, 2, 8, 2, 0] },
  { code: 32, name: 'SPACE', bytes: [2, 0x80] },
  // old shape fonts keep the degree sign at 127: here a vertical bar 4 high
  { code: 127, name: 'DEGREE', bytes: [1, 0x44, 2, 8, 2, sb(-4)] },
]);
/** Test big font: 中 (GBK 0xD6D0) is an open box 8 × 8; the font's height is 8 above the baseline. */
const ZBIG = writeBigFont('ZBIG', 8, 0, [{ code: 0xd6d0, bytes: [2, 8, 0, 8, 1, 0x80, 0x8c, 0x88, 2, 8, 8, 0] }]);

describe('SHX fonts from the user library', () => {
  const d = drawing([text(10, 20, 3, 'AA', [[7, 'Z']])], [{ name: 'Z', font: 'zfont.shx' }]);

  it('renders a style naming an uploaded SHX with that font', async () => {
    const fonts = await loadFonts(d, library({ 'zfont.shx': ZFONT }));
    expect(fonts.report.requested).toEqual(['zfont.shx']);
    expect(fonts.report.resolved).toContainEqual({ name: 'zfont.shx', from: 'provider' });
    expect(fonts.report.substituted).toEqual([]);
    const g = textGeometry(runs(d)[0], d, fonts);
    expect(g.triangles).toHaveLength(0);
    // two Zs: cap height 3 (= text height), width 3 (6 of 6 units), second one advanced by 8/6 × 3 = 4
    expect(g.strokes).toHaveLength(2);
    const exp = (ox: number) => [ox, 23, ox + 3, 23, ox, 20, ox + 3, 20];
    g.strokes[0].forEach((v, i) => expect(v).toBeCloseTo(exp(10)[i], 9));
    g.strokes[1].forEach((v, i) => expect(v).toBeCloseTo(exp(14)[i], 9));
  });

  it('draws %%d with the degree shape at code 127 of a non-Unicode shape font', async () => {
    const d2 = drawing([text(0, 0, 3, '%%d', [[7, 'Z']])], [{ name: 'Z', font: 'zfont.shx' }]);
    const g = textGeometry(runs(d2)[0], d2, await loadFonts(d2, library({ 'zfont.shx': ZFONT })));
    expect(g.strokes).toHaveLength(1);
    g.strokes[0].forEach((v, i) => expect(v).toBeCloseTo([0, 0, 0, 2][i], 9));
  });

  it('draws from a Unicode SHX font by code point', async () => {
    // 中 as a 6 × 6 box with a centre line, above 6
    const uni = writeUnifont('ZUNI', 6, 2, [{ code: 0x4e2d, bytes: [2, 8, 0, 6, 1, 0x60, 0x6c, 0x68, 0x64, 2, 8, 3, 0, 1, 0x6c, 2, 8, 5, 0] }]);
    const d2 = drawing([text(0, 0, 3, '\\U+4E2D', [[7, 'U']])], [{ name: 'U', font: 'zuni.shx' }]);
    const fonts = await loadFonts(d2, library({ 'zuni.shx': uni }));
    expect(fonts.report.resolved).toContainEqual({ name: 'zuni.shx', from: 'provider' });
    const g = textGeometry(runs(d2)[0], d2, fonts);
    expect(g.triangles).toHaveLength(0); // from the SHX, not the bundled outline font
    expect(g.strokes).toHaveLength(2);
    const b = box(g);
    expect([b.minX, b.minY, b.maxX, b.maxY].map((v) => +v.toFixed(9))).toEqual([0, 0, 3, 3]);
  });

  it('without the font, reports the substitution and draws with the bundled stroke font', async () => {
    const fonts = await loadFonts(d, none);
    expect(fonts.report.substituted).toEqual([{ name: 'zfont.shx', with: STROKE_FALLBACK }]);
    expect(fonts.report.resolved).toContainEqual({ name: STROKE_FALLBACK, from: 'bundled' });
    const g = textGeometry(runs(d)[0], d, fonts);
    // Hershey's A: two slanted strokes and a bar, per letter
    expect(g.strokes).toHaveLength(6);
    const b = box(g);
    expect(b.minY).toBeCloseTo(20, 6);
    expect(b.maxY).toBeCloseTo(23, 6);
  });

  it('draws CJK characters from the big font, looked up by their GBK code (also from \\U+ and \\M+ escapes)', async () => {
    const d2 = drawing([text(0, 0, 2, 'A\\U+4E2D', [[7, 'Z']]), text(0, 10, 2, '\\U+4E2D', [[7, 'Z']]), text(0, 20, 2, '\\M+5D6D0', [[7, 'Z']])], [{ name: 'Z', font: 'zfont.shx', bigFont: 'zbig.shx' }], { codePage: 'ANSI_936' });
    const fonts = await loadFonts(d2, library({ 'zfont.shx': ZFONT, 'zbig.shx': ZBIG }));
    expect(fonts.report.requested).toEqual(['zbig.shx', 'zfont.shx']);
    const [a, u, m] = runs(d2);
    expect(u.text).toBe('中');
    expect(m.text).toBe('中');
    const g = textGeometry(a, d2, fonts);
    expect(g.strokes).toHaveLength(2);
    // the box: from the top-left corner (advance of A = 8/6 × 2) across 2 and down 2
    const exp = [8 / 3, 2, 8 / 3 + 2, 2, 8 / 3 + 2, 0, 8 / 3, 0];
    g.strokes[1].forEach((v, i) => expect(v).toBeCloseTo(exp[i], 9));
    for (const r of [u, m]) expect(textGeometry(r, d2, fonts).strokes[0].map((v, i) => v - (i % 2 ? r.y : 0))).toEqual(g.strokes[1].map((v, i) => (i % 2 ? v : v - 8 / 3)).map((v) => expect.closeTo(v, 9)));
  });
});

describe('bundled fallback fonts', () => {
  it('draws CJK text as filled glyphs of the bundled CJK font, not boxes', async () => {
    const d = drawing([text(0, 0, 5, '中文字体'), mtext(0, 20, 5, '图纸\\P\\U+6587\\U+5B57'), text(0, 40, 5, '한국어 도면'), text(0, 60, 5, '図面かなカナ')], undefined, { version: 'AC1027' });
    const fonts = await loadFonts(d, none);
    expect(fonts.report.resolved).toContainEqual({ name: CJK_FALLBACK, from: 'bundled' });
    expect(fonts.report.resolved).toContainEqual({ name: 'Noto Sans KR', from: 'bundled' }); // Hangul
    for (const r of runs(d)) {
      const g = textGeometry(r, d, fonts);
      expect(g.strokes).toHaveLength(0); // a missing glyph would be a box stroke
      expect(g.triangles.length / 6).toBeGreaterThan(40);
    }
    const b = textBounds(runs(d)[0], d, fonts);
    // four square-ish characters about 1.15 cap heights apart
    expect(b.maxX - b.minX).toBeGreaterThan(4 * 5);
    expect(b.maxX - b.minX).toBeLessThan(4 * 5 * 1.6);
    const ink = box(textGeometry(runs(d)[0], d, fonts));
    expect(ink.maxY).toBeGreaterThan(4.5);
    expect(ink.maxY).toBeLessThan(7.5);
  });

  it('replaces a missing TrueType font by the bundled outline font and reports it', async () => {
    const d = drawing([text(0, 0, 2, 'Hello')], [{ name: 'Standard', font: 'arial.ttf' }]);
    const fonts = await loadFonts(d, none);
    expect(fonts.report.substituted).toEqual([{ name: 'arial.ttf', with: CJK_FALLBACK }]);
    const g = textGeometry(runs(d)[0], d, fonts);
    expect(g.strokes).toHaveLength(0);
    expect(g.triangles.length).toBeGreaterThan(0);
    const b = box(g);
    expect(b.minY).toBeGreaterThan(-0.1); // no descenders in "Hello"
    expect(b.maxY).toBeGreaterThan(1.9);
    expect(b.maxY).toBeLessThan(2.3);
  });

  it('reads only the subsets that draw the text: one for Latin text, more only for what it lacks', async () => {
    const d = drawing([text(0, 0, 2, 'Hello 12.5° Köln Łódź')], [{ name: 'Standard', font: 'arial.ttf' }], { version: 'AC1027' });
    const read: string[] = [];
    // a provider of its own: the bundled fonts are cached per provider, so nothing was read before
    const fonts = await loadFonts(d, none, { bundled: async (p) => (p.endsWith('.woff') && read.push(p), nodeBundledFiles(p)) });
    // ASCII is named by the Latin subset and by a dozen numbered CJK ones, which were all read (14 files, 28 with the
    // bold weight, for the floor plan); Ł and ź still get every subset that names them (the SC and KR ones do not
    // draw them) until Noto Sans's Latin Extended does
    expect(read[0]).toBe('@fontsource/noto-sans-sc/files/noto-sans-sc-latin-400-normal.woff');
    expect(read.length).toBeLessThanOrEqual(8);
    expect(read.at(-1)).toBe('@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff');
    const g = textGeometry(runs(d)[0], d, fonts);
    expect(g.strokes).toHaveLength(0); // no box for a missing letter
    expect(g.triangles.length).toBeGreaterThan(0);
  });

  it('uses a TrueType font from the provider (an outline font file, here a WOFF the provider hands over)', async () => {
    const woff = new Uint8Array(readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-sc/unicode.json')), 'files/noto-sans-sc-latin-400-normal.woff')));
    const d = drawing([text(0, 0, 2, 'Hi')], [{ name: 'Standard', font: 'Mine.ttf' }]);
    const fonts = await loadFonts(d, async (n) => (n === 'Mine.ttf' ? woff : null));
    expect(fonts.report.resolved).toContainEqual({ name: 'Mine.ttf', from: 'provider' });
    expect(fonts.report.substituted).toEqual([]);
    expect(textGeometry(runs(d)[0], d, fonts).triangles.length).toBeGreaterThan(0);
  });
});

function area(tris: number[]): number {
  let a = 0;
  for (let i = 0; i < tris.length; i += 6) a += Math.abs((tris[i + 2] - tris[i]) * (tris[i + 5] - tris[i + 1]) - (tris[i + 4] - tris[i]) * (tris[i + 3] - tris[i + 1])) / 2;
  return a;
}

describe('TrueType collections and outlines', () => {
  // FaceOne: A is a 600 × 700 block, O a 700 × 700 square with a 300 × 300 hole; FaceTwo: A is a triangle
  const one = writeFont('FaceOne', { A: [[0, 0, 600, 0, 600, 700, 0, 700]], O: [[0, 0, 700, 0, 700, 700, 0, 700], [200, 200, 200, 500, 500, 500, 500, 200]] });
  const two = writeFont('FaceTwo', { A: [[0, 0, 700, 0, 350, 700]] });
  const ttc = writeCollection([one, two]);
  const d = drawing([text(0, 0, 7, 'A', [[7, 'S']]), text(0, 10, 7, 'O', [[7, 'S']]), mtext(0, 30, 7, '{\\fFaceTwo|b0|i0;A}', [[7, 'S']])], [{ name: 'S', font: 'two.ttc' }]);

  it('reads the first face of a .ttc for a style, another face by its family name, and fills outlines with their holes', async () => {
    const fonts = await loadFonts(d, library({ 'two.ttc': ttc }));
    expect(fonts.report.requested).toEqual(['FaceTwo', 'two.ttc']);
    expect(fonts.report.substituted).toEqual([]);
    const [a, o, t] = runs(d);
    // cap height 700 units = text height 7: one unit is 0.01
    const ga = textGeometry(a, d, fonts);
    expect(ga.triangles).toHaveLength(12);
    expect(area(ga.triangles)).toBeCloseTo(6 * 7, 9);
    expect(box(ga)).toEqual({ minX: 0, minY: 0, maxX: 6, maxY: 7 });
    expect(area(textGeometry(o, d, fonts).triangles)).toBeCloseTo(7 * 7 - 3 * 3, 9);
    const gt = textGeometry(t, d, fonts);
    expect(gt.triangles).toHaveLength(6);
    expect(area(gt.triangles)).toBeCloseTo((7 * 7) / 2, 9);
  });
});

describe('TEXT alignment', () => {
  const h = 2.5;
  const at = (ha: number, va: number) => text(0, 0, h, 'HELLO', [[72, ha], [73, va], [11, 100], [21, 50], [31, 0]]);
  const cases = [at(0, 0), at(1, 0), at(2, 0), at(4, 0), at(0, 3), at(2, 2), at(1, 1)];
  const d = drawing(cases);
  let fonts: FontSet;
  const get = async () => (fonts ??= await loadFonts(d, none));

  it('left baseline text starts at the insertion point', async () => {
    const f = await get();
    const r = runs(d)[0];
    const b = textBounds(r, d, f);
    expect(b.minX).toBeCloseTo(0, 9);
    expect(box(textGeometry(r, d, f)).minY).toBeCloseTo(0, 6);
  });

  it('right-aligned text ends at the alignment point, centred text is centred on it', async () => {
    const f = await get();
    const [, center, right, middle] = runs(d);
    expect(textBounds(right, d, f).maxX).toBeCloseTo(100, 9);
    const ink = box(textGeometry(right, d, f));
    expect(ink.maxX).toBeLessThanOrEqual(100 + 1e-9);
    expect(ink.maxX).toBeGreaterThan(100 - h * 0.5);
    const c = textBounds(center, d, f);
    expect((c.minX + c.maxX) / 2).toBeCloseTo(100, 9);
    const mid = box(textGeometry(middle, d, f));
    expect((mid.minY + mid.maxY) / 2).toBeCloseTo(50, 6); // capitals centred vertically on the point
    expect((mid.minX + mid.maxX) / 2).toBeCloseTo(100, 0);
  });

  it('top, middle and bottom vertical alignment', async () => {
    const f = await get();
    const [, , , , top, rightMiddle, centerBottom] = runs(d);
    expect(box(textGeometry(top, d, f)).maxY).toBeCloseTo(50, 6);
    const rm = box(textGeometry(rightMiddle, d, f));
    expect((rm.minY + rm.maxY) / 2).toBeCloseTo(50, 6);
    expect(box(textGeometry(centerBottom, d, f)).minY).toBeGreaterThan(50); // baseline above the point by the descender
  });

  it('aligned text spans both points and scales its height; fit keeps the height', async () => {
    const d2 = drawing([text(10, 10, 2, 'HELLO', [[72, 3], [11, 30], [21, 10], [31, 0]]), text(10, 20, 2, 'HELLO', [[72, 5], [11, 50], [21, 20], [31, 0]])]);
    const f = await loadFonts(d2, none);
    const [aligned, fit] = runs(d2);
    const a = textBounds(aligned, d2, f);
    expect(a.minX).toBeCloseTo(10, 6);
    expect(a.maxX).toBeCloseTo(30, 6);
    const natural = textBounds({ ...aligned, halign: 0, x: 10, y: 10 }, d2, f);
    const s = 20 / (natural.maxX - natural.minX);
    expect(box(textGeometry(aligned, d2, f)).maxY - 10).toBeCloseTo(2 * s, 6);
    const b = textBounds(fit, d2, f);
    expect(b.minX).toBeCloseTo(10, 6);
    expect(b.maxX).toBeCloseTo(50, 6);
    expect(box(textGeometry(fit, d2, f)).maxY).toBeCloseTo(22, 6);
  });

  it('rotation, width factor, oblique, mirroring', async () => {
    const d2 = drawing([text(0, 0, 2, 'HI', [[50, 90]]), text(0, 0, 2, 'HI', [[41, 2]]), text(0, 0, 2, 'I', [[51, 30]])]);
    const f = await loadFonts(d2, none);
    const [rot, wide, obl] = runs(d2);
    const r = box(textGeometry(rot, d2, f));
    expect(r.maxX).toBeCloseTo(0, 6); // rotated 90°: the text runs up, capitals to the left of the baseline
    expect(r.minX).toBeCloseTo(-2, 6);
    expect(textBounds(rot, d2, f).minY).toBeCloseTo(0, 9);
    expect(r.maxY).toBeGreaterThan(2);
    const plain = textBounds({ ...wide, widthFactor: 1 }, d2, f);
    const w = textBounds(wide, d2, f);
    expect(w.maxX - w.minX).toBeCloseTo(2 * (plain.maxX - plain.minX), 6);
    const o = textGeometry(obl, d2, f).strokes[0]; // the I's stem leans right by tan 30° × height
    expect(Math.abs(o[2] - o[0])).toBeCloseTo(Math.tan(Math.PI / 6) * 2, 6);
    const mirrored = { ...rot, rotation: 180, mirrored: true };
    const m = box(textGeometry(mirrored, d2, f));
    expect(textBounds(mirrored, d2, f).maxX).toBeCloseTo(0, 9); // mirrored in x: the text runs to the left, still upright
    expect(m.maxX).toBeLessThan(0);
    expect(m.minY).toBeCloseTo(0, 6);
    expect(m.maxY).toBeCloseTo(2, 6);
  });

  it('%%c %%d %%p %%u specials', async () => {
    const d2 = drawing([text(0, 0, 2, '%%c50%%d%%p1'), text(0, 10, 2, '%%uAB%%u C')]);
    const f = await loadFonts(d2, none);
    const [sp, ul] = runs(d2);
    const g = textGeometry(sp, d2, f);
    expect(g.triangles.length + g.strokes.length).toBeGreaterThan(6);
    // no empty boxes: every glyph was found (boxes are 5-point closed rectangles)
    expect(g.strokes.filter((s) => s.length === 10 && s[0] === s[8] && s[1] === s[9] && s[1] === s[3])).toHaveLength(0);
    const u = textGeometry(ul, d2, f);
    const line = u.strokes.find((s) => s.length === 4 && s[1] === s[3] && s[1] < 10)!;
    expect(line[1]).toBeCloseTo(10 - 0.4, 6);
    const ab = textBounds({ ...ul, text: 'AB' }, d2, f);
    expect(line[2] - line[0]).toBeCloseTo(ab.maxX - ab.minX, 6); // underline covers AB only
  });
});

describe('MTEXT layout', () => {
  it('places each attachment point 1–9 at the insertion point', async () => {
    const d = drawing([1, 2, 3, 4, 5, 6, 7, 8, 9].map((a) => ({ type: 'MTEXT', pairs: [[8, '0'], [10, 10], [20, 20], [30, 0], [40, 2], [71, a], [1, 'HEL\\PLO']] })));
    const f = await loadFonts(d, none);
    runs(d).forEach((r, i) => {
      const a = i + 1;
      const b = box(textGeometry(r, d, f));
      const cell = textBounds(r, d, f);
      const col = (a - 1) % 3, row = Math.floor((a - 1) / 3);
      const x = col === 0 ? cell.minX : col === 1 ? (cell.minX + cell.maxX) / 2 : cell.maxX;
      const y = row === 0 ? b.maxY : row === 1 ? (b.minY + b.maxY) / 2 : b.minY;
      expect(x, `attachment ${a} x`).toBeCloseTo(10, 9);
      expect(y, `attachment ${a} y`).toBeCloseTo(20, 6);
      // two lines: the second baseline 5/3 × height below the first
      expect(b.maxY - b.minY).toBeCloseTo(2 + (5 / 3) * 2, 6);
    });
  });

  it('reads long MTEXT chunks in file order (3 … then 1), line spacing 44 and backward TEXT (71 = 2)', async () => {
    const d = drawing([
      { type: 'MTEXT', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 2], [71, 1], [44, 2], [3, 'HE'], [1, 'L\\PLO']] },
      text(0, 10, 2, 'HI', [[71, 2]]),
    ]);
    const f = await loadFonts(d, none);
    const [m, back] = runs(d);
    const g = textGeometry(m, d, f);
    const want = textGeometry({ ...m, raw: 'HEL\\PLO' }, d, f);
    expect(g.strokes.length).toBe(want.strokes.length);
    const b = box(g);
    expect(b.maxY - b.minY).toBeCloseTo(2 + 2 * (5 / 3) * 2, 6); // double spacing
    expect(b.maxX).toBeCloseTo(box({ strokes: want.strokes, triangles: [] }).maxX, 9); // HEL first: the widest line
    const bb = textBounds(back, d, f);
    expect(bb.maxX).toBeCloseTo(0, 9); // backward: runs to the left of its insertion point
    expect(bb.minX).toBeLessThan(-2);
  });

  it('paragraph alignment (\\pxqr; \\pxqc; \\pq*;), justified wrapping, ^I tabs, italic font switch', async () => {
    const d = drawing([mtext(0, 0, 2, 'LEFT\\P\\pxqr;RIGHT \\P\\pxqc;MID\\P\\pq*;BACK', [[41, 40]]), mtext(0, 100, 2, '\\pxqj;aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk', [[41, 30]]), mtext(0, 200, 2, 'A^IB'), mtext(0, 300, 2, '{\\fArial|i1;I}')]);
    const f = await loadFonts(d, none);
    const [para, just, tab, ital] = runs(d);
    // one line's cells: the same paragraphs with the other lines' letters taken out (blanks have no cell)
    const b = (i: number) => textBounds({ ...para, raw: para.raw!.split('\\P').map((p, k) => (k === i ? p : p.replace(/[A-Z]/g, ' '))).join('\\P') }, d, f);
    expect(b(0).minX).toBeCloseTo(0, 9);
    expect(b(1).maxX).toBeCloseTo(40, 9); // right-aligned in the 40 wide box, its trailing space ignored
    expect((b(2).minX + b(2).maxX) / 2).toBeCloseTo(20, 9);
    expect(b(3).minX).toBeCloseTo(0, 9); // q* back to the attachment's alignment
    const j = textBounds(just, d, f);
    expect(j.maxX).toBeCloseTo(30, 1); // wrapped lines of a justified paragraph fill the width
    const plainTab = textBounds({ ...tab, raw: 'AB' }, d, f);
    expect(textBounds(tab, d, f).maxX).toBeGreaterThan(plainTab.maxX + 2); // B moved to the tab stop at 4 heights
    expect(textBounds(tab, d, f).maxX).toBeLessThan(8 + 2 * 1.5);
    const it = textGeometry(ital, d, f).triangles;
    const up = textGeometry({ ...ital, raw: '{\\fArial|i0;I}' }, d, f).triangles;
    expect(Math.max(...it.filter((_v, k) => k % 2 === 0)) - Math.max(...up.filter((_v, k) => k % 2 === 0))).toBeGreaterThan(0.3); // slanted 15°
  });

  it('flows into columns (75/76/48/49/46) and breaks columns at \\N', async () => {
    const cols: [number, number][] = [[75, 1], [76, 3], [48, 20], [49, 5], [46, 10]];
    const d = drawing([mtext(0, 0, 2, 'L1\\PL2\\PL3\\PL4\\PL5\\PL6\\PL7', cols), mtext(0, 100, 2, 'A\\NB', cols), mtext(0, 200, 2, 'L1\\PL2\\PL3\\P\\P\\P\\PL7', cols)]);
    const f = await loadFonts(d, none);
    const [flow, brk, gaps] = runs(d);
    // 2 + 5/3·2·k ≤ 10 → three lines a column; seven lines fill columns at x 0, 25 and 50
    const b = textBounds(flow, d, f);
    expect(b.minY).toBeGreaterThan(-10 - 1);
    expect(b.maxX).toBeGreaterThan(50);
    expect(b.maxX).toBeLessThan(70);
    const one = textBounds(gaps, d, f);
    expect(one.maxX).toBeGreaterThan(50); // the 7th line starts the third column
    const bb = textBounds(brk, d, f);
    expect(bb.maxX).toBeGreaterThan(25); // B in the second column
    expect(bb.minY).toBeCloseTo(100 - 2 - f.stroke!.descent * 2, 6); // on the first line of it
    expect(textBounds({ ...brk, x: 1 }, d, f).maxX).toBeLessThan(25); // (a run the drawing does not hold has no columns)
  });

  it('stacks fractions: numerator above the bar above the denominator', async () => {
    const d = drawing([mtext(0, 0, 4, '1\\S3/4;'), mtext(0, 20, 4, '\\S3^4;'), mtext(0, 40, 4, 'X')]);
    const f = await loadFonts(d, none);
    const [frac, tol] = runs(d);
    const g = textGeometry(frac, d, f);
    const one = textGeometry({ ...frac, raw: '1' }, d, f).strokes.length;
    const three = textGeometry({ ...frac, raw: '3' }, d, f).strokes.length;
    const bar = g.strokes[g.strokes.length - 1];
    expect(bar).toHaveLength(4);
    expect(bar[1]).toBe(bar[3]);
    const numer = box({ strokes: g.strokes.slice(one, one + three), triangles: [] });
    const denom = box({ strokes: g.strokes.slice(one + three, -1), triangles: [] });
    expect(numer.minY).toBeGreaterThan(bar[1]);
    expect(denom.maxY).toBeLessThan(bar[1]);
    expect(numer.maxY - numer.minY).toBeCloseTo(4, 6); // stacked parts at the current height (the editor's 70 % comes as \H0.7x;)
    // both parts centred on the bar
    expect((numer.minX + numer.maxX) / 2).toBeCloseTo((bar[0] + bar[2]) / 2, 0);
    expect((denom.minX + denom.maxX) / 2).toBeCloseTo((bar[0] + bar[2]) / 2, 0);
    expect(bar[0]).toBeGreaterThan(box({ strokes: g.strokes.slice(0, one), triangles: [] }).maxX); // after the 1
    // tolerance stack: no bar
    const t = textGeometry(tol, d, f);
    expect(t.strokes.length).toBe(textGeometry({ ...tol, raw: '\\S3/4;' }, d, f).strokes.length - 1);
    expect(box(t).maxY - box(t).minY).toBeGreaterThan(2 * 4);
  });

  it('wraps words at the box width', async () => {
    const words = 'the quick brown fox jumps over the lazy dog again and again';
    const d = drawing([mtext(5, 100, 2.5, words, [[41, 30]]), mtext(5, 0, 2.5, '中文排版测试自动换行中文排版测试自动换行', [[41, 20]])], undefined, { version: 'AC1027' });
    const f = await loadFonts(d, none);
    const [latin, cjk] = runs(d);
    const b = textBounds(latin, d, f);
    expect(b.minX).toBeCloseTo(5, 6);
    expect(b.maxX - b.minX).toBeLessThanOrEqual(30 + 1e-9);
    expect(b.maxY - b.minY).toBeGreaterThan(2.5 * 5); // several lines
    const all = textGeometry({ ...latin, raw: `\\L${words}` }, d, f).strokes;
    const under = all.slice(textGeometry(latin, d, f).strokes.length); // decorations come after the glyphs
    expect(under.length).toBeGreaterThan(3); // one underline a line, none drawn twice
    expect(new Set(under.map((s) => s[1].toFixed(6))).size).toBe(under.length);
    for (const u of under) expect(u[2]).toBeLessThanOrEqual(5 + 30 + 1e-9);
    const c = textBounds(cjk, d, f);
    expect(c.maxX - c.minX).toBeLessThanOrEqual(20 + 1e-9);
    expect(c.maxY - c.minY).toBeGreaterThan(2.5 * 3);
  });

  it('inline codes: height, colour, underline, groups, literal escapes, font switch request', async () => {
    const d = drawing([mtext(0, 0, 2, 'A{\\H2x;\\C1;B}C\\LD\\l\\\\\\{'), mtext(0, 50, 2, '{\\fArial|b0|i0|c0|p34;Hi} there')]);
    const f = await loadFonts(d, none);
    expect(f.report.requested).toContain('Arial');
    expect(f.report.substituted).toContainEqual({ name: 'Arial', with: CJK_FALLBACK });
    const [r, sw] = runs(d);
    const g = textGeometry(r, d, f);
    expect(g.colors).toHaveLength(g.strokes.length);
    const red = g.strokes.filter((_s, i) => g.colors![i] === 0xff0000);
    const bb = box({ strokes: red, triangles: [] });
    // attachment top-left: the line hangs from y = 0, its baseline one tallest height (4) below
    expect(bb.maxY).toBeCloseTo(0, 6); // B at twice the height, in red
    expect(bb.minY).toBeCloseTo(-4, 6);
    const nA = textGeometry({ ...r, raw: 'A' }, d, f).strokes.length;
    const nC = textGeometry({ ...r, raw: 'C' }, d, f).strokes.length;
    const c = box({ strokes: g.strokes.slice(nA + red.length, nA + red.length + nC), triangles: [] });
    expect(c.maxY - c.minY).toBeCloseTo(2, 1); // C after the group: back to height 2, on the same baseline
    expect(c.maxY).toBeLessThan(-1.5);
    expect(g.strokes.some((s) => s.length === 4 && s[1] === s[3] && Math.abs(s[1] + 4.4) < 1e-9)).toBe(true); // underline under D
    const plain = textGeometry({ ...r, raw: 'ABCD\\\\\\{' }, d, f).strokes.length;
    expect(g.strokes.length).toBe(plain + 1); // the same glyphs (\\ and \{ drawn as characters) plus the underline
    const s = textGeometry(sw, d, f);
    expect(s.triangles.length).toBeGreaterThan(0); // "Hi" in the (substituted) TrueType font
    expect(s.strokes.length).toBeGreaterThan(0); // " there" in the style's stroke font
  });
});

const SAMPLES = process.env.SAMPLES_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/samples');
describe('samples', () => {
  const file = path.join(SAMPLES, 'dxf_ezdxf_text_shx_font.dxf');
  it.skipIf(!existsSync(file))('lays out every text of the SHX-font sample (aligned and fit text included)', async () => {
    const d = parseDxf(new Uint8Array(readFileSync(file)));
    const f = await loadFonts(d, none);
    expect(f.report.substituted).toEqual([{ name: 'txt', with: STROKE_FALLBACK }]);
    const all = runs(d);
    for (const r of all) {
      const g = textGeometry(r, d, f);
      expect(g.strokes.length + g.triangles.length).toBeGreaterThan(0);
      const b = textBounds(r, d, f);
      expect(Number.isFinite(b.minX + b.maxX + b.minY + b.maxY)).toBe(true);
    }
    // aligned and fit text run from their first point (10/20) to the second (11/21), rotated to match
    for (const e of d.entities.filter((x) => x.type === 'TEXT' && [3, 5].includes(Number(x.pairs.find((p) => p[0] === 72)?.[1])))) {
      const v = (c: number) => Number(e.pairs.find((p) => p[0] === c)![1]);
      const r = all.find((t) => t.x === v(11) && t.y === v(21) && t.text === String(e.pairs.find((p) => p[0] === 1)![1]))!;
      const L = Math.hypot(v(11) - v(10), v(21) - v(20));
      const ux = (v(11) - v(10)) / L, uy = (v(21) - v(20)) / L;
      const along = textGeometry(r, d, f).strokes.flatMap((s) => s.filter((_x, i) => i % 2 === 0).map((x, i) => (x - v(10)) * ux + (s[2 * i + 1] - v(20)) * uy));
      expect(Math.min(...along)).toBeGreaterThan(-0.01 * L);
      expect(Math.max(...along)).toBeLessThan(L + 0.2 * r.height); // ink may pass the last advance a little
      expect(Math.max(...along)).toBeGreaterThan(L * 0.97);
    }
  });
});
