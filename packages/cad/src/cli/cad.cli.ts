/**
 * `npm run cad -- info <file>`: JSON facts about a drawing.
 * `npm run cad -- render <file> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark]`: a layout
 * (model space by default; the first paper layout when model space is empty) as PNG, SVG or vector PDF, without a browser. A corrupt file exits 1 with the
 * message; a layout the drawing does not have exits 2 naming the ones it has. Texts are drawn by the text
 * engine with the drawing's fonts found in `--fonts DIR` (file names ignore case), else the bundled ones.
 * IMAGE entities show their pictures found in `--images DIR` by base name (ignoring case and the path the drawing
 * wrote); without it, or for a name not there, only their frames (listed as `picturesMissing`).
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

// The renderers, the text engine and compare are loaded by the commands that use them: their libraries (pdfkit,
// sharp, resvg, opentype.js) took most of a second to load, which `info` would have paid on every run.
const renderers = () => Promise.all([import('../render/svg.ts'), import('../render/png.ts'), import('../render/pdf.ts')]).then(([svg, png, pdf]) => ({ ...svg, ...png, ...pdf }));

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { width: { type: 'string' }, dark: { type: 'boolean' }, layout: { type: 'string' }, fonts: { type: 'string' }, images: { type: 'string' } },
});
const [command, file, out] = positionals;
const usage = 'usage: npm run cad -- info <file.dxf|dwg> | render <file.dxf|dwg> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark] [--fonts DIR] [--images DIR] | compare <a> <b> [out.png|out.svg] [--layout NAME]';

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
