export { loadFonts, findGlyph, mtextFontSwitches, type FontBytesProvider, type FontReport, type FontSet, type StyleFonts, type LoadFontsOptions } from './fonts.ts';
export { cacheLayouts, textGeometry, textGlyphs, textBounds, type TextGeometry, type TextGlyphs, type PlacedGlyph, type TextBox } from './layout.ts';
export { nodeBundledFiles, prewarmBundledFonts, STROKE_FALLBACK, CJK_FALLBACK, type BundledFontFiles } from './bundled.ts';
export { parseMText, parseText, type Format as TextFormat, type Item as TextItem } from './mtext.ts';
export type { Glyph, GlyphSource } from './glyph.ts';
