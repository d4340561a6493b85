/**
 * Every sample drawing converted (issue 17): to PDF, one page per layout, each page the size its layout's page setup
 * says, the TrueType texts extractable by a PDF reader (pdfjs) as the drawing has them, the layers as optional
 * content; to PNG, JPEG and BMP of exactly the size asked for, not blank. A few files in CI; all with
 * CONVERT_SAMPLES_FULL=1. Skipped where the samples are absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { flattenLayout, layoutNames, unplottedLayers } from '../geometry/layout.ts';
import { decodeBmp } from '../render/bmp.ts';
import { planPage } from '../render/paper.ts';
import { prepare } from '../render/prepare.ts';
import { inspectPdf, squash } from '../testing/pdf-inspect.ts';
import { convertDrawing, loadConvertText } from './index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const samplesDir = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples');
const SAMPLED = ['dxf_dxfjs_floorplan.dxf', 'dxf_ezdxf_text_shx_font.dxf', 'dxf_qcad_flange.dxf'];
const files = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => /\.(dxf|dwg)$/i.test(f) && (process.env.CONVERT_SAMPLES_FULL === '1' || SAMPLED.includes(f))) : [];

afterAll(() => stopDwgWorker());

describe.skipIf(!files.length)('sample drawings converted', () => {
  it.each(files)('%s to PDF: a page per layout at its paper size, TrueType text extractable, layers as PDF layers', async (file) => {
    const d = await readDrawing(readFileSync(path.join(samplesDir, file)), file, { timeoutMs: 60_000 });
    const support = await loadConvertText(d, async () => null);
    const pdf = await convertDrawing(d, 'pdf', { layouts: 'all' }, support);
    const names = layoutNames(d);
    expect(pdf.layouts).toEqual(names);
    const facts = await inspectPdf(pdf.bytes);
    expect(facts.pages).toHaveLength(names.length);
    expect(facts.outline).toEqual(names);
    for (const [i, name] of names.entries()) {
      const page = facts.pages[i];
      const plot = d.layouts.find((l) => l.name === name)?.plot;
      if (i > 0 && plot) {
        const turned = plot.rotation === 1 || plot.rotation === 3;
        expect(page.widthMm, `${name} width`).toBeCloseTo(turned ? plot.paperHeight : plot.paperWidth, 1);
        expect(page.heightMm, `${name} height`).toBeCloseTo(turned ? plot.paperWidth : plot.paperHeight, 1);
      }
      // each TrueType run's characters, in order, are in the page's text (those printed: on the paper's printable area)
      const flat = flattenLayout(d, name, { curves: true, hiddenLayers: unplottedLayers(d) })!;
      const plan = planPage(prepare(flat, { text: support.text }).bounds, d.layouts.find((l) => l.name === name), i === 0, d.header.units);
      const onPaper = (x: number, y: number) => {
        const [px, py] = [plan.x0 + x * plan.scale, plan.y0 + y * plan.scale];
        return px >= plan.clip.minX && px <= plan.clip.maxX && py >= plan.clip.minY && py <= plan.clip.maxY;
      };
      const text = squash(page.text);
      for (const run of flat.texts) {
        const g = support.glyphs!(run);
        const glyphs = g?.glyphs ?? [];
        if (!glyphs.length || !glyphs.every((p) => p.glyph.outline && onPaper(p.e, p.f))) continue;
        expect(text, `${name}: ${run.text}`).toContain(squash(glyphs.map((p) => p.glyph.outline!.ch).join('')));
      }
      for (const layer of new Set(flat.polylines.map((p) => p.layer))) expect(facts.layers).toContain(layer);
    }
  }, 180_000);

  it.each(files)('%s to PNG, JPEG and BMP: exact size, not blank', async (file) => {
    const d = await readDrawing(readFileSync(path.join(samplesDir, file)), file, { timeoutMs: 60_000 });
    const { text } = await loadConvertText(d, async () => null);
    for (const format of ['png', 'jpg', 'bmp'] as const) {
      const r = await convertDrawing(d, format, { width: 800, height: 600 }, { text });
      const img = format === 'bmp' ? decodeBmp(r.bytes) : await sharp(r.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true }).then(({ data, info }) => ({ width: info.width, height: info.height, data }));
      expect([img.width, img.height], format).toEqual([800, 600]);
      let ink = 0;
      for (let i = 0; i < img.data.length; i += 4) if (img.data[i] < 200 || img.data[i + 1] < 200 || img.data[i + 2] < 200) ink++;
      expect(ink, `${format} not blank`).toBeGreaterThan(100);
    }
  }, 180_000);
});
