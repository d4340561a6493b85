/**
 * One glyph in font-independent form: coordinates scaled so the font's cap height is 1 (AutoCAD's text height
 * is the height of a capital letter, for SHX and TrueType alike), origin on the baseline at the pen position.
 */
export interface Glyph {
  /** pen advance after the glyph */
  advance: number;
  /** stroke fonts: polylines x0 y0 x1 y1 … */
  strokes?: number[][];
  /** outline fonts: filled triangles x y x y x y … */
  triangles?: number[];
}

/** A parsed font as the layout uses it; `kind` decides which bundled font stands in when a character is missing. */
export interface GlyphSource {
  /** the name it was asked for (file name) or the bundled font's name */
  name: string;
  kind: 'shx' | 'ttf';
  /** depth below the baseline of descenders, in cap heights (positive) */
  descent: number;
  glyph(ch: string): Glyph | undefined;
}
