import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import type { Flattened } from '../geometry/flatten.ts';
import type { Bounds, RenderOptions } from './prepare.ts';
import { renderSvg } from './svg.ts';
import { BmpWriter } from './bmp-writer.ts';
import { PngStripWriter } from './png-encode.ts';

import { MAX_PICTURE_SIDE } from './picture-size.ts';

export { MAX_PICTURE_SIDE };
/** Pixels rasterised at a time: a strip of 16 M pixels is 64 MB of RGBA, whatever the picture's size (1,048 rows at 16,000 px). */
const STRIP_PIXELS = 16 * 1024 * 1024;
/**
 * A PNG over STRIP_PIXELS is drawn in smaller strips: each is drawn, copied out of the rasteriser and deflated, three
 * copies alive at once (4 M pixels: ~50 MB; 8 M peaked at 395 MB for 16,000 px square, 4 M at 283 MB). Each strip
 * parses the SVG again, so a picture that fits STRIP_PIXELS (4000 × 4000) stays one strip.
 */
const PNG_STRIP_PIXELS = 4 * 1024 * 1024;

export interface RasterOptions {
  format: 'png' | 'jpg' | 'bmp';
  width: number;
  height: number;
  /** the drawing area shown, centred (the picture's aspect decides which way it grows) */
  area: Bounds;
  background: 'white' | 'black' | 'transparent';
  text?: RenderOptions['text'];
  pictures?: RenderOptions['pictures'];
  /** JPEG quality 1–100 (default 90) */
  quality?: number;
}

/**
 * A picture of exactly width × height pixels: the layout's SVG rasterised by resvg strip by strip (each strip the
 * same SVG with its own view box), so memory stays bounded by the strip, not the picture; strips are encoded into
 * one PNG as they come (PngStripWriter) or written straight into our BMP, or joined and encoded by sharp (JPEG). Transparent backgrounds only in PNG.
 */
export async function renderRaster(f: Flattened, o: RasterOptions): Promise<Buffer> {
  const { width, height } = o;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width <= MAX_PICTURE_SIDE && height <= MAX_PICTURE_SIDE)) {
    throw new RangeError(`picture size ${width} × ${height} outside 1–${MAX_PICTURE_SIDE} px a side`);
  }
  const transparent = o.background === 'transparent' && o.format === 'png';
  const bg = o.background === 'black' ? 0x000000 : 0xffffff;
  // the whole picture's view in drawing units; each strip shows a band of it
  const view = aspectOf(o.area, width / height);
  const perRow = (view.maxY - view.minY) / height;
  // the SVG is written once for the whole picture (texts laid out, numbers formatted once: a strip's SVG differs only
  // in its root's height and view box, its stroke widths being per pixel of the same width)
  const whole = renderSvg(f, { width, height, view, exactView: true, transparent, background: o.background === 'black' ? 'dark' : 'light', backgroundColor: bg, text: o.text, pictures: o.pictures });
  const head = /^<svg [^>]*>/.exec(whole);
  if (!head) throw new Error('renderSvg wrote no <svg> root');
  const body = whole.slice(head[0].length);
  const strip = (top: number, rows: number) => {
    const bandTop = view.maxY - top * perRow;
    const root = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${rows}" viewBox="${view.minX} ${-bandTop} ${view.maxX - view.minX} ${rows * perRow}">`;
    return new Resvg(root + body, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } }).render();
  };
  const STRIP_ROWS = Math.max(64, Math.floor((o.format === 'png' && width * height > STRIP_PIXELS ? PNG_STRIP_PIXELS : STRIP_PIXELS) / width));
  const starts: number[] = [];
  for (let top = 0; top < height; top += STRIP_ROWS) starts.push(top);
  if (o.format === 'bmp') {
    const bmp = new BmpWriter(width, height);
    for (const top of starts) {
      const rows = Math.min(STRIP_ROWS, height - top);
      const img = strip(top, rows);
      bmp.writeRows(img.pixels, Math.min(rows, img.height), bg);
    }
    return bmp.bytes;
  }
  if (o.format === 'png') {
    // encoded strip by strip as drawn: one strip of pixels in memory at a time (a 16,000 px picture once joined
    // every strip's PNG in sharp and peaked at 1.4 GB)
    const png = new PngStripWriter(width, height, transparent);
    for (const top of starts) {
      const rows = Math.min(STRIP_ROWS, height - top);
      const img = strip(top, rows);
      if (img.height !== rows) throw new Error('rasteriser returned a strip of the wrong height');
      await png.writeRows(img.pixels, rows);
    }
    return png.end();
  }
  const pngs = starts.map((top) => {
    const rows = Math.min(STRIP_ROWS, height - top);
    const img = strip(top, rows);
    // resvg rounds the strip's height from its aspect: pad or cut to the rows asked for
    return img.height === rows ? img.asPng() : null;
  });
  if (pngs.some((p) => !p)) throw new Error('rasteriser returned a strip of the wrong height');
  // JPEG: joined cells are all as tall as the tallest strip, the last one padded below: the picture is the top
  // `height` rows (one libvips pipeline, read in order, so the strips are decoded as the encoder reaches them)
  const image = pngs.length === 1 ? sharp(pngs[0]!) : sharp(pngs as Buffer[], { join: { across: 1 }, sequentialRead: true, limitInputPixels: false }).extract({ left: 0, top: 0, width, height });
  return image.flatten({ background: hexColor(bg) }).jpeg({ quality: o.quality ?? 90, chromaSubsampling: '4:4:4' }).toBuffer();
}

const hexColor = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

function aspectOf(b: Bounds, aspect: number): Bounds {
  let w = Math.max(b.maxX - b.minX, 1e-9), h = Math.max(b.maxY - b.minY, 1e-9);
  if (w / h < aspect) w = h * aspect;
  else h = w / aspect;
  const cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2;
  return { minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2 };
}
