import type PDFDocument from 'pdfkit';
import type { Glyph, OutlineFace } from '../text/glyph.ts';
import type { TextGlyphs, PlacedGlyph } from '../text/layout.ts';
import { readTtf, TtfSubset, type TtfFont } from './pdf-ttf.ts';

/** A text run as the text engine places it, blanks included (so the PDF's text has its spaces). */
export type RunGlyphs = TextGlyphs & {
  /** an outline glyph for a character drawn in a stroke font (SHX), for the invisible text laid over its strokes */
  outlineFor?: (ch: string) => Pick<Glyph, 'outline'> | undefined;
};

/**
 * Content operators (ASCII) as the bytes pdfkit writes for them, a line end after each: converted natively, where
 * pdfkit converts a string one character at a time in JavaScript.
 */
export const contentBytes = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'latin1');

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
 * A TrueType font embedded by our own subsetter (pdf-ttf.ts), written as PDFKit writes its embedded fonts: fontkit is
 * loaded only for fonts this cannot read (CFF outlines).
 */
class OwnTtfFont implements EmbeddedFont {
  readonly scale: number;
  readonly font: EmbeddedFont['font'];
  readonly subset: TtfSubset;
  readonly widths: number[];
  readonly unicode: number[][] = [[0]];
  private dictionary: PDFKitRefLike | undefined;

  constructor(
    private readonly doc: PDFDocument,
    private readonly ttf: TtfFont,
    readonly id: string,
  ) {
    this.scale = 1000 / ttf.unitsPerEm;
    this.font = { unitsPerEm: ttf.unitsPerEm, glyphForCodePoint: (cp) => { const id = ttf.glyphForCodePoint(cp); return { id, advanceWidth: ttf.advanceWidth(id) }; } };
    this.subset = new TtfSubset(ttf);
    // as PDFKit: .notdef's width unscaled
    this.widths = [ttf.advanceWidth(0)];
  }

  ref() {
    return (this.dictionary ??= this.doc.ref() as unknown as PDFKitRefLike);
  }

  /** the font file, descriptor, CID font and ToUnicode map, as PDFKit's EmbeddedFont.embed writes them */
  embed() {
    if (!this.dictionary) return;
    const f = this.ttf, k = this.scale, doc = this.doc as unknown as { ref(data?: object): PDFKitRefLike };
    const fontFile = doc.ref();
    fontFile.end(Buffer.from(this.subset.encode()));
    const familyClass = f.familyClass >> 8;
    let flags = 1 << 2;
    if (f.fixedPitch) flags |= 1;
    if (1 <= familyClass && familyClass <= 7) flags |= 1 << 1;
    if (familyClass === 10) flags |= 1 << 3;
    if (f.italic) flags |= 1 << 6;
    const tag = [1, 2, 3, 4, 5, 6].map((i) => String.fromCharCode((this.id.charCodeAt(i) || 73) + 17)).join('');
    const name = `${tag}+${f.postscriptName.replaceAll(' ', '_')}`;
    const [x0, y0, x1, y1] = f.bbox;
    const descriptor = doc.ref({
      Type: 'FontDescriptor',
      FontName: name,
      Flags: flags,
      FontBBox: [x0 * k, y0 * k, x1 * k, y1 * k],
      ItalicAngle: f.italicAngle,
      Ascent: f.ascent * k,
      Descent: f.descent * k,
      CapHeight: (f.capHeight || f.ascent) * k,
      XHeight: f.xHeight * k,
      StemV: 0,
      FontFile2: fontFile,
    });
    descriptor.end();
    const descendant = doc.ref({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: name,
      CIDSystemInfo: { Registry: new String('Adobe'), Ordering: new String('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      W: [0, this.widths],
      CIDToGIDMap: 'Identity',
    });
    descendant.end();
    const cmap = doc.ref();
    cmap.end(toUnicodeCmap(this.unicode));
    this.dictionary.data = { Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: 'Identity-H', DescendantFonts: [descendant], ToUnicode: cmap };
    this.dictionary.end();
  }
}

interface PDFKitRefLike {
  data: Record<string, unknown>;
  end(data?: unknown): void;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** PDFKit's ToUnicode CMap for glyph ids 0…n−1 (bfrange arrays of 256) */
function toUnicodeCmap(unicode: number[][]): string {
  const entries = Array.from(unicode, (cps) => {
    const encoded: string[] = [];
    for (let value of cps ?? [0]) {
      if (value > 0xffff) {
        value -= 0x10000;
        encoded.push(hex4(((value >>> 10) & 0x3ff) | 0xd800));
        value = 0xdc00 | (value & 0x3ff);
      }
      encoded.push(hex4(value));
    }
    return `<${encoded.join(' ')}>`;
  });
  const ranges: string[] = [];
  for (let start = 0; start < entries.length; start += 256) {
    const end = Math.min(start + 256, entries.length);
    ranges.push(`<${hex4(start)}> <${hex4(end - 1)}> [${entries.slice(start, end).join(' ')}]`);
  }
  return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo <<
  /Registry (Adobe)
  /Ordering (UCS)
  /Supplement 0
>> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000><ffff>
endcodespacerange
${ranges.length} beginbfrange
${ranges.join('\n')}
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;
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
  private readonly own: OwnTtfFont[] = [];

  constructor(private readonly doc: PDFDocument) {}

  private embedded(face: OutlineFace): EmbeddedFont {
    let f = this.fonts.get(face);
    if (!f) {
      const ttf = readTtf(face.sfnt);
      if (ttf) {
        const d = this.doc as unknown as { _fontCount: number };
        const own = new OwnTtfFont(this.doc, ttf, `F${++d._fontCount}`);
        this.own.push(own);
        f = own;
      } else {
        this.doc.font(Buffer.from(face.sfnt));
        f = this.doc._font as EmbeddedFont;
      }
      this.fonts.set(face, f);
    }
    return f;
  }

  /** writes the fonts embedded here (PDFKit writes its own at `end`): call before the document ends */
  finish() {
    for (const f of this.own) f.embed();
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
    this.doc.addContent(contentBytes(out));
  }
}

const same = (p: PlacedGlyph, q: PlacedGlyph) => Math.abs(p.a - q.a) + Math.abs(p.b - q.b) + Math.abs(p.c - q.c) + Math.abs(p.d - q.d) <= 1e-9 * (Math.abs(p.a) + Math.abs(p.d) + 1e-300);

function num(v: number): string {
  const r = Math.round(v * 1e5) / 1e5;
  return Object.is(r, -0) ? '0' : String(r);
}
