import sharp from 'sharp';

/**
 * Makes one-pixel lines two pixels wide (each pixel takes the darkest of itself and its right, lower and
 * lower-right neighbours), so a drawing still reads when the 400 px image is shown in a 120 px grid cell.
 * Light background assumed (thumbnails are rendered light); fitted into size×size and written as a palette PNG.
 */
export async function thickenedPng(png: Buffer, size: number): Promise<Buffer> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).resize(size, size, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  const out = Buffer.from(data);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * c;
      const r = x + 1 < w ? o + c : o;
      const d = y + 1 < h ? o + w * c : o;
      const dr = x + 1 < w && y + 1 < h ? o + w * c + c : o;
      // the darkest neighbour as a whole pixel (by its sum), so colours stay colours
      let best = o;
      let sum = data[o] + data[o + 1] + data[o + 2];
      for (const n of [r, d, dr]) {
        const s = data[n] + data[n + 1] + data[n + 2];
        if (s < sum) {
          sum = s;
          best = n;
        }
      }
      out[o] = data[best];
      out[o + 1] = data[best + 1];
      out[o + 2] = data[best + 2];
    }
  }
  return sharp(out, { raw: { width: w, height: h, channels: c } }).png({ compressionLevel: 9, palette: true }).toBuffer();
}
