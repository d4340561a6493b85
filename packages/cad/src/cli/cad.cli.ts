/**
 * `npm run cad -- info <file>`: JSON facts about a drawing.
 * `npm run cad -- render <file> <out.svg> [--width PX] [--dark]`: the model space as SVG (PNG and PDF come
 * with their renderers). A corrupt file exits 1 with the message.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseDxf } from '../dxf/reader.ts';
import { parseDwg, stopDwgWorker } from '../dwg/dwg-reader.ts';
import { drawingInfo } from '../info.ts';
import { CadError } from '../model/drawing.ts';
import { flattenModelSpace } from '../geometry/flatten.ts';
import { renderSvg } from '../render/svg.ts';

const { positionals, values } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { width: { type: 'string' }, dark: { type: 'boolean' } } });
const [command, file, out] = positionals;
const usage = 'usage: npm run cad -- info <file.dxf|dwg> | render <file.dxf|dwg> <out.svg> [--width PX] [--dark]';

async function load(path: string) {
  if (/\.dwg$/i.test(path)) return parseDwg(readFileSync(path), { timeoutMs: 25_000 });
  return parseDxf(readFileSync(path));
}

try {
  if (command === 'info' && file) {
    console.log(JSON.stringify(drawingInfo(await load(file)), null, 2));
  } else if (command === 'render' && file && out) {
    if (!/\.svg$/i.test(out)) {
      console.error('only SVG output so far (PNG and PDF arrive with their renderers)');
      process.exit(2);
    }
    const flat = flattenModelSpace(await load(file));
    writeFileSync(out, renderSvg(flat, { width: values.width ? Number(values.width) : undefined, background: values.dark ? 'dark' : 'light' }));
    console.log(JSON.stringify({ written: out, polylines: flat.polylines.length, texts: flat.texts.length, notDrawn: flat.skipped }));
  } else {
    console.error(usage);
    process.exit(2);
  }
  stopDwgWorker();
} catch (e) {
  stopDwgWorker();
  if (e instanceof CadError) {
    console.error(`${e.message}${e.detail ? ` (${e.detail})` : ''}`);
    process.exit(1);
  }
  console.error((e as Error).message);
  process.exit(1);
}
