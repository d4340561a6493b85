/**
 * One cold `cad render` of a drawing to PNG, phase by phase, in a fresh process (as the CLI pays them): the code is
 * taken from the checkout named as the first argument, so cad-render.bench.ts runs the same phases on our code and on
 * a baseline copy side by side. Prints one JSON line: per phase wall and CPU milliseconds (CPU: user + system of this
 * process, GC threads included, LibreDWG's own process not), and the PNG's size and SHA-256.
 *
 *   node --import tsx bench/cad-render-phases.ts <checkout> <drawing> <widthPx>
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [root, file, widthArg] = process.argv.slice(2);
const width = Number(widthArg ?? 1600);
const from = (p: string) => import(path.join(root, 'packages/cad/src', p));

const [{ readDrawing, isDwgName }, { stopDwgWorker }, { defaultLayout, flattenLayout }, { renderPng }, { loadFonts, textGeometry, prewarmBundledFonts }] = await Promise.all([
  from('open.ts'),
  from('dwg/dwg-reader.ts'),
  from('geometry/layout.ts'),
  from('render/png.ts'),
  from('text/index.ts'),
]);

interface Timed {
  ms: number;
  cpuMs: number;
}
async function phase<T>(run: () => T | Promise<T>): Promise<Timed & { value: T }> {
  const c = process.cpuUsage(), t = performance.now();
  const value = await run();
  const ms = performance.now() - t, u = process.cpuUsage(c);
  return { value, ms, cpuMs: (u.user + u.system) / 1000 };
}

const bytes = readFileSync(file);
// as `cad render` does (where the code has it): the bundled fonts are read while LibreDWG reads the DWG in its process
const read = await phase(async () => (await Promise.all([readDrawing(bytes, path.basename(file)), isDwgName?.(file) && prewarmBundledFonts?.().catch(() => undefined)]))[0]);
stopDwgWorker();
const d = read.value;
const flatten = await phase(() => flattenLayout(d, defaultLayout(d), { curves: true }));
const fonts = await phase(() => loadFonts(d, async () => null));
// the text engine's callback, timed inside the render: raster is the render without it
const text: Timed = { ms: 0, cpuMs: 0 };
const png = await phase(() =>
  renderPng(flatten.value, {
    width,
    background: 'light',
    text: (run: unknown) => {
      const c = process.cpuUsage(), t = performance.now();
      try {
        return textGeometry(run, d, fonts.value);
      } finally {
        text.ms += performance.now() - t;
        const u = process.cpuUsage(c);
        text.cpuMs += (u.user + u.system) / 1000;
      }
    },
  }),
);
const r = (p: Timed) => ({ ms: Math.round(p.ms), cpuMs: Math.round(p.cpuMs) });
const out = png.value as Buffer;
console.log(
  JSON.stringify({
    dwgRead: r(read),
    flatten: r(flatten),
    fontLoad: r(fonts),
    text: r(text),
    raster: r({ ms: png.ms - text.ms, cpuMs: png.cpuMs - text.cpuMs }),
    pngBytes: out.length,
    pngSha256: createHash('sha256').update(out).digest('hex'),
    counts: { polylines: flatten.value.polylines.length, curves: flatten.value.curves?.length ?? 0, texts: flatten.value.texts.length },
  }),
);
process.exit(0);
