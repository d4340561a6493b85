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
 * `npm run cad -- convert <in.pdf> <out.dxf> [--pages 1,3] [--stack] [--scale N] [--calibrate x1,y1,x2,y2,MM]`: a PDF
 * as a drawing, each page a layout (or the pages one under another in model space with --stack), at the PDF's true
 * scale, the plot scale 1:N it was printed at (drawing units = PDF mm × N), or calibrated by one known distance (two
 * points in PDF points and their true length in mm).
 * `npm run cad -- compare <a> <b> [out.png|out.svg] [--layout NAME]`: the JSON change list from A to B, and the
 * overlay (unchanged grey, added green, removed red, modified orange over faint red) when an image is named.
 */
// first: V8's tiering for a short-lived process (v8-flags.ts)
import './v8-flags.ts';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CadError } from '../model/drawing.ts';
import { CAD_OPTIONS, UsageError } from './usage.ts';
import { info } from './info.command.ts';
import { stopDwgReader } from '../read.ts';

// `info` is timed from node's start (scripts/build.test.ts): on a DXF it loads the DXF reader, the model and the
// flattening only, which are imported here (one chunk fewer to load than a dynamic import). The DWG readers load
// with the first DWG (read.ts); the other commands and their renderers, text engine and compare, whose libraries took
// most of a second to load, when one of them runs (esbuild splits each into chunks of its own).
const { positionals, values } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: CAD_OPTIONS });
const [command, file, out] = positionals;
const usage = 'usage: npm run cad -- info <file.dxf|dwg> | convert <in> <out.pdf|png|jpg|bmp|dxf> [--version R12|2000|2004|2007|2010|2013|2018] [--layout NAME | --all-layouts] [--width PX] [--height PX] [--dpi N] [--paper A3] [--scale N] [--color monochrome] [--ctb FILE] [--background white|black|transparent] | render <file.dxf|dwg> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark] [--fonts DIR] [--images DIR] | compare <a> <b> [out.png|out.svg] [--layout NAME]';

// the drawing commands: pdfkit and opentype.js compiled from V8 code caches beside the built bundle
// (require-cached.ts; not when run from the sources, nor for `info`, which loads neither)
const codeCache = command !== 'info' && import.meta.url.endsWith('.mjs') ? await import('../require-cached.ts') : undefined;
codeCache?.enableCodeCache(fileURLToPath(new URL('./.code-cache/', import.meta.url)));

let code = 0;
try {
  if (command === 'info' && file) await info(file);
  else if (command === 'render' && file && out) await (await import('./draw.commands.ts')).render(values, file, out);
  else if (command === 'convert' && file && out) await (await import('./draw.commands.ts')).convert(values, file, out);
  else if (command === 'compare' && file && out) await (await import('./draw.commands.ts')).compare(values, file, out, positionals[3]);
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
await stopDwgReader();
codeCache?.saveCodeCaches();
process.exit(code);
