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
    // glyphs to write, then lines of them: one font, mode, colour and glyph frame, pens along one baseline
    type Item = { pg: PlacedGlyph; f: EmbeddedFont; face: OutlineFace; gid: number; advEm: number; mode: number; fill: string; along: number };
    const lines: Item[][] = [];
    let prev: Item | undefined;
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
      const it: Item = { pg, f, face, gid, advEm: fg.advanceWidth / f.font.unitsPerEm, mode: own ? 0 : 3, fill: color(pg.color), along: 0 };
      let along: number | undefined;
      // invisible text may switch subset files between letters: it is one line all the same
      if (prev && (prev.f === f || it.mode === 3) && prev.mode === it.mode && prev.fill === it.fill && same(prev.pg, pg)) {
        const det = pg.a * pg.d - pg.b * pg.c;
        const de = pg.e - prev.pg.e, df = pg.f - prev.pg.f;
        const gx = (pg.d * de - pg.c * df) / det, gy = (-pg.b * de + pg.a * df) / det;
        if (Math.abs(gy) < 1e-3 && gx > -1e-9) along = gx;
      }
      if (along === undefined) lines.push([it]);
      else {
        it.along = along;
        lines[lines.length - 1].push(it);
      }
      prev = it;
    }
    if (!lines.length) return;
    const out: string[] = ['BT'];
    let font: EmbeddedFont | undefined, mode = -1, fill = '';
    for (const line of lines) {
      const first = line[0];
      const { pg } = first;
      const em = first.face.em;
      // invisible text over stroke glyphs: the characters as one string, stretched to the width the strokes take
      let stretch = 1;
      if (first.mode === 3) {
        const drawn = line.reduce((w, it, i) => w + (i ? it.along : 0), 0) + (line[line.length - 1].pg.glyph.advance || 0);
        const own = line.reduce((w, it) => w + it.advEm * em, 0);
        if (drawn > 0 && own > 0) stretch = drawn / own;
      }
      if (first.mode !== mode) out.push(`${first.mode} Tr`);
      if (first.fill !== fill) out.push(`${first.fill} rg`);
      mode = first.mode;
      fill = first.fill;
      const m = [pa * pg.a * em * stretch, pd * pg.b * em * stretch, pa * pg.c * em, pd * pg.d * em, pa * pg.e + pe, pd * pg.f + pf];
      out.push(`${m.map(num).join(' ')} Tm`);
      let tj: string[] = [];
      const flush = () => {
        if (tj.length) out.push(`[${tj.join(' ')}] TJ`);
        tj = [];
      };
      for (const [i, it] of line.entries()) {
        if (it.f !== font) {
          flush();
          out.push(`/${it.f.id} 1 Tf`);
          font = it.f;
        }
        // real text keeps the layout's spacing exactly: TJ numbers are thousandths of an em taken off the pen position
        if (i && it.mode === 0) {
          const adj = (line[i - 1].advEm - it.along / em) * 1000;
          if (Math.abs(adj) > 0.5) tj.push(num(adj));
        }
        tj.push(`<${it.gid.toString(16).padStart(4, '0')}>`);
      }
      flush();
    }
    out.push('ET');
    this.doc.addContent(out.join('\n'));
  }
}

const same = (p: PlacedGlyph, q: PlacedGlyph) => Math.abs(p.a - q.a) + Math.abs(p.b - q.b) + Math.abs(p.c - q.c) + Math.abs(p.d - q.d) <= 1e-9 * (Math.abs(p.a) + Math.abs(p.d) + 1e-300);

function num(v: number): string {
  const r = Math.round(v * 1e5) / 1e5;
  return Object.is(r, -0) ? '0' : String(r);
}
