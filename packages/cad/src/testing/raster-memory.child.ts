/**
 * Child of raster-memory.test.ts: one big PNG of the convert fixture (size from argv), written to a file, then the
 * process's peak resident memory (maxRSS) as JSON on stdout. A process of its own so the peak is this export's
 * alone, not the test runner's.
 */
import { writeFileSync } from 'node:fs';
import { parseDxf } from '../dxf/reader.ts';
import { convertFixtureDxf } from './convert-fixture.ts';
import { convertDrawing } from '../convert/index.ts';

const [out, w, h, format = 'png', background = 'white'] = process.argv.slice(2);
const d = parseDxf(convertFixtureDxf());
const before = process.resourceUsage().maxRSS;
const r = await convertDrawing(d, format as 'png', { width: Number(w), height: Number(h), background: background as 'white' });
writeFileSync(out, r.bytes);
process.stdout.write(JSON.stringify({ bytes: r.bytes.length, startMb: Math.round(before / 1024), peakMb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n');
