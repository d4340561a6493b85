import type { Drawing } from '../model/drawing.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { cacheLayouts, loadFonts, textBounds, textGeometry, textGlyphs, type FontBytesProvider } from '../text/index.ts';
import { bundledFonts, nodeBundledFiles } from '../text/bundled.ts';
import type { ConvertSupport } from './convert.ts';

/**
 * The text support a conversion needs, from the drawing's fonts (`provide`: the user's font library, then the
 * bundled fonts): text as geometry (pictures), as placed glyphs with blanks (PDF text), and outline glyphs of the
 * bundled fonts for the invisible text over SHX strokes. The command line and the server's jobs both build it here.
 */
export async function loadConvertText(d: Drawing, provide: FontBytesProvider): Promise<Pick<ConvertSupport, 'text' | 'textBox' | 'glyphs' | 'prepareText'>> {
  const fonts = await loadFonts(d, provide);
  // a PDF measures each text (extents) and writes it: laid out once (the characters are loaded by prepareText first)
  cacheLayouts(fonts);
  const cjk = bundledFonts(nodeBundledFiles).cjk;
  return {
    text: (run) => textGeometry(run, d, fonts),
    textBox: (run) => textBounds(run, d, fonts),
    glyphs: (run) => ({ ...textGlyphs(run, d, fonts, true), outlineFor: (ch) => cjk.outlineOf(ch) }),
    // the characters of every text drawn, read from the bundled outline fonts before the PDF is written (their files load on demand)
    prepareText: async (flat: Flattened) => {
      const chars = new Set<string>();
      // control characters (an MTEXT's line breaks) are drawn by no font: asking for them read the Korean and Latin
      // families' subsets too, whose ranges name U+0000–00FF, for nothing
      for (const t of flat.texts) for (const ch of t.text) if (ch >= ' ' && (ch < '\x7f' || ch > '\x9f')) chars.add(ch);
      if (chars.size && (await cjk.init())) await cjk.need(chars);
    },
  };
}
