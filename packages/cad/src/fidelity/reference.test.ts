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
import { flattenLayout } from '../geometry/layout.ts';
import type { Flattened } from '../geometry/flatten.ts';
import type { Drawing } from '../model/drawing.ts';
import { renderPng } from '../render/png.ts';
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

/** Our PNG at about the reference's ink size (2 % margins around the drawing), compared. */
async function score(f: Flattened, ref: Rgba): Promise<Agreement> {
  const box = inkBox(inkMask(ref))!;
  return compareImages(await decodeImage(renderPng(f, { width: Math.round(Math.max(box.width, box.height) * 1.04) })), ref, { k: 2 });
}

async function expectWrongRendersFail(flat: Flattened, ref: Rgba, t: Threshold) {
  for (const [name, wrong] of Object.entries(WRONG_RENDERS)) {
    const a = await score(wrong(flat), ref);
    console.log(`  ${name}: ${fmt(a)}`);
    expect(passes(a, t), `${name} render passed: ${fmt(a)}`).toBe(false);
  }
}

describe.skipIf(!haveSamples)('fidelity: dxf_qcad_flange.dxf against QCAD’s own png_qcad_flange_reference.png', () => {
  // measured: right 0.970 / 0.798 / 0.875 (texts, dimensions, hatches and linetypes not drawn yet);
  // half the entities dropped 0.979 / 0.661 / 0.789, mirrored 0.540 / 0.474 / 0.505, rotated 0.316 / 0.262 / 0.287
  const T: Threshold = { precision: 0.93, recall: 0.75, f1: 0.83 };
  let flat: Flattened;
  let ref: Rgba;
  beforeAll(async () => {
    const d = await readDrawing(readFileSync(sample('dxf_qcad_flange.dxf')), 'dxf_qcad_flange.dxf');
    flat = flattenLayout(d, 'Layout')!; // QCAD exported the paper layout: border, title block, 2 viewports
    ref = await decodeImage(readFileSync(sample('png_qcad_flange_reference.png')));
  });

  it('our render of the layout meets the threshold', async () => {
    const a = await score(flat, ref);
    console.log(`flange right render: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
  });

  it('a mirrored, rotated or half-missing render fails the same threshold', async () => {
    await expectWrongRendersFail(flat, ref, T);
  });
});

describe.skipIf(!haveSamples)('fidelity: dwg_2004_ddc_floorplan.dwg against the architect’s plot pdf_ddc_floorplan_plot.pdf', () => {
  // measured with the view the plot shows: right 0.961 / 0.865 / 0.911; half dropped 0.696 / 0.501 / 0.583,
  // mirrored 0.222 / 0.209 / 0.216, rotated 0.326 / 0.288 / 0.306
  const T: Threshold = { precision: 0.9, recall: 0.75, f1: 0.85 };
  const LAYOUT = 'TRN_PP_AR-5-01_V01_Korruseplaan';
  let d: Drawing;
  let ref: Rgba;
  beforeAll(async () => {
    d = await readDrawing(readFileSync(sample('dwg_2004_ddc_floorplan.dwg')), 'dwg_2004_ddc_floorplan.dwg');
    stopDwgWorker();
    const page = await rasterisePdf(readFileSync(sample('pdf_ddc_floorplan_plot.pdf')), 1400);
    ref = await decodeImage(await sharp(Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength), { raw: { width: page.width, height: page.height, channels: 4 } }).png().toBuffer());
  }, 240_000);

  // Known gaps, outside the renderers: the DWG reader reads every layer of this file as off (LibreDWG
  // writes 62 negative), and layout.ts places the viewport at its centre 12/22 without the view target
  // 17/27, so the layout shows no model space. `it.fails` flips to a failure once both are fixed: then make
  // it a plain `it`.
  it.fails('our render of the layout, as the product reads it, meets the threshold', async () => {
    const a = await score(flattenLayout(d, LAYOUT)!, ref);
    console.log(`floor plan as read: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
  }, 120_000);

  it('the view the plot shows meets the threshold, and mirrored, rotated or half-missing renders fail it', async () => {
    // the two gaps above worked around here only, to prove the metric on this plot: layers on, and the
    // viewport centred on target + centre
    const fixed: Drawing = { ...d, layers: d.layers.map((l) => ({ ...l, on: true })), entities: d.entities.map((e) => (e.type === 'VIEWPORT' ? withViewTarget(e) : e)) };
    const flat = flattenLayout(fixed, LAYOUT)!;
    const a = await score(flat, ref);
    console.log(`floor plan, plotted view: ${fmt(a)}`);
    expect(passes(a, T), fmt(a)).toBe(true);
    await expectWrongRendersFail(flat, ref, T);
  }, 180_000);
});

function withViewTarget(e: Drawing['entities'][number]): Drawing['entities'][number] {
  const get = (c: number) => Number(e.pairs.find(([code]) => code === c)?.[1] ?? 0);
  const tx = get(17), ty = get(27);
  return { ...e, pairs: e.pairs.map(([c, v]) => (c === 12 ? [c, String(Number(v) + tx)] : c === 22 ? [c, String(Number(v) + ty)] : [c, v])) as typeof e.pairs };
}
