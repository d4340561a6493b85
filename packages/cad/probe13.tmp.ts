import fs from 'node:fs';
import sharp from 'sharp';
import { readDrawing } from './src/open.ts';
import { convertDrawing, loadConvertText } from './src/convert/index.ts';
import { decodeImage, inkMask } from './src/fidelity/image-metric.ts';
const d = await readDrawing(fs.readFileSync('/tmp/plot.dxf'), 'plot.dxf');
const { text } = await loadConvertText(d, async () => null);
const W = 1683.78 * 25.4 / 72, H = 1190.55 * 25.4 / 72;
const png = await convertDrawing(d, 'png', { width: 2000, height: 1415, layouts: ['Page 1'], area: { minX: 0, minY: 0, maxX: W, maxY: H } }, { text });
const a = inkMask(await decodeImage(png.bytes)), b = inkMask(await decodeImage(fs.readFileSync('/tmp/ref.png')));
console.log(a.width, a.height, b.width, b.height);
const out = Buffer.alloc(a.width * a.height * 3, 255);
for (let i = 0; i < a.width * a.height; i++) { const x = a.data[i], y = b.data[i]; if (x && y) out.set([0, 0, 0], i * 3); else if (x) out.set([255, 0, 0], i * 3); else if (y) out.set([0, 0, 255], i * 3); }
await sharp(out, { raw: { width: a.width, height: a.height, channels: 3 } }).png().toFile('/tmp/diff.png');
for (const [n, [l, t]] of Object.entries({ a: [1350, 1050], b: [700, 300], c: [100, 100] })) await sharp('/tmp/diff.png').extract({ left: l, top: t, width: 600, height: 350 }).toFile(`/tmp/diff_${n}.png`);
let best = [0, 0, 0];
for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) {
  let n = 0;
  for (let y = 10; y < a.height - 10; y++) for (let x = 10; x < a.width - 10; x++) if (a.data[y * a.width + x] && b.data[(y + dy) * a.width + x + dx]) n++;
  if (n > best[2]) best = [dx, dy, n];
}
let na = 0, nb = 0; for (let i = 0; i < a.data.length; i++) { na += a.data[i]; nb += b.data[i]; }
console.log('best shift', best, 'ink ours', na, 'ref', nb);
import { inkBox } from './src/fidelity/image-metric.ts';
console.log('ours', inkBox(a), 'ref', inkBox(b));
// rows/cols of ours ink outside ref ink box
const rb = inkBox(b)!;
const outside: Record<string, number> = { left: 0, right: 0, top: 0, bottom: 0 };
for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) if (a.data[y * a.width + x]) {
  if (x < rb.left) outside.left++; if (x >= rb.left + rb.width) outside.right++; if (y < rb.top) outside.top++; if (y >= rb.top + rb.height) outside.bottom++;
}
console.log(outside);
