import fs from 'node:fs';
import sharp from 'sharp';
import { decodeImage, framedInk } from './src/fidelity/image-metric.ts';
const a = await framedInk(await decodeImage(fs.readFileSync('/tmp/ours1400.png')), 1024, 711);
const b = await framedInk(await decodeImage(fs.readFileSync('/tmp/refjs.png')), 1024, 711);
const out = Buffer.alloc(a.width * a.height * 3, 255);
for (let i = 0; i < a.width * a.height; i++) { const x = a.data[i], y = b.data[i]; if (x && y) out.set([0, 0, 0], i * 3); else if (x) out.set([255, 0, 0], i * 3); else if (y) out.set([0, 0, 255], i * 3); }
await sharp(out, { raw: { width: a.width, height: a.height, channels: 3 } }).png().toFile('/tmp/fdiff.png');
await sharp('/tmp/fdiff.png').extract({ left: 300, top: 150, width: 400, height: 300 }).resize(1000).toFile('/tmp/fdiff_c.png');
