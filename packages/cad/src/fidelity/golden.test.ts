/**
 * Golden images: every sample drawing's model space (PAPER: its sheet, for a drawing made there; texts by the
 * text engine with the bundled fonts, circles, arcs and ellipses as exact curves drawn by the renderer)
 * rendered to a 512 px PNG and compared with the
 * committed image in golden/ (our own output, reviewed by eye once), with the fidelity metric (ink within
 * 2 px, image-metric.ts). A change that moves, loses or adds geometry fails here; `UPDATE_GOLDEN=1`
 * rewrites the images after a deliberate change — look at them before committing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readDrawing } from '../open.ts';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { flattenModelSpace } from '../geometry/flatten.ts';
import { flattenLayout } from '../geometry/layout.ts';
import { CadError } from '../model/drawing.ts';
import { renderPng } from '../render/png.ts';
import { loadFonts, textGeometry } from '../text/index.ts';
import { compareImages, decodeImage, inkBox, inkMask } from './image-metric.ts';
import { haveSamples, sample, sampleNames, samplesDir } from './samples.ts';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const update = process.env.UPDATE_GOLDEN === '1';
// the same render scores 1.000; a few pixels of drift stay above, a lost or moved entity of any size does not
const T = { precision: 0.97, recall: 0.97 };
/** Files no reader opens yet (the known gaps of dwg-reader.test.ts): they must fail with the spec's message */
const UNREADABLE = new Set<string>([]);
/** Drawings made on the sheet (model space empty): their golden is that paper layout */
const PAPER: Record<string, string> = { 'dwg_r11_libredwg_ACEB10.dwg': 'Layout1' };

const names = sampleNames(/\.(dxf|dwg)$/i);
if (!haveSamples) console.warn(`no samples in ${samplesDir}: the golden image tests are skipped`);

describe.skipIf(!haveSamples)('golden images of every sample drawing (512 px, model space)', () => {
  afterAll(() => stopDwgWorker());

  it.each(names)('%s', async (name) => {
    let png: Buffer;
    try {
      const d = await readDrawing(readFileSync(sample(name)), name, { timeoutMs: 60_000 });
      const fonts = await loadFonts(d, async () => null); // the bundled fonts: the drawings' own are not public
      const text = (r: Parameters<typeof textGeometry>[0]) => textGeometry(r, d, fonts);
      const flat = PAPER[name] ? flattenLayout(d, PAPER[name], { curves: true }) : flattenModelSpace(d, { curves: true });
      expect(flat, `${name}: layout ${PAPER[name]}`).toBeTruthy();
      png = await sharp(renderPng(flat!, { width: 512, text })).png({ palette: true, colours: 64, compressionLevel: 9 }).toBuffer();
    } catch (e) {
      if (e instanceof CadError && UNREADABLE.has(name)) {
        expect(e.message).toBe('The drawing analysis failed!');
        return;
      }
      throw e;
    }
    const file = path.join(GOLDEN, `${name}.png`);
    if (update || !existsSync(file)) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, png);
      if (!update) throw new Error(`no golden for ${name}: written ${file}; look at it, then commit it`);
      return;
    }
    const ours = await decodeImage(png);
    const golden = await decodeImage(readFileSync(file));
    const blank = (img: typeof ours) => inkBox(inkMask(img)) === null;
    if (blank(golden) || blank(ours)) {
      expect(blank(ours), 'one of the images is blank').toBe(blank(golden));
      return;
    }
    const a = await compareImages(ours, golden, { k: 2, maxSide: 512 });
    expect(a.precision >= T.precision && a.recall >= T.recall, `precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)}`).toBe(true);
  }, 90_000);
});
