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
  /** outline fonts: the same area as closed rings filled nonzero (a rasteriser's cheaper form of the triangles) */
  rings?: number[][];
  /** outline fonts: the font file and character the glyph came from (a PDF embeds the font and writes the text) */
  outline?: { face: OutlineFace; ch: string };
}

/** One outline font file as read (a TrueType collection's face cut out, WOFF unpacked): what a PDF embeds. */
export interface OutlineFace {
  /** a standalone sfnt */
  sfnt: ArrayBuffer;
  /** the em in cap heights (glyph coordinates are in cap heights) */
  em: number;
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
