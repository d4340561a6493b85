import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { renderDrawingThumbnail } from './render/render-drawing.ts';
import { renderPictureThumbnail } from './render/picture-thumbnail.ts';
import { stopDwgWorker } from '@cadcloud/cad';
for (const f of process.argv.slice(2)) {
  const bytes = readFileSync(f);
  for (let run = 0; run < 2; run++) {
    const t0 = Date.now();
    try {
      const r = await renderDrawingThumbnail(bytes, { size: 400, timeoutMs: 60000, memoryMb: 768 });
      const png = await sharp(r.png).resize(400, 400, { fit: 'inside', withoutEnlargement: true }).png({ compressionLevel: 9, palette: true }).toBuffer();
      const m = await sharp(png).metadata();
      console.log(`${f.split('/').pop()} (${(bytes.length / 1e6).toFixed(2)} MB) run ${run + 1}: ${Date.now() - t0} ms, ${m.width}x${m.height}, ${png.length} bytes, ${r.polylines} polylines`);
    } catch (e) { console.log(f, 'ERR', (e as Error).message); }
  }
}
const big = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#88aacc' } }).jpeg().toBuffer();
let t0 = Date.now(); const w = await renderPictureThumbnail(big, 400); console.log(`6000x4000 JPEG: ${Date.now() - t0} ms, ${w.length} bytes`);
stopDwgWorker();
