/**
 * Fidelity against an independent renderer: every sample (model space and each paper layout) drawn by our
 * engine and by ezdxf's drawing add-on (matplotlib backend, ezdxf_render.py) at the same window and pixel
 * size, compared pixel for pixel with the metric of image-metric.ts: recall = share of ezdxf's ink pixels
 * with our ink within 2 px, precision = the reverse, F1 their harmonic mean.
 *
 * The window is our viewer's (outlier-free extents with 2 % margins), so ezdxf draws exactly the part we draw.
 * ezdxf reads DXF only: a DWG is given to it as the DXF our DWG reader makes from it (dwgToDxf, LibreDWG), with
 * every layer on as our reader reads DWG layers (dwg-reader.ts).
 *
 * Scope: CI (and a plain run) takes a sampled subset, model space only; FIDELITY_FULL=1 takes every sample and
 * every layout; FIDELITY_OUT=dir keeps both PNGs of each case. ezdxf renders are cached in the temp dir by file hash, window, size
 * and the script's hash (a DWG's also by the reader's sources). Skipped with a message
 * where the samples or python3 with ezdxf and matplotlib are absent (scripts/test.mjs installs Debian's
 * python3-ezdxf and python3-matplotlib where missing and it runs as root).
 */
import { spawnSync, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readDrawing } from '../open.ts';
import { dwgToDxf, stopDwgWorker } from '../dwg/dwg-reader.ts';
import { outlierFreeExtents } from '../geometry/extents.ts';
import { flattenLayout, layoutNames, MODEL } from '../geometry/layout.ts';
import type { Drawing } from '../model/drawing.ts';
import { renderPng } from '../render/png.ts';
import { boundsOf, framed } from '../render/prepare.ts';
import type { TextGeometry } from '../render/prepare.ts';
import { loadFonts, textGeometry } from '../text/index.ts';
import { decodeImage, inkAgreement, inkMask, type Agreement } from './image-metric.ts';
import { WRONG_RENDERS } from './wrong-renders.ts';
import { haveSamples, sample, sampleNames, samplesDir } from './samples.ts';

const PYTHON = process.env.EZDXF_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const haveEzdxf = spawnSync(PYTHON, ['-c', 'import ezdxf, matplotlib'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
const FULL = process.env.FIDELITY_FULL === '1';
const SCRIPT = path.join(import.meta.dirname, 'ezdxf_render.py');
const CACHE = path.join(tmpdir(), 'cadcloud-ezdxf-cache');
/** part of the cache key: an edited script draws again */
const SCRIPT_HASH = createHash('sha256').update(readFileSync(SCRIPT)).digest('hex');
/** ezdxf's render of one layout may take this long (pure Python); a timeout fails the case */
const EZDXF_TIMEOUT_MS = 180_000;
/** output width in pixels; k = 2 px at this size absorbs antialiasing and line-width differences */
const WIDTH = 1000;
const DEFAULT_F1 = 0.95;
/** the file whose wrong renders (wrong-renders.ts) are checked to fail the bar: asymmetric, in the CI subset */
const WRONG_RENDER_CHECK = 'dxf_ezdxf_dims_nested_blocks.dxf';
/** FIDELITY_OUT=dir: both renders of every case are written there, to look at by eye */
const OUT = process.env.FIDELITY_OUT;
if (OUT) mkdirSync(OUT, { recursive: true });

/**
 * The CI subset: model space of six samples that render in seconds in both engines and hold between them lines,
 * arcs, splines, hatches (patterns and solids), dimensions in nested blocks, SHX and TrueType texts, true colours
 * and two DWG read through LibreDWG. All but the flange (a listed exception) reach DEFAULT_F1.
 */
const CI_SUBSET = [
  'dxf_qcad_flange.dxf',
  'dxf_ezdxf_hatches.dxf',
  'dxf_ezdxf_dims_nested_blocks.dxf',
  'dxf_ezdxf_text_shx_font.dxf',
  'dwg_2000_acadsharp_colors.dwg',
  'dwg_2018_acadsharp_hatch_pattern.dwg',
];

interface Exception {
  /** the bar for this file/layout: what was measured, less a small margin */
  f1: number;
  /** why ezdxf's render (the reference) is wrong there, or what of ours differs and is tracked */
  reason: string;
  /** ezdxf cannot read the file at all: the case is reported and not compared */
  unreadable?: boolean;
}

/**
 * Where ezdxf 0.18 (Debian's) draws the file wrongly, the F1 bar is lowered for that file/layout only, with the
 * reason. Key: `file` (every layout) or `file|layout`. Every other file/layout must reach DEFAULT_F1.
 */
const EXCEPTIONS: Record<string, Exception> = {
  'dwg_2000_acadsharp_sample.dwg|Layout1': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2000_acadsharp_sample.dwg|Layout2': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2000_acadsharp_sample.dwg|Model': { f1: 0.89, reason: 'ezdxf 0.18 draws no multileader text frames and wraps rotated multileader text otherwise; texts in stand-in fonts differ in width' }, // measured 0.910
  'dwg_2000_acadsharp_sample.dwg|MyLayout': { f1: 0.40, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.423
  'dwg_2000_libredwg_TS1.dwg|Model': { f1: 0.90, reason: 'ezdxf draws no ACIS (the REGION and 3DSOLID squares); its fit-point SPLINE runs differently' }, // measured 0.928
  'dwg_2004_ddc_floorplan.dwg|TRN_PP_AR-5-01_V01_Korruseplaan': { f1: 0.39, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.414
  'dwg_2004_libredwg_example.dwg': { f1: 0, unreadable: true, reason: 'ezdxf cannot read the DXF LibreDWG writes of this file (its $HANDSEED is not a hexadecimal handle)' },
  'dwg_2004_libredwg_material.dwg|Layout2': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2007_libredwg_ATMOS-DC22S.dwg|Model': { f1: 0.00, reason: "ezdxf draws none of this file (empty render of LibreDWG's DXF; cause in ezdxf or in that DXF not established): a defect of ours is not excluded" }, // measured 0.000
  'dwg_2010_acadsharp_sample.dwg|Layout1': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2010_acadsharp_sample.dwg|Layout2': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2010_acadsharp_sample.dwg|Model': { f1: 0.92, reason: 'as dwg_2000_acadsharp_sample.dwg: multileader frames and text wrapping, stand-in fonts' }, // measured 0.947 (tables placed, XLINE/RAY drawn infinite by both)
  'dwg_2010_acadsharp_sample.dwg|MyLayout': { f1: 0.36, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.380
  'dwg_2013_ddc_siteplan.dwg|TRN_EP_AS-4-01_V01_Asendiplaan': { f1: 0.40, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.424
  'dwg_2018_acadsharp_mleader.dwg|Model': { f1: 0.86, reason: 'ezdxf 0.18 draws no multileader text frames and wraps rotated multileader text otherwise (issue 15 item 8: ours follows AutoCAD)' }, // measured 0.882
  'dwg_2018_acadsharp_sample.dwg|Layout1': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2018_acadsharp_sample.dwg|Layout2': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2018_acadsharp_sample.dwg|Model': { f1: 0.91, reason: 'as dwg_2000_acadsharp_sample.dwg: multileader frames and text wrapping, stand-in fonts' }, // measured 0.936 (tables placed, XLINE/RAY drawn infinite by both)
  'dwg_2018_acadsharp_sample.dwg|MyLayout': { f1: 0.42, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.447
  'dwg_2018_libredwg_dynblocks.dwg|Layout1': { f1: 0.00, reason: 'ezdxf draws nothing in this paper layout of the DXF LibreDWG writes (the layout block holds no entities for ezdxf)' }, // measured 0.000
  'dwg_2018_libredwg_dynblocks.dwg|Layout2': { f1: 0.84, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.868
  'dwg_2018_libredwg_example.dwg|Model': { f1: 0.57, reason: 'ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG’s DXF' }, // measured 0.594
  'dwg_2018_acadsharp_table.dwg|Model': { f1: 0.70, reason: "ezdxf draws the table's grid and blocks from its *T block, at the point our reader takes from the table's graphics, but none of its cell texts (LibreDWG gives no cells): its recall is 1.000" }, // measured 0.738
  'dwg_r11_libredwg_ACEB10.dwg|Layout1': { f1: 0.00, reason: 'LibreDWG writes only the header of an R11 DWG as DXF: ezdxf gets no entities (we read R11 with our own reader)' }, // measured 0.000
  'dxf_2018_acadsharp_sample_ascii.dxf|Layout1': { f1: 0.45, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.474
  'dxf_2018_acadsharp_sample_ascii.dxf|Layout2': { f1: 0.45, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.474
  'dxf_2018_acadsharp_sample_ascii.dxf|MyLayout': { f1: 0.49, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.510
  'dxf_2018_acadsharp_sample_ascii.dxf|Model': { f1: 0.88, reason: 'as dwg_2000_acadsharp_sample.dwg: multileader frames and text wrapping, stand-in fonts' }, // measured 0.906
  'dxf_dxfjs_floorplan.dxf|Layout1': { f1: 0.15, reason: "ezdxf draws all of model space unclipped; the viewports look at 1:1 at the model's origin (view centres (4.8, 4.0) and (6, 4.5), the plan spans ±700), where the plan holds only a leader's end and its arrow (style ARCHARR: block 'archarrow' × 5): ezdxf draws them unclipped past the viewport, and the arrow's layer-0 lines black where we give them the leader's layer, as AutoCAD does" }, // measured 0.170 (0.046 before the leader read its style)
  'dxf_dxfjs_floorplan.dxf|Model': { f1: 0.86, reason: "texts in different stand-in fonts (the file's fonts are absent): widths differ, the large title dominates" }, // measured 0.889
  'dxf_ezdxf_3dsolids.dxf|Model': { f1: 0.00, reason: "ezdxf draws no ACIS: empty render (we draw the solids' edges, issue 15 item 10)" }, // measured 0.000
  'dxf_ezdxf_mtext_inline_codes.dxf|Model': { f1: 0.78, reason: "MTEXT inline codes: ezdxf's stacked fractions, bold and mirrored text differ from ours (ours follows AutoCAD, issue 15 item 6); stand-in fonts" }, // measured 0.809
  'dxf_ezdxf_text_in_viewports.dxf|Layout1': { f1: 0.64, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.661
  'dxf_ezdxf_text_in_viewports.dxf|Model': { f1: 0.75, reason: 'mostly text in different stand-in fonts (TrueType styles whose fonts are absent)' }, // measured 0.770
  'dxf_ezdxf_us_map.dxf|Model': { f1: 0.79, reason: 'the map agrees; the large title is in different stand-in fonts' }, // measured 0.811
  'dxf_qcad_flange.dxf|Layout': { f1: 0.70, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.720
  'dxf_qcad_flange.dxf|Layout2': { f1: 0.67, reason: 'ezdxf 0.18 draws paper layouts without viewport contents or with model space unclipped and misplaced: only its recall (sheet entities) is meaningful' }, // measured 0.699
  'dxf_qcad_flange.dxf|Model': { f1: 0.87, reason: 'ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; hatch lines at another phase (pattern origin)' }, // measured 0.895
  'dxf_r12_libredwg_example.dxf|Model': { f1: 0.75, reason: 'ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes' }, // measured 0.771
  'dwg_2000_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
  'dwg_2007_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
  'dwg_2010_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
  'dwg_2013_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
  'dwg_r13_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
  'dwg_r14_libredwg_example.dwg|Model': { f1: 0.57, reason: "ezdxf draws SHX texts in a filled TrueType stand-in (DejaVu Sans) where we draw single strokes as AutoCAD does: glyph interiors are over 2 px from our strokes; ezdxf leaves out the RAY and the MLINE of LibreDWG's DXF" }, // measured 0.594
};

if (!haveSamples) console.warn(`no samples in ${samplesDir}: the ezdxf fidelity tests are skipped`);
else if (!haveEzdxf) console.warn(`${PYTHON} cannot import ezdxf and matplotlib: the ezdxf fidelity tests are skipped (apt-get install python3-ezdxf python3-matplotlib, or npm test as root)`);

const files = sampleNames(/\.(dxf|dwg)$/i).filter((n) => FULL || CI_SUBSET.includes(n));
const run = haveSamples && haveEzdxf;
const fmt = (a: Agreement) => `precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)} f1 ${a.f1.toFixed(3)}`;
const measured: string[] = [];

function exceptionFor(file: string, layout: string): Exception | undefined {
  return EXCEPTIONS[`${file}|${layout}`] ?? EXCEPTIONS[file];
}

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
/**
 * part of a DWG's cache key: the DXF ezdxf reads is our reader's output, which changes with the reader (a cached DXF
 * of an older reader left ezdxf drawing what the reader no longer writes)
 */
const DWG_DIR = path.join(import.meta.dirname, '../dwg');
const READER_HASH = sha(['dwg-reader.ts', 'dwg-to-dxf.child.mjs', 'dwg-database.child-lib.mjs', 'database/database-to-dxf.ts', 'database/entities.ts'].map((f) => readFileSync(path.join(DWG_DIR, f), 'latin1')).join('\n'));
const cacheKey = (file: string, bytes: Uint8Array) => (/\.dwg$/i.test(file) ? sha(`${sha(bytes)}|${READER_HASH}`) : sha(bytes));

/** The DXF ezdxf reads: the file itself, or for a DWG the DXF our reader makes (cached by the DWG's and the reader's hash). */
async function dxfFor(file: string, bytes: Buffer): Promise<{ path: string; layersOn: boolean }> {
  if (!/\.dwg$/i.test(file)) return { path: sample(file), layersOn: false };
  const out = path.join(CACHE, `${cacheKey(file, bytes)}.dxf`);
  if (!existsSync(out)) writeFileSync(out, await dwgToDxf(bytes));
  return { path: out, layersOn: true };
}

function ezdxfRender(dxf: { path: string; layersOn: boolean }, key: string, layout: string, win: number[], w: number, h: number): Promise<Buffer> {
  const out = path.join(CACHE, `${sha([SCRIPT_HASH, key, layout, ...win.map((v) => v.toPrecision(12)), w, h, dxf.layersOn].join('|'))}.png`);
  if (existsSync(out)) return Promise.resolve(readFileSync(out));
  const args = [SCRIPT, dxf.path, layout, ...win.map(String), String(w), String(h), `${out}.tmp.png`, ...(dxf.layersOn ? ['layers-on'] : [])];
  return new Promise((resolve, reject) => {
    execFile(PYTHON, args, { timeout: EZDXF_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (err, _stdout, stderr) => {
      if (err) return reject(new Error(`ezdxf could not render ${layout}: ${err.killed ? `timed out after ${EZDXF_TIMEOUT_MS} ms` : stderr.slice(-2000)}`));
      const png = readFileSync(`${out}.tmp.png`);
      writeFileSync(out, png);
      resolve(png);
    });
  });
}

async function textOf(d: Drawing): Promise<TextGeometry> {
  const fonts = await loadFonts(d, async () => null);
  return (r) => textGeometry(r, d, fonts);
}

describe.skipIf(!run)(`fidelity against ezdxf's drawing add-on (${FULL ? 'every sample and layout' : 'CI subset, model space'})`, () => {
  if (run) mkdirSync(CACHE, { recursive: true });
  afterAll(() => {
    stopDwgWorker();
    if (measured.length) console.log(`ezdxf fidelity (file | layout | precision | recall | f1 | bar):\n${measured.join('\n')}`);
  });

  for (const file of files) {
    it(`${file}: ${FULL ? 'every layout' : 'model space'} agrees with ezdxf's render`, async () => {
      const bytes = readFileSync(sample(file));
      const d = await readDrawing(bytes, file);
      const dxf = await dxfFor(file, bytes);
      const text = await textOf(d);
      const failures: string[] = [];
      for (const layout of FULL ? layoutNames(d) : [MODEL]) {
        const flat = flattenLayout(d, layout);
        const view = flat && (outlierFreeExtents(flat) ?? boundsOf(flat));
        if (!flat || !view) {
          measured.push(`${file} | ${layout} | (nothing drawn by us)`);
          continue;
        }
        // the window our PNG shows (svg.ts: framed view), so ezdxf draws the same part at the same pixel size
        const fr = framed(view);
        const height = Math.max(1, Math.round((WIDTH * fr.h) / fr.w));
        const ourPng = renderPng(flat, { width: WIDTH, text, view, background: 'light' });
        const ex = exceptionFor(file, layout);
        const rendering = ezdxfRender(dxf, cacheKey(file, bytes), layout === MODEL ? 'Model' : layout, [fr.minX, fr.minY, fr.maxX, fr.maxY], WIDTH, height);
        if (ex?.unreadable) {
          await expect(rendering, `${file} is listed as unreadable by ezdxf, but ezdxf reads it: measure it`).rejects.toThrow();
          measured.push(`${file} | ${layout} | not compared (${ex.reason})`);
          continue;
        }
        const refPng = await rendering;
        if (OUT) {
          const stem = path.join(OUT, `${file}--${layout}`.replace(/[^\w.-]+/g, '_'));
          writeFileSync(`${stem}.ours.png`, ourPng);
          writeFileSync(`${stem}.ezdxf.png`, refPng);
        }
        const ours = await decodeImage(ourPng);
        const ref = await decodeImage(refPng);
        expect([ours.width, ours.height], `${layout}: our PNG and ezdxf's differ in size`).toEqual([ref.width, ref.height]);
        const a = inkAgreement(inkMask(ours), inkMask(ref), 2);
        const bar = ex?.f1 ?? DEFAULT_F1;
        measured.push(`${file} | ${layout} | ${a.precision.toFixed(3)} | ${a.recall.toFixed(3)} | ${a.f1.toFixed(3)} | ${bar}${ex ? ` (${ex.reason})` : ''}`);
        if (!(a.f1 >= bar)) failures.push(`${layout}: ${fmt(a)} under ${bar}`);
        if (file === WRONG_RENDER_CHECK && layout === MODEL) {
          // the bar is no formality: a mirrored, rotated or half-missing render of ours fails it
          // each drawn in its own window (a mirrored drawing in the right one would score 0 for leaving it);
          // a rotated one whose window has another shape is compared at the reference's size
          for (const [name, wrong] of Object.entries(WRONG_RENDERS)) {
            const wf = wrong(flat);
            const img = await decodeImage(renderPng(wf, { width: WIDTH, text, view: outlierFreeExtents(wf) ?? boundsOf(wf) ?? view, background: 'light' }));
            const fitted = img.height === ref.height ? img : await decodeImage(await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), { raw: { width: img.width, height: img.height, channels: 4 } }).resize(ref.width, ref.height, { fit: 'fill' }).png().toBuffer());
            const w = inkAgreement(inkMask(fitted), inkMask(ref), 2);
            console.log(`  ${file} ${name}: ${fmt(w)}`);
            if (w.f1 >= bar) failures.push(`${name} render passed: ${fmt(w)}`);
          }
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
    }, FULL ? 1_200_000 : 300_000);
  }
});
