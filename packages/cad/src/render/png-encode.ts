import zlib from 'node:zlib';

/**
 * An opaque RGBA picture (straight or premultiplied: the same when every pixel is opaque, as on our pages) as
 * a PNG, RGBA 8 bit, rows unfiltered, deflated at level 3. A drawing is mostly paper and long runs of one
 * colour, which deflate finds without PNG's row filters: on the 1600 px floor plan this wrote a smaller file
 * (0.82 MB) four times faster than Skia's own encoder (1.07 MB, filters tried per row at zlib's default level).
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 4;
  if (rgba.length < stride * height) throw new RangeError(`encodePng: ${rgba.length} bytes for ${width}×${height} pixels`);
  const rows = Buffer.alloc((stride + 1) * height); // filter byte 0 (none) before each row
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows, { level: 3 })), chunk('IEND', Buffer.alloc(0))]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
