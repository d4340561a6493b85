import fs from 'node:fs';
import { readDrawing } from './src/open.ts';
import { convertDrawing } from './src/convert/index.ts';
const d = await readDrawing(fs.readFileSync('/tmp/plot.dxf'), 'plot.dxf');
d.entities = d.entities.filter((e) => e.type === 'HATCH' && process.argv[2] === 'h' || e.type !== 'HATCH' && process.argv[2] !== 'h');
const png = await convertDrawing(d, 'png', { width: 2000, layouts: ['Page 1'], area: { minX: 0, minY: 0, maxX: 594, maxY: 420 } }, {});
fs.writeFileSync('/tmp/part.png', png.bytes);
