/**
 * Child of convert.bench.ts: one file converted twice in one process, the second timed, as the server's conversion
 * worker (kept 30 s between jobs) runs a job after its first: modules loaded and compiled, the drawing read and
 * converted again. Prints {ms, peakMb} for `pdf` (all layouts) or `png` (4000 px wide).
 */
import { readFileSync } from 'node:fs';
import { readDrawing } from '../packages/cad/src/open.ts';
import { convertDrawing, loadConvertText } from '../packages/cad/src/convert/index.ts';
import { stopDwgWorker } from '../packages/cad/src/dwg/dwg-reader.ts';

const [file, target] = process.argv.slice(2) as [string, 'pdf' | 'png'];
const once = async () => {
  const d = await readDrawing(readFileSync(file), file, { timeoutMs: 60_000 });
  const o = target === 'pdf' ? { layouts: 'all' as const } : { width: 4000 };
  return convertDrawing(d, target, o, await loadConvertText(d, async () => null));
};
await once();
const t = performance.now();
const r = await once();
const ms = Math.round(performance.now() - t);
stopDwgWorker();
process.stdout.write(JSON.stringify({ ms, bytes: r.bytes.length, peakMb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n');
