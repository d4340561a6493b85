/**
 * `npm run cad -- info <file>`: JSON facts about a drawing.
 * `npm run cad -- render <file> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark]`: a layout
 * (model space by default; the first paper layout when model space is empty) as PNG, SVG or vector PDF, without a browser. A corrupt file exits 1 with the
 * message; a layout the drawing does not have exits 2 naming the ones it has. Texts are drawn by the text
 * engine with the drawing's fonts found in `--fonts DIR` (file names ignore case), else the bundled ones.
 * IMAGE entities show their pictures found in `--images DIR` by base name (ignoring case and the path the drawing
 * wrote); without it, or for a name not there, only their frames (listed as `picturesMissing`).
 * `npm run cad -- convert <in> <out.pdf|png|jpg|bmp|dxf> [--version R12…2018] [--layout NAME | --all-layouts] [--width PX] [--height PX] [--dpi N]
 * [--paper A3|ANSI-B|420x297] [--orientation portrait|landscape] [--scale N] [--margin MM] [--color color|monochrome|grayscale]
 * [--ctb FILE] [--background white|black|transparent] [--area minX,minY,maxX,maxY] [--fonts DIR] [--images DIR]`: the
 * engine's conversion (convertDrawing, what the server's jobs run), the target chosen by the output's extension.
 * `npm run cad -- convert <in.pdf> <out.dxf> [--pages 1,3] [--stack] [--calibrate x1,y1,x2,y2,MM]`: a PDF as a drawing,
 * each page a layout (or the pages one under another in model space with --stack), at the PDF's true scale or
 * calibrated by one known distance (two points in PDF points and their true length in mm).
 * `npm run cad -- compare <a> <b> [out.png|out.svg] [--layout NAME]`: the JSON change list from A to B, and the
 * overlay (unchanged grey, added green, removed red, modified orange over faint red) when an image is named.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stopDwgWorker } from '../dwg/dwg-reader.ts';
import { readDrawing } from '../open.ts';
import { drawingInfo } from '../info.ts';
import { CadError, type Drawing } from '../model/drawing.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { defaultLayout, flattenLayout, layoutNames } from '../geometry/layout.ts';
import type { TextGeometry } from '../render/prepare.ts';
import type { FontBytesProvider } from '../text/index.ts';
import type { ConvertOptions } from '../convert/convert.ts';
import { DXF_VERSIONS, type ConvertTarget, type DxfVersion } from '../convert/targets.ts';
import { parsePaper } from '../render/paper.ts';

// The renderers, the text engine and compare are loaded by the commands that use them: their libraries (pdfkit,
// sharp, resvg, opentype.js) took most of a second to load, which `info` would have paid on every run.
const renderers = () => Promise.all([import('../render/svg.ts'), import('../render/png.ts'), import('../render/pdf.ts')]).then(([svg, png, pdf]) => ({ ...svg, ...png, ...pdf }));

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    width: { type: 'string' },
    dark: { type: 'boolean' },
    layout: { type: 'string' },
    fonts: { type: 'string' },
    images: { type: 'string' },
    'all-layouts': { type: 'boolean' },
    height: { type: 'string' },
    dpi: { type: 'string' },
    paper: { type: 'string' },
    orientation: { type: 'string' },
    scale: { type: 'string' },
    margin: { type: 'string' },
    color: { type: 'string' },
    ctb: { type: 'string' },
    background: { type: 'string' },
    area: { type: 'string' },
    version: { type: 'string' },
    pages: { type: 'string' },
    stack: { type: 'boolean' },
    calibrate: { type: 'string' },
  },
});
const [command, file, out] = positionals;
const usage = 'usage: npm run cad -- info <file.dxf|dwg> | convert <in> <out.pdf|png|jpg|bmp|dxf> [--version R12|2000|2004|2007|2010|2013|2018] [--layout NAME | --all-layouts] [--width PX] [--height PX] [--dpi N] [--paper A3] [--scale N] [--color monochrome] [--ctb FILE] [--background white|black|transparent] | render <file.dxf|dwg> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark] [--fonts DIR] [--images DIR] | compare <a> <b> [out.png|out.svg] [--layout NAME]';

class UsageError extends Error {}

// 25 s for LibreDWG, so a file that hangs it still ends within the 30 s the spec allows
const load = (path: string) => readDrawing(readFileSync(path), path, { timeoutMs: 25_000 });

/** A layout by name (any case): model space, or a paper layout (its own entities plus model space through its viewports). */
function flattenNamed(d: Drawing, name: string = defaultLayout(d)): { layout: string; flat: Flattened } {
  const names = layoutNames(d);
  const found = names.find((n) => n.toLowerCase() === name.toLowerCase());
  // exact curves: SVG and PDF draw them as arcs, PNG at its own resolution
  const flat = found ? flattenLayout(d, found, { curves: true }) : null;
  if (!found || !flat) throw new UsageError(`layout not found: ${name} (layouts: ${names.join(', ')})`);
  return { layout: found, flat };
}

/** Files of a directory by lower-case name (fonts for --fonts, pictures for --images); none without a directory. */
function fileDirectory(dir: string | undefined): (name: string) => Promise<Buffer | null> {
  const files = new Map<string, string>();
  if (dir) for (const f of readdirSync(dir)) files.set(f.toLowerCase(), path.join(dir, f));
  return async (name) => {
    const file = files.get(name.toLowerCase());
    return file ? readFileSync(file) : null;
  };
}
/** Font files of --fonts by name; none without it (the bundled fallbacks draw). */
const fontDirectory = (dir: string | undefined): FontBytesProvider => fileDirectory(dir);

async function textOf(d: Drawing): Promise<TextGeometry> {
  const { loadFonts, textGeometry } = await import('../text/index.ts');
  const fonts = await loadFonts(d, fontDirectory(values.fonts));
  return (run) => textGeometry(run, d, fonts);
}

async function render(input: string, output: string) {
  const format = /\.(png|svg|pdf)$/i.exec(output)?.[1].toLowerCase();
  if (!format) throw new UsageError(`unknown output format: ${output} (use .png, .svg or .pdf)`);
  const width = values.width === undefined ? undefined : Number(values.width);
  if (width !== undefined && !(Number.isInteger(width) && width >= 16 && width <= 16384)) throw new UsageError(`--width must be a whole number of pixels from 16 to 16384, not ${values.width}`);
  const d = await load(input);
  const { layout, flat } = flattenNamed(d, values.layout);
  const [{ imageRefs }, { loadRenderPictures }, { renderSvg, renderPng, renderPdf }] = await Promise.all([import('../geometry/image-refs.ts'), import('../render/pictures.ts'), renderers()]);
  const refs = imageRefs(d, flat);
  const { pictures, missing } = values.images ? await loadRenderPictures(refs, fileDirectory(values.images)) : { pictures: undefined, missing: [...new Set(refs.flatMap((r) => (r.name ? [r.name] : [])))] };
  const opts = { width, background: values.dark ? ('dark' as const) : ('light' as const), text: await textOf(d), pictures };
  const bytes = format === 'svg' ? renderSvg(flat, opts) : format === 'png' ? renderPng(flat, opts) : await renderPdf(flat, { ...opts, title: input.split(/[\\/]/).pop() });
  writeFileSync(output, bytes);
  console.log(JSON.stringify({ written: output, format, layout, polylines: flat.polylines.length, curves: flat.curves?.length ?? 0, texts: flat.texts.length, notDrawn: flat.skipped, ...(missing.length ? { picturesMissing: missing } : {}) }));
}

/** Target by the output's extension: each writer adds its own here. */
const CONVERT_BY_EXT: Record<string, ConvertTarget> = { pdf: 'pdf', png: 'png', jpg: 'jpg', jpeg: 'jpg', bmp: 'bmp', dxf: 'dxf' };

const whole = (name: string, v: string | undefined, min: number, max: number) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${v}`);
  return n;
};

function convertOptions(): ConvertOptions {
  const o: ConvertOptions = {};
  if (values.version !== undefined) {
    const version = values.version.toUpperCase() as DxfVersion;
    if (!DXF_VERSIONS.includes(version)) throw new UsageError(`--version must be one of ${DXF_VERSIONS.join(', ')}, not ${values.version}`);
    o.version = version;
  }
  if (values['all-layouts']) o.layouts = 'all';
  else if (values.layout) o.layouts = [values.layout];
  o.width = whole('width', values.width, 1, 16000);
  o.height = whole('height', values.height, 1, 16000);
  o.dpi = whole('dpi', values.dpi, 10, 2400);
  if (values.paper) {
    const paper = parsePaper(values.paper);
    if (!paper) throw new UsageError(`unknown paper: ${values.paper} (A0–A4, ANSI-A–ANSI-E, fit, or WIDTHxHEIGHT in mm)`);
    o.paper = paper;
  }
  if (values.orientation) {
    if (!['portrait', 'landscape', 'auto'].includes(values.orientation)) throw new UsageError('--orientation must be portrait, landscape or auto');
    o.orientation = values.orientation as ConvertOptions['orientation'];
  }
  if (values.scale && values.scale !== 'fit') {
    const n = Number(values.scale.replace(/^1:/, ''));
    if (!(n > 0)) throw new UsageError(`--scale must be fit or N (for 1:N), not ${values.scale}`);
    o.scale = n;
  }
  if (values.margin !== undefined) o.margin = Number(values.margin);
  if (values.color) {
    if (!['color', 'monochrome', 'grayscale'].includes(values.color)) throw new UsageError('--color must be color, monochrome or grayscale');
    o.colorMode = values.color as ConvertOptions['colorMode'];
  }
  if (values.ctb) o.plotStyleTable = readFileSync(values.ctb);
  if (values.background) {
    if (!['white', 'black', 'transparent'].includes(values.background)) throw new UsageError('--background must be white, black or transparent');
    o.background = values.background as ConvertOptions['background'];
  }
  if (values.area) {
    const [minX, minY, maxX, maxY] = values.area.split(',').map(Number);
    if (![minX, minY, maxX, maxY].every(Number.isFinite) || !(maxX > minX && maxY > minY)) throw new UsageError('--area must be minX,minY,maxX,maxY in drawing units');
    o.area = { minX, minY, maxX, maxY };
  }
  return o;
}

/** --pages, --stack, --calibrate: how a PDF source becomes a drawing. */
function pdfOptions() {
  const pages = values.pages?.split(',').map((p) => Number(p.trim()));
  if (pages && !pages.every((n) => Number.isInteger(n) && n >= 1)) throw new UsageError(`--pages must be page numbers like 1,3, not ${values.pages}`);
  let calibrate;
  if (values.calibrate) {
    const v = values.calibrate.split(',').map(Number);
    if (v.length !== 5 || !v.every(Number.isFinite) || !(v[4] > 0)) throw new UsageError('--calibrate must be x1,y1,x2,y2,MM: two points in PDF points and their true distance in mm');
    calibrate = { from: [v[0], v[1]] as [number, number], to: [v[2], v[3]] as [number, number], mm: v[4] };
  }
  return { pages, stack: values.stack, calibrate };
}

/** `convert`: the same convertDrawing the server's conversion jobs call. */
async function convert(input: string, output: string) {
  const ext = /\.([a-z]+)$/i.exec(output)?.[1].toLowerCase() ?? '';
  const target = CONVERT_BY_EXT[ext];
  if (!target) throw new UsageError(`unknown output format: ${output} (use ${Object.keys(CONVERT_BY_EXT).map((e) => `.${e}`).join(', ')})`);
  const o = convertOptions();
  const images = values.images;
  const started = performance.now();
  const [{ convertDrawing, loadConvertText, readConvertSource }, { imageRefs }, { loadRenderPictures }] = await Promise.all([import('../convert/index.ts'), import('../geometry/image-refs.ts'), import('../render/pictures.ts')]);
  const d = await readConvertSource(readFileSync(input), input, target, { timeoutMs: 25_000, pdf: pdfOptions() }).catch((e) => {
    if (e instanceof CadError && e.code === 'cad.targetUnavailable') throw new UsageError(e.message);
    throw e;
  });
  const result = await convertDrawing(d, target, o, {
    ...(await loadConvertText(d, fontDirectory(values.fonts))),
    loadPictures: images ? async (flat) => (await loadRenderPictures(imageRefs(d, flat), fileDirectory(images))).pictures : undefined,
  }).catch((e) => {
    if (e instanceof CadError && e.code === 'cad.layoutNotFound') throw new UsageError(e.message);
    throw e;
  });
  writeFileSync(output, result.bytes);
  console.log(JSON.stringify({ written: output, target, ...(target === 'dxf' ? { version: o.version ?? '2018' } : {}), layouts: result.layouts, bytes: result.bytes.length, ms: Math.round(performance.now() - started) }));
}

async function compare(fileA: string, fileB: string, image?: string) {
  const format = image && /\.(png|svg)$/i.exec(image)?.[1].toLowerCase();
  if (image && !format) throw new UsageError(`unknown output format: ${image} (use .png or .svg)`);
  const a = await load(fileA), b = await load(fileB);
  const [{ compareDetailed }, { overlayFlattened }] = await Promise.all([import('../compare/compare.ts'), import('../compare/overlay.ts')]);
  const c = compareDetailed(a, b, { layout: values.layout });
  if (image) {
    const { renderSvg, renderPng } = await renderers();
    const flat = overlayFlattened(c);
    // texts through each side's own fonts, in their state's colour
    const base = c.flatB.entities.length;
    const [ta, tb] = [await textOf(a), await textOf(b)];
    const text: TextGeometry = (run) => {
      const g = run.entity >= base ? ta(run) : tb(run);
      return g && { strokes: g.strokes, triangles: g.triangles };
    };
    const opts = { width: values.width === undefined ? undefined : Number(values.width), background: 'dark' as const, text };
    writeFileSync(image, format === 'svg' ? renderSvg(flat, opts) : renderPng(flat, opts));
  }
  console.log(JSON.stringify({ layout: c.layout, counts: c.counts, changes: c.changes }, null, 2));
}

let code = 0;
try {
  if (command === 'info' && file) console.log(JSON.stringify(drawingInfo(await load(file)), null, 2));
  else if (command === 'render' && file && out) await render(file, out);
  else if (command === 'convert' && file && out) await convert(file, out);
  else if (command === 'compare' && file && out) await compare(file, out, positionals[3]);
  else throw new UsageError(usage);
} catch (e) {
  if (e instanceof UsageError) {
    console.error(e.message);
    code = 2;
  } else {
    console.error(e instanceof CadError ? `${e.message}${e.detail ? ` (${e.detail})` : ''}` : (e as Error).message);
    code = 1;
  }
}
stopDwgWorker();
process.exit(code);
