/**
 * The drawing commands of the command line (cad.cli.ts): `render`, `convert` and `compare`. Loaded only when one of
 * them runs, as are the renderers, the text engine and compare they use: `info` pays for none of it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDwgName, readDrawing } from '../read.ts';
import { CadError, type Drawing } from '../model/drawing.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { defaultLayout, flattenLayout, layoutNames } from '../geometry/layout.ts';
import type { TextGeometry } from '../render/prepare.ts';
import type { FontBytesProvider } from '../text/index.ts';
import type { ConvertOptions } from '../convert/convert.ts';
import { DXF_VERSIONS, type ConvertTarget, type DxfVersion } from '../convert/targets.ts';
import { parsePaper } from '../render/paper.ts';
import { DWG_TIMEOUT_MS, UsageError, type CadOptions } from './usage.ts';

// The renderers' libraries (pdfkit, sharp, resvg, opentype.js) take most of a second to load: `compare` without an
// image does without them.
const renderers = () => Promise.all([import('../render/svg.ts'), import('../render/png.ts'), import('../render/pdf.ts')]).then(([svg, png, pdf]) => ({ ...svg, ...png, ...pdf }));
// one format's renderer only: pdfkit and fontkit (the PDF writer's) took ~100–150 ms to load, which a PNG paid for nothing
const rendererFor = (format: 'png' | 'svg' | 'pdf') => (format === 'svg' ? import('../render/svg.ts') : format === 'png' ? import('../render/png.ts') : import('../render/pdf.ts'));

const load = (file: string) => readDrawing(readFileSync(file), file, { timeoutMs: DWG_TIMEOUT_MS });

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

async function textOf(d: Drawing, values: CadOptions): Promise<TextGeometry> {
  const { loadFonts, textGeometry } = await import('../text/index.ts');
  const fonts = await loadFonts(d, fontDirectory(values.fonts));
  return (run) => textGeometry(run, d, fonts);
}

export async function render(values: CadOptions, input: string, output: string) {
  const format = /\.(png|svg|pdf)$/i.exec(output)?.[1].toLowerCase() as 'png' | 'svg' | 'pdf' | undefined;
  if (!format) throw new UsageError(`unknown output format: ${output} (use .png, .svg or .pdf)`);
  const width = values.width === undefined ? undefined : Number(values.width);
  if (width !== undefined && !(Number.isInteger(width) && width >= 16 && width <= 16384)) throw new UsageError(`--width must be a whole number of pixels from 16 to 16384, not ${values.width}`);
  // the modules the command needs (and, for a DWG, the bundled fonts most drawings need) load while the drawing is
  // read: a DWG is read in LibreDWG's own process, where this one only waits
  const modules = Promise.all([import('../geometry/image-refs.ts'), import('../render/pictures.ts'), rendererFor(format), import('../text/index.ts').then(async (t) => (isDwgName(input) ? await t.prewarmBundledFonts().catch(() => undefined) : undefined, t))]);
  modules.catch(() => undefined); // a failed read is reported first; the modules' error, if any, below
  const d = await load(input);
  const { layout, flat } = flattenNamed(d, values.layout);
  const [{ imageRefs }, { loadRenderPictures }, draw] = await modules;
  const refs = imageRefs(d, flat);
  const { pictures, missing } = values.images ? await loadRenderPictures(refs, fileDirectory(values.images)) : { pictures: undefined, missing: [...new Set(refs.flatMap((r) => (r.name ? [r.name] : [])))] };
  const opts = { width, background: values.dark ? ('dark' as const) : ('light' as const), text: await textOf(d, values), pictures };
  const bytes = 'renderPdf' in draw ? await draw.renderPdf(flat, { ...opts, title: input.split(/[\\/]/).pop() }) : 'renderPng' in draw ? draw.renderPng(flat, opts) : draw.renderSvg(flat, opts);
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

function convertOptions(values: CadOptions): ConvertOptions {
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

/** --pages, --stack, --calibrate, --scale: how a PDF source becomes a drawing. */
function pdfOptions(values: CadOptions) {
  const pages = values.pages?.split(',').map((p) => Number(p.trim()));
  if (pages && !pages.every((n) => Number.isInteger(n) && n >= 1)) throw new UsageError(`--pages must be page numbers like 1,3, not ${values.pages}`);
  let calibrate;
  if (values.calibrate) {
    const v = values.calibrate.split(',').map(Number);
    if (v.length !== 5 || !v.every(Number.isFinite) || !(v[4] > 0)) throw new UsageError('--calibrate must be x1,y1,x2,y2,MM: two points in PDF points and their true distance in mm');
    calibrate = { from: [v[0], v[1]] as [number, number], to: [v[2], v[3]] as [number, number], mm: v[4] };
  }
  // --scale N (1:N), as for a PDF written: here the plot scale the PDF was printed at
  let scale;
  if (values.scale && values.scale !== 'fit') {
    scale = Number(values.scale.replace(/^1:/, ''));
    if (!(scale > 0)) throw new UsageError(`--scale must be N (for 1:N), not ${values.scale}`);
  }
  return { pages, stack: values.stack, calibrate, scale };
}

/** `convert`: the same convertDrawing the server's conversion jobs call. */
export async function convert(values: CadOptions, input: string, output: string) {
  const ext = /\.([a-z]+)$/i.exec(output)?.[1].toLowerCase() ?? '';
  const target = CONVERT_BY_EXT[ext];
  if (!target) throw new UsageError(`unknown output format: ${output} (use ${Object.keys(CONVERT_BY_EXT).map((e) => `.${e}`).join(', ')})`);
  const o = convertOptions(values);
  const images = values.images;
  const started = performance.now();
  const { convertDrawing, loadConvertText, readConvertSource } = await import('../convert/index.ts');
  const d = await readConvertSource(readFileSync(input), input, target, { timeoutMs: DWG_TIMEOUT_MS, pdf: pdfOptions(values) }).catch((e) => {
    if (e instanceof CadError && e.code === 'cad.targetUnavailable') throw new UsageError(e.message);
    throw e;
  });
  const result = await convertDrawing(d, target, o, {
    ...(await loadConvertText(d, fontDirectory(values.fonts))),
    // pictures (sharp decodes them) loaded only when --images names their folder
    loadPictures: images
      ? async (flat) => {
          const [{ imageRefs }, { loadRenderPictures }] = await Promise.all([import('../geometry/image-refs.ts'), import('../render/pictures.ts')]);
          return (await loadRenderPictures(imageRefs(d, flat), fileDirectory(images))).pictures;
        }
      : undefined,
  }).catch((e) => {
    if (e instanceof CadError && e.code === 'cad.layoutNotFound') throw new UsageError(e.message);
    throw e;
  });
  writeFileSync(output, result.bytes);
  console.log(JSON.stringify({ written: output, target, ...(target === 'dxf' ? { version: o.version ?? '2018' } : {}), layouts: result.layouts, bytes: result.bytes.length, ms: Math.round(performance.now() - started) }));
}

export async function compare(values: CadOptions, fileA: string, fileB: string, image?: string) {
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
    const [ta, tb] = [await textOf(a, values), await textOf(b, values)];
    const text: TextGeometry = (run) => {
      const g = run.entity >= base ? ta(run) : tb(run);
      return g && { strokes: g.strokes, triangles: g.triangles };
    };
    const opts = { width: values.width === undefined ? undefined : Number(values.width), background: 'dark' as const, text };
    writeFileSync(image, format === 'svg' ? renderSvg(flat, opts) : renderPng(flat, opts));
  }
  console.log(JSON.stringify({ layout: c.layout, counts: c.counts, changes: c.changes }, null, 2));
}

