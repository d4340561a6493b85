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
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `convert` from the built CLI runs the commands' CommonJS build (cad-main.cjs, one file with the conversion's code
// inlined) compiled from a V8 code cache beside it (require-cached.ts), as pdfkit and opentype.js are: ~24 ES module
// files were compiled and linked in every process. The other commands, and runs from the sources, import main.ts.
type Main = typeof import('./main.ts');
const cjs = import.meta.url.endsWith('.mjs') && process.argv[2] === 'convert' ? fileURLToPath(new URL('./cad-main.cjs', import.meta.url)) : '';
const codeCache = cjs && existsSync(cjs) ? await import('../require-cached.ts') : undefined;
codeCache?.enableCodeCache(fileURLToPath(new URL('./.code-cache/', import.meta.url)));
codeCache?.installEsmImport((id) => import(id));
const commands = codeCache ? (codeCache.requireCached(cjs, import.meta.url) as Main) : await import('./main.ts');
const code = await commands.main(process.argv.slice(2));
codeCache?.saveCodeCaches();
process.exit(code);
