/**
 * The command line's commands (cad.cli.ts starts them): parses the arguments, runs one command and returns the exit
 * code. Built twice (scripts/build.mjs): in the ES module bundle beside `cad.mjs` for `info`, `render` and `compare`,
 * and as one CommonJS file, `cad-main.cjs`, which `cad.mjs` compiles from a V8 code cache for `convert` (Node 20 has
 * no compile cache for ES modules: the conversion's ~24 module files were compiled in every process).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CadError } from '../model/drawing.ts';
import { CAD_OPTIONS, UsageError } from './usage.ts';
import { info } from './info.command.ts';
import { stopDwgReader } from '../read.ts';

// `info` on a DXF loads the DXF reader, the model and the flattening only, which are imported here. The DWG readers
// load with the first DWG (read.ts); the other commands and their renderers, text engine and compare, whose libraries
// took most of a second to load, when one of them runs (esbuild splits each into chunks of its own).
const usage = 'usage: npm run cad -- info <file.dxf|dwg> | convert <in> <out.pdf|png|jpg|bmp|dxf> [--version R12|2000|2004|2007|2010|2013|2018] [--layout NAME | --all-layouts] [--width PX] [--height PX] [--dpi N] [--paper A3] [--scale N] [--color monochrome] [--ctb FILE] [--background white|black|transparent] | render <file.dxf|dwg> <out.png|out.svg|out.pdf> [--layout NAME] [--width PX] [--dark] [--fonts DIR] [--images DIR] | compare <a> <b> [out.png|out.svg] [--layout NAME]';

/** Runs the command named in `args` (process.argv without node and the script); the process's exit code. */
export async function main(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: CAD_OPTIONS });
  const [command, file, out] = positionals;
  // the drawing commands: pdfkit and opentype.js compiled from V8 code caches beside the built bundle
  // (require-cached.ts; not when run from the sources, nor for `info`, which loads neither)
  const codeCache = command !== 'info' && !import.meta.url.endsWith('.ts') ? await import('../require-cached.ts') : undefined;
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
  return code;
}
