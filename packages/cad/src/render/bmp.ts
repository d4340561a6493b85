/**
 * A small BMP decoder (sharp/libvips reads no BMP): Windows bitmaps with 1, 4, 8 bits per pixel (palette), 16, 24
 * and 32 bits, uncompressed or with bit fields, bottom-up or top-down, into RGBA. RLE-compressed and embedded
 * JPEG/PNG bitmaps are refused with a reason; so are images above `maxPixels`, before anything is allocated.
 */
export interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

export class BmpError extends Error {}

export function decodeBmp(buf: Buffer, maxPixels = 25_000_000): Rgba {
  if (buf.length < 26 || buf[0] !== 0x42 || buf[1] !== 0x4d) throw new BmpError('not a BMP file');
  const dataOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  let width: number, rawHeight: number, bpp: number, compression = 0, colorsUsed = 0;
  if (headerSize === 12) {
    width = buf.readUInt16LE(18);
    rawHeight = buf.readInt16LE(20);
    bpp = buf.readUInt16LE(24);
  } else if (headerSize >= 40 && buf.length >= 14 + 40) {
    width = buf.readInt32LE(18);
    rawHeight = buf.readInt32LE(22);
    bpp = buf.readUInt16LE(28);
    compression = buf.readUInt32LE(30);
    colorsUsed = buf.readUInt32LE(46);
  } else throw new BmpError(`unknown BMP header (${headerSize} bytes)`);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new BmpError('BMP without pixels');
  if (width * height > maxPixels) throw new BmpError(`BMP of ${width}×${height} pixels is larger than ${maxPixels} pixels`);
  if (![0, 3, 6].includes(compression)) throw new BmpError(`BMP compression ${compression} (RLE or embedded JPEG/PNG) is not read`);
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError(`BMP with ${bpp} bits per pixel is not read`);

  // channel masks: from the header (bit fields), else the defaults of 16 (5-5-5) and 32 (8-8-8, no alpha) bits
  let masks: [number, number, number, number] | null = null;
  if (bpp === 16 || bpp === 32) {
    if (compression === 3 || compression === 6) {
      const at = headerSize >= 52 ? 14 + 40 : 14 + headerSize; // V2+ headers hold them, plain 40-byte headers are followed by them
      if (buf.length < at + 12) throw new BmpError('BMP bit fields missing');
      masks = [buf.readUInt32LE(at), buf.readUInt32LE(at + 4), buf.readUInt32LE(at + 8), compression === 6 || headerSize >= 56 ? buf.readUInt32LE(at + 12) : 0];
    } else masks = bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0];
  }

  let palette: Uint8Array | null = null;
  if (bpp <= 8) {
    const entries = colorsUsed || 1 << bpp;
    const entrySize = headerSize === 12 ? 3 : 4;
    const at = 14 + headerSize;
    if (buf.length < at + entries * entrySize) throw new BmpError('BMP palette truncated');
    palette = new Uint8Array(256 * 3);
    for (let i = 0; i < Math.min(entries, 256); i++) {
      palette[i * 3] = buf[at + i * entrySize + 2];
      palette[i * 3 + 1] = buf[at + i * entrySize + 1];
      palette[i * 3 + 2] = buf[at + i * entrySize];
    }
  }

  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (dataOffset + stride * (height - 1) + Math.ceil((width * bpp) / 8) > buf.length) throw new BmpError('BMP pixel data truncated');
  const out = Buffer.alloc(width * height * 4);
  const channel = (v: number, mask: number) => {
    if (!mask) return -1;
    const shift = 31 - Math.clz32(mask & -mask); // index of the lowest set bit
    const bits = 32 - Math.clz32(mask >>> shift);
    const raw = (v & mask) >>> shift;
    return bits >= 8 ? raw >>> (bits - 8) : Math.round((raw * 255) / ((1 << bits) - 1));
  };
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (palette) {
        const bitPos = x * bpp;
        const byte = buf[row + (bitPos >> 3)];
        const idx = bpp === 8 ? byte : (byte >> (8 - bpp - (bitPos & 7))) & ((1 << bpp) - 1);
        out[o] = palette[idx * 3];
        out[o + 1] = palette[idx * 3 + 1];
        out[o + 2] = palette[idx * 3 + 2];
        out[o + 3] = 255;
      } else if (bpp === 24) {
        const p = row + x * 3;
        out[o] = buf[p + 2];
        out[o + 1] = buf[p + 1];
        out[o + 2] = buf[p];
        out[o + 3] = 255;
      } else {
        const v = bpp === 16 ? buf.readUInt16LE(row + x * 2) : buf.readUInt32LE(row + x * 4);
        const [r, g, b, a] = masks!;
        out[o] = channel(v, r);
        out[o + 1] = channel(v, g);
        out[o + 2] = channel(v, b);
        const av = channel(v, a);
        out[o + 3] = av < 0 ? 255 : av;
        if (av > 0) anyAlpha = true;
      }
    }
  }
  // many writers leave the alpha byte of 32-bit pixels at zero: an all-transparent image is really opaque
  if (masks && masks[3] && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { width, height, data: out };
}
