import sharp from 'sharp';
import type { ImageRef } from '../geometry/image-refs.ts';
import type { ImageAdjust } from '../geometry/image-adjust.ts';
import { adjustLinear } from '../scene/images.ts';
import { decodeBmp } from './bmp.ts';

/** A picture ready to paint: PNG bytes (what SVG, the PNG painter and PDF all embed) and its size in pixels. */
export interface RenderPicture {
  png: Buffer;
  width: number;
  height: number;
}

/** Pictures to paint, by the image's index in `Flattened.images` (`ImageRef.index`); an image without one keeps only its frame. */
export type RenderPictures = Map<number, RenderPicture>;

/** The bytes of a picture file an IMAGE names, or null when there is none (by base name: `name`; as written: `file`). */
export type PictureLookup = (name: string, file: string) => Promise<Uint8Array | null>;

export interface PictureOptions {
  /** longest side in pixels after loading (pictures are scaled down, never up); default 2048 */
  maxSide?: number;
  /** pictures above this many pixels are refused before decoding (decompression bombs); default 100 M */
  maxPixels?: number;
}

/**
 * Any picture file a drive holds (PNG, JPEG, GIF, WebP, TIFF through sharp; BMP, which libvips does not read,
 * through our decoder) as PNG, scaled to fit `maxSide`, with an IMAGE's brightness, contrast and fade applied
 * to its pixels, so every renderer paints the same thing without filters of its own.
 */
export async function pictureToPng(bytes: Uint8Array, o: PictureOptions & { adjust?: ImageAdjust } = {}): Promise<RenderPicture> {
  const maxPixels = o.maxPixels ?? 100_000_000;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let img: ReturnType<typeof sharp>;
  if (buf[0] === 0x42 && buf[1] === 0x4d) {
    const d = decodeBmp(buf, Math.min(maxPixels, 25_000_000));
    img = sharp(d.data, { raw: { width: d.width, height: d.height, channels: 4 } });
  } else img = sharp(buf, { limitInputPixels: maxPixels, failOn: 'error' });
  const side = o.maxSide ?? 2048;
  img = img.resize(side, side, { fit: 'inside', withoutEnlargement: true });
  if (!o.adjust) {
    const { data, info } = await img.png().toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  }
  // sharp orders its operations itself (linear would run before the alpha band exists): adjust the RGBA pixels here
  const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { slope, intercept, opacity } = adjustLinear(o.adjust);
  const add = intercept * 255;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = Math.max(0, Math.min(255, Math.round(data[i] * slope + add)));
    data[i + 1] = Math.max(0, Math.min(255, Math.round(data[i + 1] * slope + add)));
    data[i + 2] = Math.max(0, Math.min(255, Math.round(data[i + 2] * slope + add)));
    data[i + 3] = Math.round(data[i + 3] * opacity);
  }
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).png().toBuffer();
  return { png, width: info.width, height: info.height };
}

/**
 * The pictures of a layout's IMAGEs, looked up by name (each file read and converted once, whatever the number of
 * IMAGEs showing it). Names the lookup does not find, or whose bytes are not a picture, are listed as missing.
 */
export async function loadRenderPictures(refs: readonly ImageRef[], lookup: PictureLookup, o: PictureOptions = {}): Promise<{ pictures: RenderPictures; missing: string[] }> {
  const pictures: RenderPictures = new Map();
  const missing = new Set<string>();
  const bytesOf = new Map<string, Promise<Uint8Array | null>>();
  const converted = new Map<string, Promise<RenderPicture | null>>();
  for (const r of refs) {
    if (r.wipeout || !r.name || !r.file) continue;
    const file = r.file, name = r.name;
    const key = name.toLowerCase();
    if (!bytesOf.has(key)) bytesOf.set(key, lookup(name, file).catch(() => null));
    const convKey = `${key}\n${JSON.stringify(r.adjust ?? null)}`;
    if (!converted.has(convKey)) {
      converted.set(convKey, bytesOf.get(key)!.then((b) => (b ? pictureToPng(b, { ...o, adjust: r.adjust }).catch(() => null) : null)));
    }
    const p = await converted.get(convKey)!;
    if (p) pictures.set(r.index, p);
    else missing.add(name);
  }
  return { pictures, missing: [...missing] };
}
