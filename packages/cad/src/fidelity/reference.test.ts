/**
 * Fidelity against renderings made by other programs: QCAD's PNG of its flange example and the architect's
 * PDF plot of the floor plan. Metric (image-metric.ts): both fitted to their ink bounding box at the
 * reference's ink-box size, ink within 2 px — precision, recall, F1. Every threshold is checked to fail a
 * mirrored, a 90°-rotated and a half-missing render of the same drawing, so a wrong render cannot pass.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { flattenLayout, unplottedLayers } from '../geometry/layout.ts';
import type { Flattened } from '../geometry/flatten.ts';
import type { Drawing } from '../model/drawing.ts';
import { renderPng } from '../render/png.ts';
import { renderPdf } from '../render/pdf.ts';
import type { TextGeometry } from '../render/prepare.ts';
import { loadFonts, textGeometry } from '../text/index.ts';
import { compareImages, decodeImage, inkBox, inkMask, type Agreement, type Rgba } from './image-metric.ts';
import { rasterisePdf } from './pdf-raster.ts';
import { WRONG_RENDERS } from './wrong-renders.ts';
import { haveSamples, sample, samplesDir } from './samples.ts';

if (!haveSamples) console.warn(`no samples in ${samplesDir}: the reference fidelity tests are skipped`);

interface Threshold {
  precision: number;
  recall: number;
  f1: number;
}
const passes = (a: Agreement, t: Threshold) => a.precision >= t.precision && a.recall >= t.recall && a.f1 >= t.f1;
const fmt = (a: Agreement) => `precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)} f1 ${a.f1.toFixed(3)}`;

/** Texts as the product draws them: the text engine with the bundled fonts (the drawings' own fonts are not public). */
async function textOf(d: Drawing): Promise<TextGeometry> {
  const fonts = await loadFonts(d, async () => null);
  return (run) => textGeometry(run, d, fonts);
}

/** Our PNG at about the reference's ink size (2 % margins around the drawing), compared. */
async function score(f: Flattened, ref: Rgba, text?: TextGeometry): Promise<Agreement> {
  const box = inkBox(inkMask(ref))!;
  return compareImages(await decodeImage(renderPng(f, { width: Math.round(Math.max(box.width, box.height) * 1.04), text })), ref, { k: 2 });
}

async function expectWrongRendersFail(flat: Flattened, ref: Rgba, t: Threshold, text?: TextGeometry) {
  for (const [name, wrong] of Object.entries(WRONG_RENDERS)) {
    // the text callback takes the (moved) run, so texts move with the wrong geometry
    const a = await score(wrong(flat), ref, text);
    console.log(`  ${name}: ${fmt(a)}`);
    expect(passes(a, t), `${name} render passed: ${fmt(a)}`).toBe(false);
  }
}

describe.skipIf(!haveSamples)('fidelity: dxf_qcad_flange.dxf against QCAD’s own png_qcad_flange_reference.png', () => {
  // measured (precision / recall / f1), texts by the text engine with bundled fonts: right 0.969 / 0.965 / 0.967;
  // half the entities dropped 0.978 / 0.815 / 0.889, mirrored 0.512 / 0.528 / 0.520, rotated 0.296 / 0.277 / 0.286.
  // (Before texts, dimensions, hatches and linetypes were drawn the right render scored 0.970 / 0.798 / 0.875.)
  const T: Threshold = { precision: 0.93, recall: 0.9, f1: 0.93 };
  let flat: Flattened;
  let ref: Rgba;
  let text: TextGeometry;
  beforeAll(async () => {
    const d = await readDrawing(readFileSync(sample('dxf_qcad_flange.dxf')), 'dxf_qcad_flange.dxf');
    flat = flattenLayout(d, 'Layout')!; // QCAD exported the paper layout: border, title block, 2 viewports
    text = await textOf(d);
    ref = await decodeImage(readFileSync(sample('png_qcad_flange_reference.png')));
  });

  it('our render of the layout meets the threshold', async () => {
    const a = await score(flat, ref, text);
    console.log(`flange right render: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
  });

  it('a mirrored, rotated or half-missing render fails the same threshold', async () => {
    await expectWrongRendersFail(flat, ref, T, text);
  });

  it('our vector PDF of the layout, rasterised by pdf.js, meets the same threshold', async () => {
    const box = inkBox(inkMask(ref))!;
    const page = await rasterisePdf(await renderPdf(flat, { text }), Math.round(box.width * 1.1));
    const a = await compareImages({ data: page.data, width: page.width, height: page.height }, ref, { k: 2 });
    console.log(`flange PDF: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
    const wrong = await rasterisePdf(await renderPdf(WRONG_RENDERS.mirrored(flat), { text }), Math.round(box.width * 1.1));
    const w = await compareImages({ data: wrong.data, width: wrong.width, height: wrong.height }, ref, { k: 2 });
    console.log(`  mirrored PDF: ${fmt(w)}`);
    expect(passes(w, T), fmt(w)).toBe(false);
  }, 60_000);
});

describe.skipIf(!haveSamples)('fidelity: dwg_2004_ddc_floorplan.dwg against the architect’s plot pdf_ddc_floorplan_plot.pdf', () => {
  // measured with the view the plot shows: right 0.974 / 0.996 / 0.985 (0.907 / 0.896 / 0.901 while MTEXT that
  // starts with a paragraph code dropped a line: issue 15 item 1); half dropped 0.603 / 0.478 / 0.534, mirrored
  // 0.198 / 0.212 / 0.205, rotated 0.318 / 0.285 / 0.300. The bar sits between the right render and that defect.
  const T: Threshold = { precision: 0.94, recall: 0.94, f1: 0.94 };
  const LAYOUT = 'TRN_PP_AR-5-01_V01_Korruseplaan';
  let d: Drawing;
  let ref: Rgba;
  beforeAll(async () => {
    d = await readDrawing(readFileSync(sample('dwg_2004_ddc_floorplan.dwg')), 'dwg_2004_ddc_floorplan.dwg');
    stopDwgWorker();
    const page = await rasterisePdf(readFileSync(sample('pdf_ddc_floorplan_plot.pdf')), 1400);
    ref = await decodeImage(await sharp(Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength), { raw: { width: page.width, height: page.height, channels: 4 } }).png().toBuffer());
  }, 240_000);

  // The layout as the viewer shows it is not the plot: like AutoCAD's screen it draws the layer the plot leaves out
  // (plot flag off) and texts beyond the sheet. The product's own plot, its PDF export, is scored against the same
  // plot in convert/convert-fidelity.test.ts.
  it('the view the plot shows meets the threshold, and mirrored, rotated or half-missing renders fail it', async () => {
    // what a plot leaves out: unplotted layers (290 = 0, Defpoints) and, as a plot is cut to the sheet, texts whose
    // anchor lies outside the sheet (the lines' extents)
    const flat = onSheet(flattenLayout(d, LAYOUT, { hiddenLayers: unplottedLayers(d) })!);
    const text = await textOf(d);
    const a = await score(flat, ref, text);
    console.log(`floor plan, plotted view: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
    await expectWrongRendersFail(flat, ref, T, text);
  }, 180_000);
});

function onSheet(f: Flattened): Flattened {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of f.polylines) {
    for (let i = 0; i + 1 < p.points.length; i += 2) {
      minX = Math.min(minX, p.points[i]), maxX = Math.max(maxX, p.points[i]);
      minY = Math.min(minY, p.points[i + 1]), maxY = Math.max(maxY, p.points[i + 1]);
    }
  }
  return { ...f, texts: f.texts.filter((t) => t.x >= minX && t.x <= maxX && t.y >= minY && t.y <= maxY) };
}

