import sharp from 'sharp';
import { decodeBmp } from './bmp.ts';
import { ThumbnailSkipped } from './thumbnail-skipped.ts';

/**
 * A picture fitted into size×size (never enlarged), turned upright by its EXIF orientation, as WebP.
 * sharp works off the main thread (libuv pool) and refuses decompression bombs by pixel count before decoding;
 * BMP, which libvips does not read, goes through our decoder.
 */
export async function renderPictureThumbnail(bytes: Buffer, size: number, maxPixels = 100_000_000): Promise<Buffer> {
  try {
    const input = bytes[0] === 0x42 && bytes[1] === 0x4d ? fromBmp(bytes, maxPixels) : sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' });
    return await input.rotate().resize(size, size, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  } catch (e) {
    throw new ThumbnailSkipped(`picture not readable: ${(e as Error).message}`);
  }
}

function fromBmp(bytes: Buffer, maxPixels: number) {
  // the decoded image is held whole in memory (4 bytes a pixel): keep BMP well under sharp's own limit
  const img = decodeBmp(bytes, Math.min(maxPixels, 25_000_000));
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } });
}
