import fs from 'node:fs';
import { readDrawing } from './src/open.ts';
import { flattenLayout } from './src/geometry/layout.ts';
import { boundsOf } from './src/render/prepare.ts';
const d = await readDrawing(fs.readFileSync('/tmp/plot.dxf'), 'plot.dxf');
const flat = flattenLayout(d, 'Page 1', { curves: false })!;
console.log(boundsOf(flat));
const k = 25.4 / 72;
const box = { minX: 39 * k, maxX: 1646 * k, minY: 38 * k, maxY: 1154 * k };
let n = 0;
for (const p of flat.polylines) {
  for (let i = 0; i < p.points.length; i += 2) {
    const x = p.points[i], y = p.points[i + 1];
    if (x < box.minX - 1 || x > box.maxX + 1 || y < box.minY - 1 || y > box.maxY + 1) { if (n++ < 15) console.log(p.layer, p.entity, x.toFixed(1), y.toFixed(1), p.points.length / 2); break; }
  }
}
console.log('outside', n, 'page mm', 1683.78 * k, 1190.55 * k);
