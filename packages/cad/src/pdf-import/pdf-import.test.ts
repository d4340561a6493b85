/**
 * PDF → drawing (issue 17 part 5) on PDFs written in the test: lines, circles, arcs, rounded corners, free curves,
 * dashes, fills, glyph runs, pages, calibration; AutoCAD's SHX comments; the drawing's layers and texts through our
 * own PDF export and back; the bad inputs (empty, not a PDF, encrypted, pictures only, a hostile size), each refused
 * with its reason. The written DXF is read back by our reader and, where installed, audited by ezdxf.
 */
import { describe, expect, it } from 'vitest';
import type { Drawing, Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import { parseDxf } from '../dxf/reader.ts';
import { writeDxf } from '../dxf/writer/index.ts';
import { convertDrawing, loadConvertText, readConvertSource } from '../convert/index.ts';
import { convertFixtureDxf, FIXTURE_LAYERS, FIXTURE_SHX_TEXT, FIXTURE_TTF_TEXTS } from '../testing/convert-fixture.ts';
import { circlePath, fixturePdf } from '../testing/pdf-fixture.ts';
import { ezdxfErrors, hasEzdxf } from '../testing/ezdxf-audit.ts';
import { importPdf, PdfImportError } from './index.ts';

const MM = 25.4 / 72;
const num = (e: Entity, code: number) => Number(pairValue(e, code));
const all = (d: Drawing): Entity[] => [...d.entities, ...d.blocks.flatMap((b) => b.entities)];
const ofType = (d: Drawing, type: string) => all(d).filter((e) => e.type === type);

const GEOMETRY = [
  // a blue line 2 pt wide
  '0 0 1 RG 2 w 72 72 m 144 72 l S',
  // a circle of radius 50 pt
  '0 0 0 RG 0.5 w', circlePath(300, 300, 50), 'S',
  // a quarter arc, centre (400, 100), radius 50, counter-clockwise from (450, 100) to (400, 150)
  `450 100 m 450 ${100 + 27.614} ${400 + 27.614} 150 400 150 c S`,
  // a rectangle with one rounded corner (radius 20): lines and a quarter curve
  `100 600 m 200 600 l 200 680 l 220 700 220 700 220 700 c 220 700 l 100 700 l h S`,
  `300 600 m 380 600 l 380 ${600 + 20 - 0.5522847498 * 20 * 0 + 0} l 380 ${620 + 11.0457} ${400 - 11.0457} 640 400 640 c 300 640 l h S`,
  // an S curve no circle fits
  '100 200 m 150 300 150 100 200 200 c S',
  // a dashed line: 6 on, 3 off
  '[6 3] 0 d 72 400 m 272 400 l S [] 0 d',
  // a red filled rectangle
  '1 0 0 rg 100 450 50 30 re f',
  // text: two runs on one baseline, a kerned TJ, and a rotated one
  '0 g BT /F1 12 Tf 1 0 0 1 100 520 Tm (Hello) Tj ( World) Tj ET',
  'BT /F1 10 Tf 1 0 0 1 300 520 Tm [(Dra) -20 (wing)] TJ ET',
  'BT /F1 10 Tf 0 1 -1 0 500 300 Tm (Up) Tj ET',
].join('\n');

if (!hasEzdxf) console.warn('ezdxf not installed (/usr/bin/python3 with python3-ezdxf): written files are not audited');

describe('PDF import: geometry', () => {
  it('lines, circles, arcs, bulges, curves, dashes, fills and texts at true scale in millimetres', async () => {
    const d = await importPdf(fixturePdf([{ content: GEOMETRY }]));
    expect(d.header.units).toBe(4);
    expect(d.layouts.map((l) => l.name)).toEqual(['Model', 'Page 1']);
    // the page is a layout: its entities in paper space
    expect(d.entities.every((e) => e.paperSpace)).toBe(true);

    const lines = ofType(d, 'LINE');
    const blue = lines.find((e) => e.layer === 'PDF_0000FF')!;
    expect(blue, 'the blue line on its colour layer').toBeDefined();
    expect([num(blue, 10), num(blue, 20), num(blue, 11), num(blue, 21)].map((v) => +v.toFixed(3))).toEqual([25.4, 25.4, 50.8, 25.4]);
    expect(blue.lineweight).toBe(70); // 2 pt = 0.71 mm

    const circles = ofType(d, 'CIRCLE');
    expect(circles).toHaveLength(1);
    expect(num(circles[0], 40)).toBeCloseTo(50 * MM, 3);
    expect(num(circles[0], 10)).toBeCloseTo(300 * MM, 3);

    const arcs = ofType(d, 'ARC');
    expect(arcs).toHaveLength(1);
    expect(num(arcs[0], 40)).toBeCloseTo(50 * MM, 2);
    expect(num(arcs[0], 50)).toBeCloseTo(0, 0);
    expect(num(arcs[0], 51)).toBeCloseTo(90, 0);

    const polys = ofType(d, 'LWPOLYLINE');
    // the rounded rectangle: a quarter-circle bulge tan(90° / 4)
    const bulges = polys.flatMap((p) => p.pairs.filter((q) => q[0] === 42).map((q) => Math.abs(Number(q[1]))));
    expect(bulges.some((b) => Math.abs(b - Math.tan(Math.PI / 8)) < 0.01)).toBe(true);
    // the S curve no arc fits is one SPLINE: degree 3, the Bézier's own control points, a clamped knot vector (as
    // AutoCAD writes a Bézier it converted), not a polyline of chords
    expect(polys.some((p) => Math.abs(num(p, 10) - 100 * MM) < 1e-6 && Math.abs(num(p, 20) - 200 * MM) < 1e-6)).toBe(false);
    const splines = ofType(d, 'SPLINE');
    expect(splines).toHaveLength(1);
    const sp = splines[0];
    expect([num(sp, 71), num(sp, 72), num(sp, 73), num(sp, 74)]).toEqual([3, 8, 4, 0]);
    expect(sp.pairs.filter((q) => q[0] === 40).map((q) => Number(q[1]))).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    const xs = sp.pairs.filter((q) => q[0] === 10).map((q) => +(Number(q[1]) / MM).toFixed(6));
    const ys = sp.pairs.filter((q) => q[0] === 20).map((q) => +(Number(q[1]) / MM).toFixed(6));
    expect(xs).toEqual([100, 150, 150, 200]);
    expect(ys).toEqual([200, 300, 100, 200]);

    // the dashed line has a linetype of the page's dash pattern in mm
    const dashed = lines.find((e) => e.linetype)!;
    const lt = d.linetypes.find((l) => l.name === dashed.linetype)!;
    expect(lt.pattern.map((v) => +v.toFixed(2))).toEqual([+(6 * MM).toFixed(2), -(3 * MM).toFixed(2)].map(Number));

    const hatches = ofType(d, 'HATCH');
    expect(hatches).toHaveLength(1);
    expect(pairValue(hatches[0], 2)).toBe('SOLID');
    expect(hatches[0].layer).toBe('PDF_FF0000');
    expect(num(hatches[0], 93)).toBe(4);

    const texts = ofType(d, 'TEXT');
    expect(texts.map((t) => String(pairValue(t, 1))).sort()).toEqual(['Drawing', 'Hello World', 'Up']);
    const hello = texts.find((t) => pairValue(t, 1) === 'Hello World')!;
    expect(num(hello, 10)).toBeCloseTo(100 * MM, 3);
    expect(num(hello, 20)).toBeCloseTo(520 * MM, 3);
    expect(num(hello, 40)).toBeCloseTo(12 * MM * 0.716, 2);
    expect(d.textStyles.find((st) => st.name === pairValue(hello, 7))?.font).toBe('arial.ttf');
    const up = texts.find((t) => pairValue(t, 1) === 'Up')!;
    expect(num(up, 50)).toBeCloseTo(90, 3);
  });

  it('a subpath of lines and curves keeps its curves: quarter circles as bulges, free curves as splines between lines', async () => {
    // a rounded rectangle 200 × 100 pt, corner radius 20: four lines and four quarter-circle Béziers, closed
    const K = 0.5522847498 * 20;
    const rounded = [
      '120 100 m 280 100 l', `${280 + K} 100 300 ${120 - K} 300 120 c`, '300 180 l', `300 ${180 + K} ${280 + K} 200 280 200 c`,
      '120 200 l', `${120 - K} 200 100 ${180 + K} 100 180 c`, '100 120 l', `100 ${120 - K} ${120 - K} 100 120 100 c h S`,
    ].join(' ');
    // a line, a free-form S curve, a line: one subpath
    const s = '100 400 m 150 400 l 200 450 200 350 250 400 c 300 400 l S';
    const d = await importPdf(fixturePdf([{ content: `0 G ${rounded}
${s}` }]));
    const polys = ofType(d, 'LWPOLYLINE');
    expect(polys).toHaveLength(1);
    expect(num(polys[0], 70) & 1).toBe(1);
    const bulges = polys[0].pairs.filter((q) => q[0] === 42).map((q) => Number(q[1]));
    expect(bulges).toHaveLength(4);
    for (const b of bulges) expect(b).toBeCloseTo(Math.tan(Math.PI / 8), 3);
    // the S curve: a SPLINE of its own control points, joined end to end with a LINE either side
    const splines = ofType(d, 'SPLINE');
    expect(splines).toHaveLength(1);
    const xy = (code: number) => splines[0].pairs.filter((q) => q[0] === code).map((q) => +(Number(q[1]) / MM).toFixed(6));
    expect([xy(10), xy(20)]).toEqual([[150, 200, 200, 250], [400, 450, 350, 400]]);
    expect(num(splines[0], 71)).toBe(3);
    const lines = ofType(d, 'LINE').map((l) => [10, 20, 11, 21].map((c) => +(num(l, c) / MM).toFixed(6)));
    expect(lines.sort((a, b) => a[0] - b[0])).toEqual([[100, 400, 150, 400], [250, 400, 300, 400]]);
    expect(ezdxfErrors(writeDxf(d, { version: '2018' }), 'mixed.dxf')).toEqual([]);
  });

  it('writes a DXF our reader reads back with the same entities, and ezdxf audits clean', async () => {
    const d = await importPdf(fixturePdf([{ content: GEOMETRY }, { content: '0 0 0 RG 10 10 m 100 100 l S' }]));
    const bytes = writeDxf(d, { version: '2018' });
    const back = parseDxf(bytes);
    for (const type of ['LINE', 'CIRCLE', 'ARC', 'LWPOLYLINE', 'SPLINE', 'HATCH', 'TEXT']) expect(back.counts[type], type).toBe(d.counts[type]);
    expect(back.layouts.map((l) => l.name).sort()).toEqual(['Model', 'Page 1', 'Page 2']);
    expect(ezdxfErrors(bytes, 'geometry.dxf')).toEqual([]);
  });

  it("a plotted linetype (each dash its own stroke) becomes one LINE with the repeating pattern as its linetype", async () => {
    const strokes = (y: number, pieces: [number, number][]) => pieces.map(([x0, x1]) => `${x0} ${y} m ${x1} ${y} l S`).join('\n');
    // dashed: 6 on 3 off from x = 100, twelve dashes, the last cut short at x = 204
    const dashed = strokes(100, Array.from({ length: 12 }, (_, i) => [100 + 9 * i, Math.min(100 + 9 * i + 6, 204)] as [number, number]));
    // dash-dot: 12 on, 3 off, 0.5 dot, 3 off, starting with a dash cut to 5
    const dd: [number, number][] = [[300, 305]];
    for (let x = 308; x < 420; x += 18.5) dd.push([x, x + 0.5], [x + 3.5, x + 15.5]);
    // a solid line drawn in pieces, and pieces at irregular gaps: left as they are
    const solid = strokes(200, [[100, 150], [150, 200], [200, 250], [250, 300], [300, 350]]);
    const irregular = strokes(300, [[100, 105], [107, 112], [120, 125], [126, 131], [140, 145], [149, 154]]);
    const d = await importPdf(fixturePdf([{ content: ['0 G 0.5 w', dashed, strokes(150, dd), solid, irregular].join('\n') }]));
    const at = (y: number) => ofType(d, 'LINE').filter((l) => Math.abs(num(l, 20) - y * MM) < 1e-6);
    const dashLine = at(100);
    expect(dashLine).toHaveLength(1);
    expect([num(dashLine[0], 10), num(dashLine[0], 11)].map((v) => +(v / MM).toFixed(3))).toEqual([100, 204]);
    const pattern = (e: Entity) => d.linetypes.find((l) => l.name === e.linetype)!.pattern.map((v) => +(v / MM).toFixed(1));
    expect(pattern(dashLine[0])).toEqual([6, -3]);
    // the cut first dash stays a line of its own; the rest is one line of the dash-dot pattern
    const dashDot = at(150).sort((a, b) => num(a, 10) - num(b, 10));
    expect(dashDot).toHaveLength(2);
    expect(dashDot[0].linetype).toBeUndefined();
    expect(pattern(dashDot[1])).toEqual([0.5, -3, 12, -3]);
    expect(at(200)).toHaveLength(5);
    expect(at(300)).toHaveLength(6);
  });

  it('chosen pages, pages stacked in model space, calibration by one known distance', async () => {
    const pdf = fixturePdf([{ content: '0 G 0 0 m 100 0 l S' }, { content: '0 G 0 0 m 200 0 l S' }, { content: '0 G 0 0 m 300 0 l S' }]);
    const chosen = await importPdf(pdf, { pages: [1, 3] });
    expect(chosen.layouts.map((l) => l.name)).toEqual(['Model', 'Page 1', 'Page 3']);
    const stacked = await importPdf(pdf, { stack: true });
    expect(stacked.layouts.map((l) => l.name)).toEqual(['Model']);
    const lines = stacked.entities.filter((e) => e.type === 'LINE');
    expect(lines.every((e) => !e.paperSpace)).toBe(true);
    // one under another: three different heights, each a page (842 pt) and a tenth apart
    const ys = lines.map((e) => num(e, 20));
    expect(new Set(ys.map((y) => y.toFixed(3))).size).toBe(3);
    expect(Math.abs(ys[0] - ys[1])).toBeCloseTo(842 * MM * 1.1, 3);
    // 100 pt measured as 1000 mm: a scale of 10 mm per point
    const cal = await importPdf(pdf, { pages: [1], calibrate: { from: [0, 0], to: [100, 0], mm: 1000 } });
    const l = ofType(cal, 'LINE')[0];
    expect(num(l, 11) - num(l, 10)).toBeCloseTo(1000, 6);
    await expect(importPdf(pdf, { pages: [4] })).rejects.toMatchObject({ reason: 'pdf.noSuchPage' });
  });

  it('a plot scale 1:N: drawing units are the PDF\'s millimetres times N (lengths, radii, texts, dashes)', async () => {
    const content = `0 G [6 3] 0 d 0 0 m 100 0 l S [] 0 d ${circlePath(300, 300, 50)} S BT /F1 10 Tf 1 0 0 1 100 520 Tm (Scaled) Tj ET`;
    const pdf = fixturePdf([{ content }]);
    const d = await importPdf(pdf, { scale: 50 });
    const l = ofType(d, 'LINE')[0];
    expect(num(l, 11) - num(l, 10)).toBeCloseTo(100 * MM * 50, 6);
    expect(num(ofType(d, 'CIRCLE')[0], 40)).toBeCloseTo(50 * MM * 50, 2);
    expect(num(ofType(d, 'TEXT')[0], 20)).toBeCloseTo(520 * MM * 50, 6);
    expect(d.linetypes.find((x) => x.name === l.linetype)!.pattern[0]).toBeCloseTo(6 * MM * 50, 1);
    // the pen stays the plotted one: a lineweight is paper millimetres at any scale
    expect(l.lineweight).toBe(ofType(await importPdf(pdf), 'LINE')[0].lineweight);
    await expect(importPdf(pdf, { scale: 0 })).rejects.toMatchObject({ code: 'cad.parseFailed' });
  });

  it('PDF layers become drawing layers (off when the PDF has them off); content outside any stays on layer 0', async () => {
    const content = '/OC /L0 BDC 0 G 0 0 m 100 0 l S EMC /OC /L1 BDC 1 0 0 RG 0 10 m 100 10 l S EMC 0 G 0 20 m 100 20 l S';
    const d = await importPdf(fixturePdf([{ content }], { layers: [{ name: 'Walls', on: true }, { name: 'Furniture: draft', on: false }] }));
    const lines = ofType(d, 'LINE').sort((a, b) => num(a, 20) - num(b, 20));
    expect(lines.map((l) => l.layer)).toEqual(['Walls', 'Furniture_ draft', '0']);
    // on a PDF layer the colour is the entity's own: red as ACI 1 with its true colour; black is the foreground ink
    expect([lines[1].color, lines[1].trueColor]).toEqual([1, 0xff0000]);
    expect(lines[0].color).toBe(7);
    const written = parseDxf(writeDxf(d, { version: '2018' }));
    expect(written.layers.find((l) => l.name === 'Walls')?.on).toBe(true);
    expect(written.layers.find((l) => l.name === 'Furniture_ draft')?.on).toBe(false);
  });

  it('a page with /Rotate comes out as a viewer shows it: turned, its layout the shown size', async () => {
    // a 200 × 100 pt page shown turned a quarter clockwise (a 100 × 200 sheet): the line along its bottom edge runs
    // down the sheet's left edge, its text reads downwards
    const content = '0 G 0 0 m 200 0 l S BT /F1 10 Tf 1 0 0 1 10 50 Tm (Turned) Tj ET';
    const d = await importPdf(fixturePdf([{ content, width: 200, height: 100, rotate: 90 }]));
    const layout = d.layouts.find((l) => l.name === 'Page 1')!;
    const size = [44, 45].map((c) => Number(layout.pairs!.find((p) => p[0] === c)![1]) / MM);
    expect(size.map((v) => Math.round(v))).toEqual([100, 200]);
    const l = ofType(d, 'LINE')[0];
    expect([num(l, 10), num(l, 20), num(l, 11), num(l, 21)].map((v) => Math.round(v / MM))).toEqual([0, 200, 0, 0]);
    const t = ofType(d, 'TEXT')[0];
    expect([num(t, 10), num(t, 20)].map((v) => Math.round(v / MM))).toEqual([50, 190]);
    expect(num(t, 50)).toBeCloseTo(270, 3);
  });

  it('clipping paths cut what crosses them and hide what lies outside (a viewport on a sheet)', async () => {
    // an L-shaped clip (not a rectangle): a line across it keeps only its inside parts; a circle outside it and a
    // text outside it are gone; a text inside stays
    const content = [
      'q 100 100 m 300 100 l 300 200 l 200 200 l 200 300 l 100 300 l h W n',
      '0 G 50 150 m 350 150 l S', // crosses the clip's lower arm: 100..300 kept
      '50 250 m 350 250 l S', // crosses the upper arm: 100..200 kept
      circlePath(280, 280, 10), 'S', // in the L's missing corner
      'BT /F1 10 Tf 1 0 0 1 120 120 Tm (inside) Tj ET',
      'BT /F1 10 Tf 1 0 0 1 250 260 Tm (hidden) Tj ET',
      'Q',
    ].join('\n');
    const d = await importPdf(fixturePdf([{ content }]));
    const spans = ofType(d, 'LINE').map((l) => [num(l, 10) / MM, num(l, 11) / MM, num(l, 20) / MM].map((v) => Math.round(v))).sort((a, b) => a[2] - b[2]);
    expect(spans).toEqual([[100, 300, 150], [100, 200, 250]]);
    expect(ofType(d, 'CIRCLE')).toHaveLength(0);
    expect(ofType(d, 'TEXT').map((t) => pairValue(t, 1))).toEqual(['inside']);
  });

  it('a clip of any shape cuts fills and strokes: a square under a circle, lines through a circle and a triangle', async () => {
    const content = [
      // a circle of radius 120 clips a 200 pt square fill centred on it, and a line across it 50 pt above its centre
      'q', circlePath(200, 200, 120), 'h W n', '0 0 1 rg 100 100 200 200 re f', '0 G 0 250 m 400 250 l S', 'Q',
      // a triangle clips a line across it
      'q 100 500 m 300 500 l 200 700 l h W n 0 G 50 550 m 350 550 l S Q',
    ].join('\n');
    const d = await importPdf(fixturePdf([{ content }]));
    const hatches = ofType(d, 'HATCH');
    expect(hatches).toHaveLength(1);
    // the hatch's loops: after 91 (loop count), each loop 92, 72, 73, 93 (vertices) then its 10/20 pairs
    const pairs = hatches[0].pairs;
    let area = 0;
    for (let i = pairs.findIndex((q) => q[0] === 91) + 1; i < pairs.length && pairs[i][0] === 92; ) {
      const n = Number(pairs[i + 3][1]);
      const ring: [number, number][] = [];
      i += 4;
      while (ring.length < n) {
        ring.push([Number(pairs[i][1]) / MM, Number(pairs[i + 1][1]) / MM]);
        i += 2 + (pairs[i + 2]?.[0] === 42 ? 1 : 0);
      }
      i++; // 97
      area += ring.reduce((s, p, j) => s + p[0] * ring[(j + 1) % n][1] - ring[(j + 1) % n][0] * p[1], 0) / 2;
    }
    // the square less the four circle segments beyond its sides (each r²·acos(d/r) − d·√(r² − d²), d = 100)
    const r = 120, dd = 100;
    const want = Math.PI * r * r - 4 * (r * r * Math.acos(dd / r) - dd * Math.sqrt(r * r - dd * dd));
    expect(Math.abs(Math.abs(area) - want) / want).toBeLessThan(0.01);
    // the lines end on the clips' edges: the circle (x = 200 ± √(120² − 50²)) and the triangle's sides
    const spans = ofType(d, 'LINE').map((l) => [num(l, 10) / MM, num(l, 11) / MM, num(l, 20) / MM]).sort((a, b) => a[2] - b[2]);
    expect(spans).toHaveLength(2);
    const half = Math.sqrt(r * r - 50 * 50);
    expect(Math.abs(spans[0][0] - (200 - half))).toBeLessThan(0.5);
    expect(Math.abs(spans[0][1] - (200 + half))).toBeLessThan(0.5);
    expect(spans[1].map((v) => +v.toFixed(3))).toEqual([125, 275, 550]);
    expect(ezdxfErrors(writeDxf(d, { version: '2018' }), 'clipped.dxf')).toEqual([]);
  });

  it("recovers AutoCAD's SHX text comments as TEXT and drops the strokes they cover", async () => {
    // "AB" drawn as strokes inside the comment's box, and a line outside it that stays
    const strokes = '0 G 0.2 w 100 500 m 105 512 l 110 500 l S 103 506 m 107 506 l S 114 500 m 114 512 l 120 512 l 122 509 l 120 506 l 114 506 l S 114 500 m 121 500 l 123 503 l 121 506 l S';
    const pdf = fixturePdf([{
      content: `${strokes}\n0 G 50 50 m 300 50 l S`,
      annotations: ['/Subtype /Square /Rect [99 499 124 513] /F 2 /T (AutoCAD SHX Text) /Subj (AutoCAD SHX Text) /Contents (AB) /C [0 0 0] /Border [0 0 0]'],
    }]);
    const d = await importPdf(pdf);
    const texts = ofType(d, 'TEXT');
    expect(texts.map((t) => pairValue(t, 1))).toEqual(['AB']);
    expect(num(texts[0], 10)).toBeCloseTo(99 * MM, 3);
    expect(num(texts[0], 20)).toBeCloseTo(499 * MM, 3);
    // the strokes of the letters are gone, the line outside stays
    expect(ofType(d, 'LINE').length + ofType(d, 'LWPOLYLINE').length).toBe(1);
  });

  it("a drawing's layers and texts survive our PDF export and the way back (PDF layers become layers)", async () => {
    const drawing = parseDxf(convertFixtureDxf());
    // with the text engine (bundled fonts): TrueType text as text, SHX text as strokes under invisible text
    const pdf = await convertDrawing(drawing, 'pdf', { layouts: ['Model'] }, await loadConvertText(drawing, async () => null));
    const d = await importPdf(pdf.bytes);
    const layers = d.layers.map((l) => l.name);
    for (const name of FIXTURE_LAYERS.filter((n) => n !== '0')) expect(layers).toContain(name);
    const texts = ofType(d, 'TEXT').map((t) => String(pairValue(t, 1)));
    // text drawn with the bundled fonts: the export writes the TrueType texts as real text
    for (const t of FIXTURE_TTF_TEXTS.slice(0, 2)) expect(texts.join('|')).toContain(t);
    // the SHX text, exported as strokes under invisible searchable text, comes back as the text without its strokes
    const shx = ofType(d, 'TEXT').find((t) => pairValue(t, 1) === FIXTURE_SHX_TEXT)!;
    expect(shx).toBeDefined();
    const [x0, y0, x1] = [num(shx, 10), num(shx, 20), num(shx, 11)];
    const h = num(shx, 40) / 0.716;
    const inBox = (x: number, y: number) => x >= x0 - 0.05 * h && x <= x1 + 0.05 * h && y >= y0 - 0.2 * h && y <= y0 + h;
    const strokes = [...ofType(d, 'LWPOLYLINE'), ...ofType(d, 'LINE')].filter((e) => inBox(num(e, 10), num(e, 20)));
    expect(strokes).toEqual([]);
  });
});

describe('PDF import: bad input ends with the reason', () => {
  const reasonOf = (p: Promise<unknown>) => p.then(() => 'converted', (e) => (e instanceof PdfImportError ? e.reason : `other: ${String(e)}`));

  it('a 0-byte file', async () => {
    expect(await reasonOf(importPdf(new Uint8Array()))).toBe('pdf.empty');
  });
  it('random bytes named .pdf', async () => {
    const junk = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);
    expect(await reasonOf(importPdf(junk))).toBe('pdf.invalid');
    // a PDF header over garbage is no better
    expect(await reasonOf(importPdf(new Uint8Array([...Buffer.from('%PDF-1.7\n'), ...junk])))).toBe('pdf.invalid');
  });
  it('an encrypted PDF (standard security handler, no password opens it)', async () => {
    expect(await reasonOf(importPdf(fixturePdf([{ content: GEOMETRY }], { encrypt: true })))).toBe('pdf.encrypted');
  });
  it('a scanned PDF: pictures only, no vectors', async () => {
    const e = await importPdf(fixturePdf([{ content: 'q 595 0 0 842 0 0 cm /Im1 Do Q', image: { width: 8, height: 8 } }])).catch((x) => x);
    expect(e).toBeInstanceOf(PdfImportError);
    expect(e.reason).toBe('pdf.noVectors');
    expect(e.detail).toMatch(/only pictures/);
    // the message the server shows is the spec's conversion failure
    expect(e.message).toBe('Failed to convert the file format.');
  });
  it('a hostile page past the segment limit ends with cad.tooComplex, not a hang', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `${i % 500} 0 m ${i % 500} 10 l S`).join('\n');
    await expect(importPdf(fixturePdf([{ content: many }]), { maxSegments: 1000 })).rejects.toMatchObject({ code: 'cad.tooComplex' });
  });
  it('a PDF asked for a target a PDF does not convert to', async () => {
    await expect(readConvertSource(fixturePdf([{ content: GEOMETRY }]), 'x.pdf', 'png')).rejects.toMatchObject({ code: 'cad.targetUnavailable' });
  });
});
