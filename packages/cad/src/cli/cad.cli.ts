/**
 * `npm run cad -- info <file>`: JSON facts about a drawing. A corrupt file exits 1 with the message.
 * (Rendering to PNG/SVG/PDF arrives with the renderers.)
 */
import { readFileSync } from 'node:fs';
import { parseDxf } from '../dxf/reader.ts';
import { drawingInfo } from '../info.ts';
import { CadError } from '../model/drawing.ts';

const [command, file] = process.argv.slice(2);
const usage = 'usage: npm run cad -- info <file.dxf>';

try {
  if (command !== 'info' || !file) {
    console.error(usage);
    process.exit(2);
  }
  if (!/\.dxf$/i.test(file)) throw new CadError('cad.parseFailed', 'The drawing analysis failed!', 'only DXF is read so far (DWG arrives with the DWG reader)');
  const info = drawingInfo(parseDxf(readFileSync(file)));
  console.log(JSON.stringify(info, null, 2));
} catch (e) {
  if (e instanceof CadError) {
    console.error(`${e.message}${e.detail ? ` (${e.detail})` : ''}`);
    process.exit(1);
  }
  console.error((e as Error).message);
  process.exit(1);
}
