import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import type { Flattened, Polyline2, TextRun } from '../geometry/flatten.ts';
import { compareImages, decodeImage } from '../fidelity/image-metric.ts';
import { rasterisePdf } from '../fidelity/pdf-raster.ts';
import { renderPdf } from './pdf.ts';
import { renderPng } from './png.ts';
import { renderSvg, boundsOf } from './svg.ts';
import type { Curve2 } from '../geometry/curve.ts';

const line = (points: number[], extra: Partial<Polyline2> = {}): Polyline2 => ({ points, closed: false, color: 0xffffff, layer: '0', entity: 0, lineweight: 0, ...extra });
const run = (extra: Partial<TextRun> = {}): TextRun => ({ x: 10, y: 10, height: 5, rotation: 0, text: 'AB', color: 0xff0000, layer: '0', entity: 1, kind: 'text', style: 'Standard', halign: 0, valign: 0, widthFactor: 1, oblique: 0, ...extra });
const flat = (polylines: Polyline2[], texts: TextRun[] = []): Flattened => ({ polylines, texts, entities: [], skipped: {} });

/** A 100 × 100 green square with a 40 × 40 hole in the middle, and a frame so the page is 0..100. */
const squareWithHole = () =>
  flat([line([0, 0, 100, 0, 100, 100, 0, 100], { closed: true, filled: true, color: 0x00ff00, holes: [[30, 30, 70, 30, 70, 70, 30, 70]] })]);

const pixel = (img: { data: Uint8Array | Uint8ClampedArray; width: number }, x: number, y: number) => {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
};

const ops = async (pdf: Buffer) => {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const list = await page.getOperatorList();
  const view = page.view;
  await doc.destroy();
  const { OPS } = pdfjs;
  const paints = list.fnArray.flatMap((f, i) => (f === OPS.constructPath ? [list.argsArray[i][0] as number] : []));
  const widths = list.fnArray.flatMap((f, i) => (f === OPS.setLineWidth ? [list.argsArray[i][0] as number] : []));
  return { view, paints, widths, OPS, texts: list.fnArray.filter((f) => f === OPS.showText).length };
};


describe('renderSvg', () => {
  it('fills areas with islands even-odd, one path per run of equal style', () => {
    const svg = renderSvg(squareWithHole(), { width: 200 });
    const fills = svg.match(/<path d="[^"]*" fill="#00ff00" fill-rule="evenodd"/g) ?? [];
    expect(fills).toHaveLength(1);
    expect(fills[0]?.match(/Z/g)).toHaveLength(2); // outer ring and hole in one path
    const two = renderSvg(flat([line([0, 0, 10, 0]), line([0, 5, 10, 5]), line([0, 9, 10, 9], { color: 0xff0000 })]), { width: 100 });
    expect(two.match(/<path /g)).toHaveLength(2);
  });

  it('draws lineweights at 96 dpi, at least one pixel, and all thin when asked', () => {
    const f = flat([line([0, 0, 100, 0], { lineweight: 0 }), line([0, 50, 100, 50], { lineweight: 200, color: 0xff0000 })]);
    const svg = renderSvg(f, { width: 104 }); // 1 drawing unit per pixel with the 2 % margins
    const widths = [...svg.matchAll(/stroke-width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths[0]).toBeCloseTo(1, 1);
    expect(widths[1]).toBeCloseTo((2 * 96) / 25.4, 1); // 2.00 mm = 7.56 px
    const flatWidths = [...renderSvg(f, { width: 104, lineweights: false }).matchAll(/stroke-width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(flatWidths[1]).toBeCloseTo(1, 1);
  });

  it('draws text from the text callback as geometry, else as SVG text aligned like the run', () => {
    const f = flat([line([0, 0, 100, 100])], [run({ halign: 2 })]);
    const placeholder = renderSvg(f);
    expect(placeholder).toContain('text-anchor="end"');
    expect(placeholder).toContain('>AB</tspan>');
    const geo = renderSvg(f, { text: () => ({ strokes: [[10, 10, 12, 15, 14, 10]], triangles: [20, 10, 25, 10, 22, 15] }) });
    expect(geo).not.toContain('<text');
    expect(geo).toMatch(/<path d="M10 10L12 15L14 10" fill="none" stroke="#ff0000"/);
    expect(geo).toMatch(/<path d="M20 10L25 10L22 15Z" fill="#ff0000"\/>/);
  });

  it('keeps white ink black on the light background and white on the dark one', () => {
    const f = flat([line([0, 0, 10, 10])]);
    expect(renderSvg(f)).toContain('stroke="#000000"');
    expect(renderSvg(f, { background: 'dark' })).toContain('stroke="#ffffff"');
  });
});

describe('renderPng', () => {
  it('keeps the hole of a filled area empty and honours width and background', async () => {
    const img = await decodeImage(renderPng(squareWithHole(), { width: 208 }));
    expect(img.width).toBe(208);
    expect(img.height).toBe(208);
    expect(pixel(img, 104, 104)).toEqual([255, 255, 255]); // the hole
    expect(pixel(img, 30, 104)).toEqual([0, 255, 0]); // the ring
    const dark = await decodeImage(renderPng(squareWithHole(), { width: 208, background: 'dark' }));
    expect(pixel(dark, 104, 104)).toEqual([0x21, 0x28, 0x30]);
  });

  it('draws a 2 mm line wider than a thin one', async () => {
    const f = flat([line([0, 0, 100, 0]), line([0, 100, 100, 100], { lineweight: 200 }), line([0, 50, 0, 50.001])]);
    const img = await decodeImage(renderPng(f, { width: 204 }));
    const inkRows = (x: number, y0: number, y1: number) => {
      let n = 0;
      for (let y = y0; y <= y1; y++) if (pixel(img, x, y)[0] < 128) n++;
      return n;
    };
    const thin = inkRows(50, img.height - 12, img.height - 1);
    const thick = inkRows(50, 0, 12);
    expect(thin).toBeGreaterThanOrEqual(1);
    expect(thick).toBeGreaterThanOrEqual(thin + 5);
  });
});

describe('renderPng paints what the SVG shows', () => {
  // lines of several lineweights and colours, an arc, a filled area with an island, a white fill over a line,
  // glyph triangles and strokes from the text callback, on a page taller than wide (the fit is by width)
  const arc: Curve2 = { cx: 60, cy: 120, ux: 30, uy: 0, vx: 0, vy: 30, t0: 0.4, sweep: 4, color: 0x0000ff, layer: '0', entity: 3 };
  const f: Flattened = {
    ...flat(
      [
        line([0, 0, 100, 0, 100, 160, 0, 160], { closed: true, entity: 0 }),
        line([5, 10, 95, 150], { lineweight: 50, color: 0xff0000, entity: 1 }),
        line([10, 20, 40, 20, 40, 50, 10, 50], { closed: true, filled: true, color: 0x00a000, holes: [[20, 30, 30, 30, 30, 40, 20, 40]], entity: 2 }),
        line([60, 60, 90, 60, 90, 90, 60, 90], { closed: true, filled: true, color: 0xffffff, entity: 4 }),
        line([55, 75, 95, 75], { lineweight: 100, entity: 5 }),
      ],
      [run({ x: 20, y: 100, entity: 6 })],
    ),
    curves: [arc],
  };
  const text = () => ({ strokes: [[20, 100, 25, 110, 30, 100]], triangles: [32, 100, 40, 100, 36, 110, 42, 100, 50, 100, 46, 110] });

  it.each(['light', 'dark'] as const)('ink within a pixel of resvg’s rendering of our SVG (%s)', async (background) => {
    const opts = { width: 300, background, text };
    const ours = await decodeImage(renderPng(f, opts));
    const svg = await decodeImage(new Resvg(renderSvg(f, opts), { fitTo: { mode: 'width', value: 300 }, font: { loadSystemFonts: false } }).render().asPng());
    expect([ours.width, ours.height]).toEqual([svg.width, svg.height]);
    // on the light page (the metric's ink is dark on white): the same strokes, fills and glyphs
    if (background === 'light') {
      const a = await compareImages(ours, svg, { k: 1, maxSide: 300 });
      expect(a.f1).toBeGreaterThan(0.998);
    }
    // and pixel by pixel: antialiased edges differ a little, colours and areas do not
    let far = 0;
    for (let i = 0; i < ours.data.length; i += 4) {
      const d = Math.max(Math.abs(ours.data[i] - svg.data[i]), Math.abs(ours.data[i + 1] - svg.data[i + 1]), Math.abs(ours.data[i + 2] - svg.data[i + 2]));
      if (d > 96) far++;
    }
    expect(far / (ours.width * ours.height)).toBeLessThan(0.001);
  });
});

describe('renderPdf', () => {
  it('is a vector page of the drawing’s aspect with lineweights in points and even-odd islands', async () => {
    const f = flat([...squareWithHole().polylines, line([0, -50, 200, -50], { lineweight: 50, color: 0x0000ff })]);
    const pdf = await renderPdf(f);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const o = await ops(pdf);
    const [, , w, h] = o.view;
    expect(w).toBeCloseTo((420 * 72) / 25.4, 0); // A3's long side
    // drawing 200 × 150 with 2 % margins (4 units each side), inside 10 mm page margins
    const m = (10 * 72) / 25.4;
    expect((h - 2 * m) / (w - 2 * m)).toBeCloseTo(158 / 208, 3);
    expect(o.paints).toContain(o.OPS.eoFillStroke);
    expect(o.paints).toContain(o.OPS.stroke);
    expect(o.widths.some((x) => Math.abs(x - (0.5 * 72) / 25.4) < 0.01)).toBe(true); // 0.50 mm = 1.417 pt
  });

  it('prints on an A size, and its hole stays empty when rasterised', async () => {
    const pdf = await renderPdf(squareWithHole(), { paper: 'A4' });
    const o = await ops(pdf);
    expect(o.view[2]).toBeCloseTo((297 * 72) / 25.4, 0); // landscape unless the drawing is taller than wide
    expect(o.view[3]).toBeCloseTo((210 * 72) / 25.4, 0);
    const img = await rasterisePdf(pdf, 400);
    const unit = (((o.view[3] - (20 * 72) / 25.4) / 104) * 400) / o.view[2]; // pixels per drawing unit
    const cx = img.width / 2, cy = img.height / 2;
    expect(pixel(img, cx, cy)).toEqual([255, 255, 255]); // the hole
    expect(pixel(img, cx - 35 * unit, cy)).toEqual([0, 255, 0]); // the ring
    expect(pixel(img, cx - 60 * unit, cy)).toEqual([255, 255, 255]); // outside
  });

  it('writes text in Helvetica without a text callback, and as geometry with one', async () => {
    const f = flat([line([0, 0, 100, 100])], [run()]);
    expect((await ops(await renderPdf(f))).texts).toBe(1);
    const geo = await ops(await renderPdf(f, { text: () => ({ strokes: [[10, 10, 12, 15]], triangles: [] }) }));
    expect(geo.texts).toBe(0);
  });
});

describe('exact curves in the renderers (flattened with curves: true)', () => {
  // a circle of radius 40 at (50, 50), a mirrored (clockwise) half ellipse, a frame 0..100
  const circle: Curve2 = { cx: 50, cy: 50, ux: 40, uy: 0, vx: 0, vy: 40, t0: 0, sweep: Math.PI * 2, color: 0xff0000, layer: '0', entity: 1 };
  const ellipse: Curve2 = { cx: 50, cy: 50, ux: 20, uy: 10, vx: 3, vy: -6, t0: 0.3, sweep: Math.PI, color: 0x0000ff, layer: '0', entity: 2 };
  const f: Flattened = { ...flat([line([0, 0, 100, 0, 100, 100, 0, 100], { closed: true })]), curves: [circle, ellipse] };

  it('SVG: elliptical arc commands on the exact curve (a closed one as two halves), bounds from the curves', () => {
    const svg = renderSvg(f, { width: 208 });
    const red = svg.match(/<path d="([^"]*)" fill="none" stroke="#ff0000"/)![1];
    expect(red).toBe('M90 50A40 40 0 0 1 10 50A40 40 0 0 1 90 50');
    const blue = svg.match(/<path d="([^"]*)" fill="none" stroke="#0000ff"/)![1];
    const [, x0, y0, rx, ry, , large, sweep, x1, y1] = blue.match(/^M([-\d.]+) ([-\d.]+)A([\d.]+) ([\d.]+) ([-\d.]+) (\d) (\d) ([-\d.]+) ([-\d.]+)$/)!.map(Number);
    // det [U V] = 20·(−6) − 10·3 < 0: clockwise; half of the parameter range: not the large arc
    expect([large, sweep]).toEqual([0, 0]);
    // coordinates to 1/20 of an output pixel (0.5 units here): two decimals
    expect(x0).toBeCloseTo(50 + 20 * Math.cos(0.3) + 3 * Math.sin(0.3), 2);
    expect(y0).toBeCloseTo(50 + 10 * Math.cos(0.3) - 6 * Math.sin(0.3), 2);
    expect(x1).toBeCloseTo(50 - 20 * Math.cos(0.3) - 3 * Math.sin(0.3), 2);
    expect(y1).toBeCloseTo(50 - 10 * Math.cos(0.3) + 6 * Math.sin(0.3), 2);
    // the principal semi-axes: the singular values of [U V]
    const a = 20 * 20 + 10 * 10, b = 20 * 3 + 10 * -6, d = 3 * 3 + 6 * 6;
    const big = Math.sqrt((a + d) / 2 + Math.sqrt(((a - d) / 2) ** 2 + b * b)), small = Math.sqrt((a + d) / 2 - Math.sqrt(((a - d) / 2) ** 2 + b * b));
    expect(rx).toBeCloseTo(big, 2);
    expect(ry).toBeCloseTo(small, 2);
    expect(boundsOf({ ...flat([]), curves: [circle] })).toEqual({ minX: 10, minY: 10, maxX: 90, maxY: 90 });
  });

  it('PNG and PDF: ink along the true circle, none inside it', async () => {
    const png = await decodeImage(renderPng(f, { width: 520 }));
    const pdf = await renderPdf(f, { paper: 'A4' });
    const o = await ops(pdf);
    const pdfImg = await rasterisePdf(pdf, 1000);
    // drawing 100 × 100 + 2 % margins: 104 units
    const check = (img: { data: Uint8Array | Uint8ClampedArray; width: number; height: number }, unit: number) => {
      const cx = img.width / 2, cy = img.height / 2;
      let onCurve = 0;
      for (let a = 0; a < 360; a += 3) {
        const x = cx + 40 * unit * Math.cos((a * Math.PI) / 180), y = cy - 40 * unit * Math.sin((a * Math.PI) / 180);
        // the nearest pixel to the true circle, or one beside it, is red
        const hit = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]].some(([dx, dy]) => {
          const [r, g, b] = pixel(img, x + dx, y + dy);
          // red ink, or its antialiased edge on white (a 0.25 pt PDF line is a third of a pixel here)
          return r > 150 && r - g > 40 && r - b > 40;
        });
        if (hit) onCurve++;
      }
      expect(onCurve).toBeGreaterThanOrEqual(118);
      // 2 px inside the circle there is no red
      for (let a = 0; a < 360; a += 5) {
        const x = cx + (40 * unit - 2.5) * Math.cos((a * Math.PI) / 180), y = cy - (40 * unit - 2.5) * Math.sin((a * Math.PI) / 180);
        const [r, g] = pixel(img, x, y);
        expect(r - g > 40).toBe(false);
      }
    };
    check(png, 520 / 104);
    const unit = (((o.view[3] - (20 * 72) / 25.4) / 104) * 1000) / o.view[2];
    check(pdfImg, unit);
    expect(o.paints.filter((p) => p === o.OPS.stroke).length).toBeGreaterThan(0);
  });
});
