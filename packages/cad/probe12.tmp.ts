import fs from 'node:fs';
import sharp from 'sharp';
import { decodeImage, inkMask, inkBox } from './src/fidelity/image-metric.ts';
for (const n of ['ours', 'ref']) { const img = await decodeImage(fs.readFileSync(`/tmp/${n}.png`)); console.log(n, img.width, img.height, inkBox(inkMask(img))); }
