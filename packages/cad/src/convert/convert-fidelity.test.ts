/**
 * Issue 17: the floor plan's PDF export (convertDrawing, as the command line and the server's jobs make it, texts by
 * the bundled fonts) rasterised by poppler's `pdftoppm` against the architect's own plot of the same drawing
 * (pdf_ddc_floorplan_plot.pdf) rasterised the same way, scored by the fidelity metric (image-metric.ts: ink within
 * 2 px after both are fitted to their ink boxes). Skipped with a message without the samples or pdftoppm.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import type { Drawing } from '../model/drawing.ts';
import { compareImages, decodeImage, type Agreement, type Rgba } from '../fidelity/image-metric.ts';
import { haveSamples, sample, samplesDir } from '../fidelity/samples.ts';
import { convertDrawing, loadConvertText } from './index.ts';

const DRAWING = 'dwg_2004_ddc_floorplan.dwg';
const PLOT = 'pdf_ddc_floorplan_plot.pdf';
const LAYOUT = 'TRN_PP_AR-5-01_V01_Korruseplaan';
const havePdftoppm = spawnSync('pdftoppm', ['-v']).status === 0;
const ready = haveSamples && existsSync(sample(DRAWING)) && existsSync(sample(PLOT)) && havePdftoppm;
if (!ready) console.warn(`convert fidelity skipped: ${!havePdftoppm ? 'no pdftoppm (apt-get install poppler-utils)' : `no ${DRAWING} / ${PLOT} in ${samplesDir}`}`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-convert-fidelity-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  stopDwgWorker();
});

/** The first page, its longer side `px` pixels, as pdftoppm draws it (anti-aliased, on white). */
async function pdftoppm(pdf: string, px: number): Promise<Rgba> {
  const base = path.join(dir, `${path.basename(pdf, '.pdf')}-${px}`);
  const r = spawnSync('pdftoppm', ['-png', '-singlefile', '-f', '1', '-l', '1', '-scale-to', String(px), pdf, base], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
  return decodeImage(readFileSync(`${base}.png`));
}

const fmt = (a: Agreement) => `precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)} f1 ${a.f1.toFixed(3)}`;
// Measured (precision / recall / f1), pdftoppm 22.12 at 1600 px: 0.987 / 0.968 / 0.977 (0.967 / 0.968 / 0.968 while
// the export drew the layer the plot leaves out, "NonPlottable_Drawing & Figure"); the flange's plot as a wrong
// reference 0.173 / 0.291 / 0.217. The bars sit just under the measure: room for anti-aliasing and the bundled fonts'
// differences from the architect's, while the unplotted layer put back (precision 0.967), a plot losing a line of
// MTEXT per paragraph (0.90 in fidelity/reference.test.ts) or half its entities (0.53) falls under them.
const T = { precision: 0.975, recall: 0.95, f1: 0.95 };
const passes = (a: Agreement) => a.precision >= T.precision && a.recall >= T.recall && a.f1 >= T.f1;

describe.skipIf(!ready)(`the floor plan's PDF export against the architect's plot, both through pdftoppm`, () => {
  let d: Drawing;
  let ours: string;
  let plot: Rgba;
  beforeAll(async () => {
    d = await readDrawing(readFileSync(sample(DRAWING)), DRAWING, { timeoutMs: 60_000 });
    const pdf = await convertDrawing(d, 'pdf', { layouts: [LAYOUT] }, await loadConvertText(d, async () => null));
    ours = path.join(dir, 'ours.pdf');
    writeFileSync(ours, pdf.bytes);
    plot = await pdftoppm(sample(PLOT), 1600);
  }, 240_000);

  it('meets the threshold', async () => {
    const a = await compareImages(await pdftoppm(ours, 1600), plot, { k: 2, maxSide: 1400 });
    console.log(`floor plan PDF export vs the architect's plot: ${fmt(a)}`);
    expect(passes(a), fmt(a)).toBe(true);
  }, 120_000);

  it('another drawing’s plot (QCAD’s flange) fails it: the threshold tells drawings apart', async () => {
    const a = await compareImages(await pdftoppm(ours, 1600), await pdftoppm(sample('pdf_qcad_flange_reference.pdf'), 1600), { k: 2, maxSide: 1400 });
    console.log(`floor plan PDF export vs the flange's plot: ${fmt(a)}`);
    expect(passes(a), fmt(a)).toBe(false);
  }, 120_000);
});
