import { createRequire } from 'node:module';
import type OpenType from 'opentype.js';
import { describe, expect, it } from 'vitest';
import { nodeBundledFiles } from '../text/bundled.ts';
import { sfntOf } from '../text/ttf.ts';
import { readTtf, TtfSubset } from './pdf-ttf.ts';

const opentype = createRequire(import.meta.url)('opentype.js') as typeof OpenType;
// fontkit (pdfkit's) reads a subset without cmap, as PDF readers do
interface FkFont {
  getGlyph(id: number): { path: { toSVG(): string }; advanceWidth: number };
  numGlyphs: number;
}
const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('fontkit') as { create(b: Buffer): FkFont };

async function bundledSfnt(file: string): Promise<ArrayBuffer> {
  return sfntOf((await nodeBundledFiles(file))!);
}

describe('TrueType subsets for PDF fonts', () => {
  it('keep each glyph used, composites with their components, renumbered in order of use', async () => {
    const sfnt = await bundledSfnt('@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff');
    const f = readTtf(sfnt)!;
    const whole = opentype.parse(sfnt);
    const text = 'Hé ÅÇ°x';
    const subset = new TtfSubset(f);
    const ids = [...text].map((ch) => {
      const gid = f.glyphForCodePoint(ch.codePointAt(0)!);
      expect(gid).toBe(whole.charToGlyphIndex(ch));
      expect(f.advanceWidth(gid)).toBe(whole.glyphs.get(gid).advanceWidth);
      return subset.includeGlyph(gid);
    });
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const part = fontkit.create(Buffer.from(subset.encode()));
    const all = fontkit.create(Buffer.from(sfnt));
    // the accented letters are composites in this font: their components came along
    expect(part.numGlyphs).toBeGreaterThan(text.length + 1);
    [...text].forEach((ch, i) => {
      const gid = whole.charToGlyphIndex(ch);
      expect(part.getGlyph(ids[i]).path.toSVG(), ch).toBe(all.getGlyph(gid).path.toSVG());
      expect(part.getGlyph(ids[i]).advanceWidth).toBe(all.getGlyph(gid).advanceWidth);
    });
    expect(f.postscriptName).toBe('NotoSans-Regular');
  });

  it('leave CFF fonts to fontkit', () => {
    const otto = new Uint8Array(64);
    new DataView(otto.buffer).setUint32(0, 0x4f54544f);
    expect(readTtf(otto.buffer)).toBeNull();
  });
});
