import zlib, { type InputType, type ZlibOptions } from 'node:zlib';
import { requireCached } from '../require-cached.ts';
import type PDFKitDocument from 'pdfkit';
import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { framed, hex, inkColor, lineweightPt, prepare, type Batch, type RenderOptions } from './prepare.ts';
import { textAnchor } from './svg.ts';
import { curveBeziers } from '../geometry/curve.ts';
import { pictureAffine, type PictureBatch } from './picture-batches.ts';
import { planPage, type PageChoice, type PagePlan } from './paper.ts';
import { penFor, type ColorMode, type PlotStyleTable } from './plot-style.ts';
import { PdfLayers } from './pdf-layers.ts';
import { contentBytes, PdfFonts, type RunGlyphs } from './pdf-text.ts';

export type { RunGlyphs };

/**
 * The two functions pdfkit uses of @noble/hashes/utils (the document ID's hex, and joining bytes for encryption, never
 * used here): the package itself reads node:crypto's webcrypto when loaded, whose internals (~5 ms) a PDF never uses.
 */
const NOBLE_UTILS = {
  bytesToHex: (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex'),
  concatBytes: (...arrays: Uint8Array[]) => new Uint8Array(Buffer.concat(arrays)),
};

/**
 * What pdfkit requires at its top but uses only for some documents: fontkit (with its Unicode tables, ~70 ms to
 * load) to embed a font our own TrueType subsetter cannot (pdf-text.ts, pdf-ttf.ts), linebreak for its text layout
 * (the Helvetica stand-in text), png-js for pictures, the AES ciphers for encryption (never used here). Each is
 * loaded when pdfkit first uses it.
 */
const PDFKIT_ON_USE = new Set(['fontkit', 'linebreak', 'png-js', '@noble/ciphers/aes']);
// pdfkit's CommonJS build, required: its ES module build imports fontkit, linebreak and their CommonJS dependencies as
// ES modules, which node first scans for their exports (cjs-module-lexer over megabytes of tables): 40–60 ms more of
// every command-line conversion's start-up. The same version and code either way.
const PDFDocument = requireCached('pdfkit', import.meta.url, { onUse: PDFKIT_ON_USE, instead: { zlib: deflatingAt(4), '@noble/hashes/utils': NOBLE_UTILS } }) as typeof PDFKitDocument;
const MM = 72 / 25.4;


/** One page of a PDF: a layout's flattened geometry and where it goes on its paper. */
export interface PdfPage {
  /** the layout's name: the page's outline entry */
  title: string;
  flat: Flattened;
  plan: PagePlan;
  /** pictures of this flattening's IMAGEs (else `PdfOptions.pictures`) */
  pictures?: RenderOptions['pictures'];
}

export interface PdfOptions {
  /** text as placed glyphs (the text engine's textGlyphs with blanks): TrueType glyphs become real text with their font embedded (subset), stroke glyphs are drawn with invisible text over them */
  glyphs?: (run: TextRun) => RunGlyphs | null | undefined;
  /** text as geometry when `glyphs` is absent (drawn, not searchable); without either, Helvetica */
  text?: RenderOptions['text'];
  pictures?: RenderOptions['pictures'];
  /** colour (default), monochrome or grayscale */
  colorMode?: ColorMode;
  /** a CTB/STB table applied to every line and fill */
  plotStyles?: PlotStyleTable;
  /** layers as PDF optional content (default true) */
  layers?: boolean;
  /** 'light' (default, paper) or 'dark': a page filled with the viewer's dark background, white lines staying white */
  background?: 'light' | 'dark';
  title?: string;
}

/**
 * Vector PDF of layouts, one page each, on paper as their plans say: polylines in their pens' colours with
 * lineweights at their true width on paper (1/100 mm → pt; 0 prints as the thinnest pen, 0.25 pt), exact arcs as
 * Béziers, filled areas with islands even-odd, pictures embedded, texts as real text in their own (subset) fonts,
 * every piece inside its layer's optional content group, an outline entry per page. Nothing is rasterised.
 */
export async function writePdf(pages: PdfPage[], o: PdfOptions = {}): Promise<Buffer> {
  // no default font: Helvetica's metrics were read and parsed for every document, and only the stand-in text
  // without glyphs uses it (pdfText names it)
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, compress: true, font: null, info: { Title: o.title ?? 'drawing', Producer: 'CADCloud' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const layers = o.layers === false ? undefined : new PdfLayers(doc);
  const fonts = new PdfFonts(doc);
  for (const page of pages) {
    doc.addPage({ size: [page.plan.width * MM, page.plan.height * MM], margin: 0 });
    doc.outline.addItem(page.title);
    drawPage(doc, page, o, layers, fonts);
  }
  layers?.finish();
  fonts.finish();
  doc.end();
  return done;
}

/** The numbers of a path, to a hundredth of a point (3.5 µm on paper): short content streams without visible loss. */
const f2 = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};
const rgb = (c: number) => `${f2(((c >> 16) & 255) / 255)} ${f2(((c >> 8) & 255) / 255)} ${f2((c & 255) / 255)}`;

function drawPage(doc: PDFKitDocument, page: PdfPage, o: PdfOptions, layers: PdfLayers | undefined, fonts: PdfFonts) {
  const { plan, flat } = page;
  const dark = o.background === 'dark';
  const p = prepare(flat, { background: dark ? 'dark' : 'light', pictures: page.pictures ?? o.pictures, text: o.glyphs ? undefined : o.text, layers: !!layers, width: Math.max(plan.width, plan.height) * 4 });
  const k = plan.scale * MM;
  const H = plan.height * MM;
  // drawing units → PDFKit's user space (points, origin top left, y down)
  const X = (x: number) => plan.x0 * MM + x * k;
  const Y = (y: number) => H - (plan.y0 * MM + y * k);
  const mode = o.colorMode ?? 'color';
  const pen = (color: number, lw: number) => penFor(color, lw, mode, o.plotStyles);
  const c = plan.clip;
  doc.save();
  if (dark) doc.addContent(`${rgb(p.background)} rg 0 0 ${f2(plan.width * MM)} ${f2(H)} re f`);
  doc.addContent(`${f2(c.minX * MM)} ${f2(H - c.maxY * MM)} ${f2((c.maxX - c.minX) * MM)} ${f2((c.maxY - c.minY) * MM)} re W n 1 J 1 j`);
  let layer: string | undefined;
  const inLayer = (name: string | undefined) => {
    if (!layers || name === layer) return;
    if (layer !== undefined) doc.addContent('EMC');
    layer = name;
    if (name !== undefined) doc.addContent(`/OC /${layers.use(name)} BDC`);
  };
  const ring = (pts: readonly number[], close: boolean, out: string[]) => {
    out.push(`${f2(X(pts[0]))} ${f2(Y(pts[1]))} m`);
    for (let i = 2; i + 1 < pts.length; i += 2) out.push(`${f2(X(pts[i]))} ${f2(Y(pts[i + 1]))} l`);
    if (close) out.push('h');
  };
  const paint = (b: Batch) => {
    const out: string[] = [];
    if (b.kind === 'stroke') {
      const { color, lineweight } = pen(b.color, b.lineweight);
      out.push(`${rgb(color)} RG ${f2(lineweightPt(lineweight))} w`);
      for (const l of b.lines) {
        if (!l.curve) {
          ring(l.points, l.closed, out);
          continue;
        }
        // exact curves as Bézier pieces (45° each)
        const pieces = curveBeziers(l.curve);
        out.push(`${f2(X(pieces[0][0]))} ${f2(Y(pieces[0][1]))} m`);
        for (const q of pieces) out.push(`${f2(X(q[2]))} ${f2(Y(q[3]))} ${f2(X(q[4]))} ${f2(Y(q[5]))} ${f2(X(q[6]))} ${f2(Y(q[7]))} c`);
      }
      out.push('S');
    } else if (b.kind === 'fill') {
      const { color } = pen(b.color, 0);
      // a hairline outline keeps areas thinner than the pen visible, as plotters do
      out.push(`${rgb(color)} rg ${rgb(color)} RG 0.1 w`);
      for (const r of b.rings) ring(r, true, out);
      out.push('B*');
    } else if (b.kind === 'triangles') {
      const { color } = pen(b.color, 0);
      out.push(`${rgb(color)} rg`);
      for (let i = 0; i + 5 < b.triangles.length; i += 6) ring(b.triangles.slice(i, i + 6), true, out);
      out.push('f');
    }
    doc.addContent(contentBytes(out));
  };
  for (const b of p.batches) {
    inLayer(b.layer);
    if (b.kind === 'picture') pdfPicture(doc, b, (pts) => { const out: string[] = []; ring(pts, true, out); doc.addContent(out.join('\n')); }, [k, 0, 0, -k, X(0), Y(0)]);
    else paint(b);
  }
  for (const t of p.texts) {
    inLayer(t.layer);
    const g = o.glyphs?.(t);
    if (!g) {
      const { color } = pen(inkColor(t.color, dark), 0);
      pdfText(doc, t, X(t.x), Y(t.y), t.height * k, color);
      continue;
    }
    // strokes that are not glyphs (underlines, missing-glyph boxes) and stroke-font glyphs are drawn; outline glyphs are text
    const strokes: number[][] = [...g.strokes];
    const strokeColors: number[] = [...g.colors];
    for (const pg of g.glyphs) {
      for (const s of pg.glyph.strokes ?? []) {
        const pts: number[] = new Array(s.length);
        for (let i = 0; i < s.length; i += 2) {
          pts[i] = pg.a * s[i] + pg.c * s[i + 1] + pg.e;
          pts[i + 1] = pg.b * s[i] + pg.d * s[i + 1] + pg.f;
        }
        strokes.push(pts);
        strokeColors.push(pg.color);
      }
    }
    for (let i = 0; i < strokes.length; i++) {
      if (strokes[i].length < 4) continue;
      paint({ kind: 'stroke', color: inkColor(strokeColors[i], dark), lineweight: 0, lines: [{ points: strokes[i], closed: false }] });
    }
    fonts.showRun(g.glyphs, [k, 0, 0, -k, X(0), Y(0)], (color) => rgb(pen(inkColor(color, dark), 0).color), g.outlineFor);
  }
  inLayer(undefined);
  doc.restore();
}

/**
 * A picture placed by its pixel-to-drawing matrix composed with the page's drawing-to-points one (`page`), clipped
 * by the drawing's clip boundary when there is one (PDFKit's image() fills the 0,0–width,height box of the space).
 */
function pdfPicture(doc: PDFKitDocument, b: PictureBatch, path: (pts: readonly number[]) => void, page: [number, number, number, number, number, number]) {
  doc.save();
  if (b.clip) {
    path(b.clip);
    doc.clip();
  }
  const [a, bb, c, d, e, f] = pictureAffine(b);
  const [pa, , , pd, pe, pf] = page;
  doc.transform(pa * a, pd * bb, pa * c, pd * d, pa * e + pe, pd * f + pf);
  doc.image(b.picture.png, 0, 0, { width: b.picture.width, height: b.picture.height });
  doc.restore();
}

/** Placeholder text in Helvetica (the standard font every PDF reader has), aligned like the run. */
function pdfText(doc: PDFKitDocument, t: TextRun, px: number, py: number, capHeight: number, color: number) {
  if (!(capHeight > 0.2)) return; // below 0.2 pt nothing is readable
  const size = capHeight * 1.39; // Helvetica's cap height is 0.718 em
  const { anchor, row } = textAnchor(t);
  // standard fonts are WinAnsi: anything else would print as garbage
  const lines = t.text.split('\n').map((l) => l.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'));
  const lead = capHeight * 1.4;
  const first = row === 'top' ? capHeight : row === 'middle' ? capHeight / 2 - ((lines.length - 1) * lead) / 2 : -(lines.length - 1) * lead;
  doc.save();
  if (t.rotation) doc.rotate(-t.rotation, { origin: [px, py] });
  doc.font('Helvetica').fontSize(size).fillColor(hex(color));
  lines.forEach((l, i) => {
    const w = doc.widthOfString(l);
    const dx = anchor === 'middle' ? -w / 2 : anchor === 'end' ? -w : 0;
    doc.text(l, px + dx, py + first + i * lead, { lineBreak: false, baseline: 'alphabetic' });
  });
  doc.restore();
}

/**
 * One flattened layout as a one-page PDF on a chosen paper (the `render` command's PDF): the page plan from the
 * drawing's extents and `paper`, then writePdf.
 */
export async function renderPdf(f: Flattened, opts: PdfOptions & { paper?: PageChoice['paper']; margin?: number; view?: RenderOptions['view'] } = {}): Promise<Buffer> {
  const p = prepare(f, { text: opts.text, view: opts.view });
  // the drawing with a 2 % border, so lines on its edge keep their full width
  const plan = planPage(framed(p.bounds), undefined, true, 4, { paper: opts.paper, margin: opts.margin });
  return writePdf([{ title: opts.title ?? 'drawing', flat: f, plan }], opts);
}

/**
 * node's zlib for pdfkit, its streams deflated at `level`: pdfkit deflates at zlib's default (6), which took ~8 ms of
 * a cold floor-plan PDF for 51.3 KB of streams; level 4 takes ~2 ms for 53.5 KB (+4 %).
 */
function deflatingAt(level: number): typeof zlib {
  return { ...zlib, deflateSync: (data: InputType, o?: ZlibOptions) => zlib.deflateSync(data, { level, ...o }) } as typeof zlib;
}
