import type PDFDocument from 'pdfkit';
import type { Glyph, OutlineFace } from '../text/glyph.ts';
import type { TextGlyphs, PlacedGlyph } from '../text/layout.ts';

/** A text run as the text engine places it, blanks included (so the PDF's text has its spaces). */
export type RunGlyphs = TextGlyphs & {
  /** an outline glyph for a character drawn in a stroke font (SHX), for the invisible text laid over its strokes */
  outlineFor?: (ch: string) => Glyph | undefined;
};

type Matrix = [number, number, number, number, number, number];

/** PDFKit's embedded font (fontkit underneath); only what the text writer uses. */
interface EmbeddedFont {
  id: string;
  scale: number;
  font: { unitsPerEm: number; glyphForCodePoint(cp: number): { id: number; advanceWidth: number } };
  subset: { includeGlyph(id: number): number };
  widths: number[];
  unicode: number[][];
  ref(): unknown;
}

/**
 * Texts as real PDF text: each outline font the drawing's text uses is embedded once per document as a subset
 * (PDFKit: a CID font with a ToUnicode map, so the text can be selected, searched and copied), and each run is
 * written glyph by glyph at the place the text engine laid it out, consecutive glyphs on one baseline as one TJ
 * with the layout's spacing as adjustments. Stroke-font (SHX) glyphs are drawn by the caller; their characters are
 * written over them in text render mode 3 (invisible), as AutoCAD's EPDFSHX does, so SHX text is searchable too.
 */
export class PdfFonts {
  private readonly fonts = new Map<OutlineFace, EmbeddedFont>();

  constructor(private readonly doc: PDFDocument) {}

  private embedded(face: OutlineFace): EmbeddedFont {
    let f = this.fonts.get(face);
    if (!f) {
      this.doc.font(Buffer.from(face.sfnt));
      f = this.doc._font as EmbeddedFont;
      this.fonts.set(face, f);
    }
    return f;
  }

  /** `page`: drawing units → PDFKit's user space; `color`: 0xRRGGBB → the PDF's `r g b` */
  showRun(glyphs: PlacedGlyph[], page: Matrix, color: (c: number) => string, outlineFor?: RunGlyphs['outlineFor']) {
    const [pa, , , pd, pe, pf] = page;
    const out: string[] = ['BT'];
    let font: EmbeddedFont | undefined, mode = -1, fill = '';
    let tj: string[] = [];
    let prev: { g: PlacedGlyph; em: number; advEm: number; font: EmbeddedFont; mode: number } | undefined;
    const flush = () => {
      if (tj.length) out.push(`[${tj.join(' ')}] TJ`);
      tj = [];
    };
    for (const pg of glyphs) {
      const own = pg.glyph.outline;
      const og = own ? pg.glyph : pg.ch !== undefined ? outlineFor?.(pg.ch) : undefined;
      if (!og?.outline) continue;
      const { face, ch } = og.outline;
      const f = this.embedded(face);
      const cp = ch.codePointAt(0)!;
      const fg = f.font.glyphForCodePoint(cp);
      const gid = f.subset.includeGlyph(fg.id);
      f.widths[gid] ??= fg.advanceWidth * f.scale;
      f.unicode[gid] ??= [cp];
      (this.doc.page.fonts as Record<string, unknown>)[f.id] = f.ref();
      const glyphMode = own ? 0 : 3;
      const c = color(pg.color);
      // the same line: same font, mode and colour, the same glyph frame, the pen on the previous glyph's baseline
      let along: number | undefined;
      if (prev && prev.font === f && prev.mode === glyphMode && fill === c && same(prev.g, pg)) {
        const det = pg.a * pg.d - pg.b * pg.c;
        const de = pg.e - prev.g.e, df = pg.f - prev.g.f;
        const gx = (pg.d * de - pg.c * df) / det, gy = (-pg.b * de + pg.a * df) / det;
        if (Math.abs(gy) < 1e-3 && gx > -1e-9) along = gx / face.em;
      }
      if (along === undefined) {
        flush();
        if (f !== font) out.push(`/${f.id} 1 Tf`);
        if (glyphMode !== mode) out.push(`${glyphMode} Tr`);
        if (c !== fill) out.push(`${c} rg`);
        font = f;
        mode = glyphMode;
        fill = c;
        const em = face.em;
        const m = [pa * pg.a * em, pd * pg.b * em, pa * pg.c * em, pd * pg.d * em, pa * pg.e + pe, pd * pg.f + pf];
        out.push(`${m.map(num).join(' ')} Tm`);
      } else {
        // TJ numbers are thousandths of an em taken off the pen position
        const adj = (prev!.advEm - along) * 1000;
        if (Math.abs(adj) > 0.5) tj.push(num(adj));
      }
      tj.push(`<${gid.toString(16).padStart(4, '0')}>`);
      prev = { g: pg, em: face.em, advEm: fg.advanceWidth / f.font.unitsPerEm, font: f, mode: glyphMode };
    }
    flush();
    if (out.length === 1) return;
    out.push('ET');
    this.doc.addContent(out.join('\n'));
  }
}

const same = (p: PlacedGlyph, q: PlacedGlyph) => Math.abs(p.a - q.a) + Math.abs(p.b - q.b) + Math.abs(p.c - q.c) + Math.abs(p.d - q.d) <= 1e-9 * (Math.abs(p.a) + Math.abs(p.d) + 1e-300);

function num(v: number): string {
  const r = Math.round(v * 1e5) / 1e5;
  return Object.is(r, -0) ? '0' : String(r);
}
