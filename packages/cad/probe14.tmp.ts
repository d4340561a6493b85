import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { readDrawing } from './src/open.ts';
import { convertDrawing, loadConvertText } from './src/convert/index.ts';
import { compareImages, decodeImage, inkBox, inkMask } from './src/fidelity/image-metric.ts';
const d = await readDrawing(fs.readFileSync('/tmp/plot.dxf'), 'plot.dxf');
const support = await loadConvertText(d, async () => null);
for (const W of [1400, 2000]) {
  execFileSync('pdftoppm', ['-png', '-singlefile', '-scale-to-x', String(W), '-scale-to-y', '-1', '../../../shared/samples/pdf_ddc_floorplan_plot.pdf', '/tmp/ref' + W]);
  const ref = await decodeImage(fs.readFileSync(`/tmp/ref${W}.png`));
  const box = inkBox(inkMask(ref))!;
  const png = await convertDrawing(d, 'png', { width: Math.round(Math.max(box.width, box.height) * 1.04), layouts: ['Page 1'] }, support);
  console.log(W, await compareImages(await decodeImage(png.bytes), ref, { k: 2 }));
}
