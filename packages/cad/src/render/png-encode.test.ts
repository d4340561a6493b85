import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePng } from './png-encode.ts';

describe('encodePng', () => {
  it('writes a PNG that decodes to the same pixels (an odd size, every byte value)', async () => {
    const width = 37, height = 11;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = i % 4 === 3 ? 255 : (i * 131 + (i >> 7)) & 255;
    const { data, info } = await sharp(encodePng(rgba, width, height)).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, 4]);
    expect(Buffer.compare(data, Buffer.from(rgba))).toBe(0);
  });
});
