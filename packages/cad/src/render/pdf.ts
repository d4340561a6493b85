import PDFDocument from 'pdfkit';
import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { framed, hex, inkColor, lineweightPt, prepare, type RenderOptions } from './prepare.ts';
import { textAnchor } from './svg.ts';
import { curveBeziers } from '../geometry/curve.ts';
import { pictureAffine, type PictureBatch } from './picture-batches.ts';

const MM = 72 / 25.4;
/** ISO A sizes, long side × short side in mm */
const A_SIZES = { A0: [1189, 841], A1: [841, 594], A2: [594, 420], A3: [420, 297], A4: [297, 210] } as const;
export type PaperSize = keyof typeof A_SIZES;

export interface PdfOptions extends Omit<RenderOptions, 'width'> {
  /** 'fit' (default): a page of the drawing's aspect, its long side as long as A3's; or an ISO A size, landscape or portrait as the drawing is */
  paper?: 'fit' | PaperSize;
  /** margin around the drawing in mm (default 10) */
  margin?: number;
  title?: string;
}

/**
 * Vector PDF of flattened geometry: polylines in their colours with lineweights in points (1/100 mm → pt,
 * so a 0.50 mm line prints 0.5 mm wide whatever the scale), filled areas with islands even-odd, one page
 * sized to the drawing. Texts are the text engine's geometry when `opts.text` is given, else Helvetica.
 */
export async function renderPdf(f: Flattened, opts: PdfOptions = {}): Promise<Buffer> {
  const p = prepare(f, opts);
  const fr = framed(p.bounds);
  const margin = (opts.margin ?? 10) * MM;
  const landscape = fr.w >= fr.h;
  let pageW: number, pageH: number;
  if (opts.paper && opts.paper !== 'fit') {
    const [long, short] = A_SIZES[opts.paper];
    [pageW, pageH] = landscape ? [long * MM, short * MM] : [short * MM, long * MM];
  } else {
    const long = A_SIZES.A3[0] * MM;
    [pageW, pageH] = landscape ? [long, Math.max(2 * margin + 1, ((long - 2 * margin) * fr.h) / fr.w + 2 * margin)] : [Math.max(2 * margin + 1, ((long - 2 * margin) * fr.w) / fr.h + 2 * margin), long];
  }
  const s = Math.min((pageW - 2 * margin) / fr.w, (pageH - 2 * margin) / fr.h);
  const ox = (pageW - fr.w * s) / 2, oy = (pageH - fr.h * s) / 2;
  // drawing units → page points (PDFKit's origin is the top left, y down)
  const X = (x: number) => ox + (x - fr.minX) * s;
  const Y = (y: number) => oy + (fr.maxY - y) * s;

  const doc = new PDFDocument({ size: [pageW, pageH], margin: 0, compress: true, info: { Title: opts.title ?? 'drawing', Producer: 'CADCloud' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.rect(0, 0, pageW, pageH).fill(hex(p.background));
  doc.lineCap('round').lineJoin('round');
  const path = (pts: readonly number[], close: boolean) => {
    doc.moveTo(X(pts[0]), Y(pts[1]));
    for (let i = 2; i + 1 < pts.length; i += 2) doc.lineTo(X(pts[i]), Y(pts[i + 1]));
    if (close) doc.closePath();
  };
  for (const b of p.batches) {
    if (b.kind === 'picture') {
      pdfPicture(doc, b, path, [s, 0, 0, -s, X(0), Y(0)]);
    } else if (b.kind === 'stroke') {
      for (const l of b.lines) {
        if (!l.curve) {
          path(l.points, l.closed);
          continue;
        }
        // exact curves as Bézier pieces (45° each)
        const pieces = curveBeziers(l.curve);
        doc.moveTo(X(pieces[0][0]), Y(pieces[0][1]));
        for (const q of pieces) doc.bezierCurveTo(X(q[2]), Y(q[3]), X(q[4]), Y(q[5]), X(q[6]), Y(q[7]));
      }
      doc.lineWidth(lineweightPt(b.lineweight)).stroke(hex(b.color));
    } else if (b.kind === 'fill') {
      for (const r of b.rings) path(r, true);
      doc.lineWidth(0.1).fillAndStroke(hex(b.color), hex(b.color), 'even-odd');
    } else {
      for (let i = 0; i + 5 < b.triangles.length; i += 6) path(b.triangles.slice(i, i + 6), true);
      doc.fill(hex(b.color), 'non-zero');
    }
  }
  for (const t of p.texts) pdfText(doc, t, X(t.x), Y(t.y), t.height * s, inkColor(t.color, p.dark));
  doc.end();
  return done;
}

/**
 * A picture placed by its pixel-to-drawing matrix composed with the page's drawing-to-points one (`page`), clipped
 * by the drawing's clip boundary when there is one (PDFKit's image() fills the 0,0–width,height box of the space).
 */
function pdfPicture(doc: PDFDocument, b: PictureBatch, path: (pts: readonly number[], close: boolean) => void, page: [number, number, number, number, number, number]) {
  doc.save();
  if (b.clip) {
    path(b.clip, true);
    doc.clip();
  }
  const [a, bb, c, d, e, f] = pictureAffine(b);
  const [pa, , , pd, pe, pf] = page;
  doc.transform(pa * a, pd * bb, pa * c, pd * d, pa * e + pe, pd * f + pf);
  doc.image(b.picture.png, 0, 0, { width: b.picture.width, height: b.picture.height });
  doc.restore();
}

/** Placeholder text in Helvetica (the standard font every PDF reader has), aligned like the run. */
function pdfText(doc: PDFDocument, t: TextRun, px: number, py: number, capHeight: number, color: number) {
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
