// @vitest-environment jsdom
/**
 * The convert dialog's calibration maths (issue 17 part 5) against pdf.js's own viewport of a real page: taps in CSS
 * pixels to PDF user space and back on a page turned a quarter (/Rotate 90), snapping to the page's path end points
 * (through the operator list, a `cm` scale and shift included), the `options.calibrate` sent, and what the import
 * makes of it: the calibrated line as long as the length entered.
 */
import { describe, expect, it } from 'vitest';
import { fixturePdf } from '../../../../../packages/cad/src/testing/pdf-fixture.ts';
import { importPdf } from '../../../../../packages/cad/src/pdf-import/index.ts';
import { pairValue } from '../../../../../packages/cad/src/dxf/reader.ts';
import { calibrationOf, nearestVertex, pathVertices, pdfMillimetres, pdfPointAt, viewportPointAt, type PathOps, type Pt } from './calibrate-math.ts';

// a 200 × 100 pt page shown turned a quarter clockwise; its line from (30, 25) to (130, 25) in PDF user space
// (10 10 → 60 10 under `2 0 0 2 10 5 cm`), 100 pt long
const PDF = fixturePdf([{ content: 'q 2 0 0 2 10 5 cm 0 G 10 10 m 60 10 l S Q', width: 200, height: 100, rotate: 90 }]);

async function pageOf(bytes: Uint8Array) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  return { pdfjs, doc, page: await doc.getPage(1) };
}

describe('calibrating a PDF by one known distance', () => {
  it('taps on the turned page become PDF points (y up) through its viewport, snapped to the line’s ends', async () => {
    const { pdfjs, doc, page } = await pageOf(PDF);
    try {
      // drawn 2 CSS pixels a point: the turned page is 200 px wide and 400 tall
      const viewport = page.getViewport({ scale: 2 });
      expect([viewport.width, viewport.height]).toEqual([200, 400]);
      const t = Array.from(viewport.transform);
      // turned clockwise, the PDF's left edge is the top and its bottom edge the left: (x, y) is drawn at (2y, 2x)
      expect(viewportPointAt(t, 30, 25)).toEqual([50, 60]);
      expect(viewportPointAt(t, 130, 25)).toEqual([50, 260]);
      for (const [x, y] of [[0, 0], [200, 100], [75, 50]] as Pt[]) expect(viewportPointAt(t, x, y)).toEqual(viewport.convertToViewportPoint(x, y));

      // the page's path end points, in PDF user space (the `cm` applied)
      const vertices = pathVertices(await page.getOperatorList(), pdfjs.OPS as unknown as PathOps);
      expect(vertices).toEqual([[30, 25], [130, 25]]);
      const onScreen = vertices.map((v) => viewportPointAt(t, v[0], v[1]));
      // a tap 4 px off the line's first end snaps to it; a tap far from any end stays where it is
      const snapped = nearestVertex(onScreen, 53, 58, 12)!;
      expect(snapped).toEqual([50, 60]);
      expect(pdfPointAt(t, ...snapped)).toEqual([30, 25]);
      expect(nearestVertex(onScreen, 100, 150, 12)).toBeNull();
      expect(pdfPointAt(t, 100, 150)).toEqual([75, 50]);
      for (const [px, py] of [[0, 0], [200, 400], [37, 211]] as Pt[]) {
        const [x, y] = pdfPointAt(t, px, py);
        const [ex, ey] = viewport.convertToPdfPoint(px, py);
        expect(x).toBeCloseTo(ex, 9);
        expect(y).toBeCloseTo(ey, 9);
      }
    } finally {
      await doc.destroy();
    }
  });

  it('sends the two points and the true length in mm (cm and m converted), nothing until all are given', async () => {
    expect(calibrationOf([30, 25], [130, 25], 5, 'm')).toEqual({ from: [30, 25], to: [130, 25], mm: 5000 });
    expect(calibrationOf([30, 25], [130, 25], 12.5, 'cm')).toEqual({ from: [30, 25], to: [130, 25], mm: 125 });
    expect(calibrationOf([30, 25], null, 5, 'mm')).toBeUndefined();
    expect(calibrationOf([30, 25], [130, 25], null, 'mm')).toBeUndefined();
    expect(calibrationOf([30, 25], [30, 25], 5, 'mm')).toBeUndefined();
    // the page's own length, shown beside the picked points: 100 pt = 35.28 mm
    expect(pdfMillimetres([30, 25], [130, 25]).toFixed(2)).toBe('35.28');

    // the import takes it: the line comes back 5 m long
    const d = await importPdf(PDF, { calibrate: calibrationOf([30, 25], [130, 25], 5, 'm') });
    const line = d.entities.find((e) => e.type === 'LINE')!;
    const len = Math.hypot(Number(pairValue(line, 11)) - Number(pairValue(line, 10)), Number(pairValue(line, 21)) - Number(pairValue(line, 20)));
    expect(len).toBeCloseTo(5000, 6);
  });
});
