import { ShxFont, ShxFontType } from '@mlightcad/shx-parser/dist/index.es.js';
import type { Glyph, GlyphSource } from './glyph.ts';
import { toDbcs, type DbcsLabel } from './dbcs.ts';

/**
 * SHX shape fonts, Unicode fonts and big fonts through @mlightcad/shx-parser. The parser scales a shape by
 * size / (above + below); AutoCAD's text height is the "above" value, so shapes are asked for at
 * (above + below) / above and come out with a cap height of 1.
 */
export class ShxGlyphSource implements GlyphSource {
  readonly kind = 'shx' as const;
  readonly descent: number;
  readonly isBigFont: boolean;
  private readonly font: ShxFont;
  private readonly unit: number;
  private readonly cache = new Map<number, Glyph | null>();

  constructor(
    readonly name: string,
    bytes: Uint8Array,
    /** the big font's code page: characters are looked up by their byte pair in it */
    private readonly codePage?: DbcsLabel,
  ) {
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    this.font = new ShxFont(buf);
    const c = this.font.fontData.content;
    this.isBigFont = this.font.fontData.header.fontType === ShxFontType.BIGFONT;
    const above = c.baseUp > 0 ? c.baseUp : c.height || 1;
    // the parser scales shape fonts without a #0 info shape by `size` itself, others by size / height
    const hasInfo = this.font.fontData.header.fontType !== ShxFontType.SHAPES || 0 in c.data;
    this.unit = hasInfo ? (c.height || above) / above : 1 / above;
    this.descent = c.baseDown > 0 ? c.baseDown / above : 0.33;
  }

  /** the code the font keys `ch` by: Unicode for shape and Unicode fonts, the code page pair for big fonts */
  codeOf(ch: string): number | undefined {
    const cp = ch.codePointAt(0)!;
    if (!this.isBigFont) return cp;
    if (cp < 0x80) return cp;
    return this.codePage ? toDbcs(this.codePage, ch) : undefined;
  }

  has(ch: string): boolean {
    const code = this.codeOf(ch);
    return code !== undefined && this.font.hasChar(code);
  }

  glyph(ch: string): Glyph | undefined {
    const code = this.codeOf(ch);
    if (code === undefined) return undefined;
    let g = this.cache.get(code);
    if (g === undefined) {
      g = null;
      if (this.font.hasChar(code)) {
        try {
          const shape = this.font.getCharShape(code, this.unit);
          if (shape) {
            const strokes = shape.polylines.filter((p) => p.length > 1).map((p) => p.flatMap((pt) => [pt.x, pt.y]));
            const box = shape.polylines.length ? shape.bbox : { maxX: 0.6 };
            // big font glyphs often end with the pen where they started: then the cell width is the advance
            const advance = shape.lastPoint && shape.lastPoint.x > 0 ? shape.lastPoint.x : this.isBigFont ? Math.max(1, box.maxX) : Math.max(0.6, box.maxX + 0.2);
            g = { advance, strokes };
          }
        } catch {
          g = null; // a malformed shape draws nothing rather than stopping the drawing
        }
      }
      this.cache.set(code, g);
    }
    return g ?? undefined;
  }
}
