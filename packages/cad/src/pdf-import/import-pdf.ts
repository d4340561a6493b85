import { CadError, type Drawing } from '../model/drawing.ts';
import { buildDrawing, type ImportedPage } from './build-drawing.ts';
import { mergeRuns } from './merge-runs.ts';
import { joinDashRuns } from './dash-runs.ts';
import { dropStrokesUnderInvisibleText, recoverShxText, type AnnotationData } from './shx-annotations.ts';
import { pageMatrix, walkOperators, type FontInfo, type OpsTable } from './walk-operators.ts';

export interface PdfImportOptions {
  /** 1-based page numbers (default: every page) */
  pages?: number[];
  /** each page a paper-space layout (default), or the pages one under another in model space */
  stack?: boolean;
  /**
   * Calibration by one known distance: two points on page 1 (in page points, as a PDF viewer measures them) and the
   * true length between them in drawing millimetres. Without it the PDF's own units hold (1 pt = 25.4 / 72 mm).
   */
  calibrate?: { from: [number, number]; to: [number, number]; mm: number };
  /**
   * The plot scale 1:N the PDF was printed at: drawing units are the PDF's millimetres times N (a 1:50 plan's 20 mm
   * wall comes back 1000 long). Default 1. A calibration, which measures the true length itself, takes its place.
   */
  scale?: number;
  /** curve fitting tolerance in page points (default 0.05 pt ≈ 0.018 mm) */
  tolerance?: number;
  /** limits against a hostile file (defaults: 4 million path segments, 2 million glyphs, 2,000 pages) */
  maxSegments?: number;
  maxGlyphs?: number;
  maxPages?: number;
  onProgress?: (percent: number, stage: string) => void;
}

/** The reasons a PDF cannot become a drawing: each a CadError code the server turns into the spec's message. */
export type PdfImportFailure = 'pdf.empty' | 'pdf.invalid' | 'pdf.encrypted' | 'pdf.noVectors' | 'pdf.noSuchPage';

export class PdfImportError extends CadError {
  constructor(readonly reason: PdfImportFailure, detail: string) {
    super('cad.parseFailed', 'Failed to convert the file format.', `${reason}: ${detail}`);
  }
}

const PT_MM = 25.4 / 72;

/** Whether these bytes are a PDF: "%PDF-" within the first kilobyte (readers accept junk before it). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/**
 * A PDF as a drawing (issue 17 part 5): its pages' vector paths become LINE, LWPOLYLINE (with bulges), CIRCLE, ARC,
 * SPLINE and solid HATCH, dash patterns linetypes, text TEXT with font, size, angle and place, optional-content
 * groups layers (else one layer per colour), AutoCAD's SHX comments texts again; at true scale in millimetres (or
 * the plot scale, or a calibration). Fails with a PdfImportError saying why: empty, not a PDF, encrypted, nothing
 * but pictures.
 */
export async function importPdf(bytes: Uint8Array, o: PdfImportOptions = {}): Promise<Drawing> {
  if (!bytes.byteLength) throw new PdfImportError('pdf.empty', 'the file is empty (0 bytes)');
  if (!looksLikePdf(bytes)) throw new PdfImportError('pdf.invalid', 'the file is not a PDF (no %PDF header)');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, fontExtraProperties: true });
  let doc;
  try {
    doc = await task.promise;
  } catch (e) {
    const name = (e as { name?: string })?.name;
    if (name === 'PasswordException') throw new PdfImportError('pdf.encrypted', 'the PDF is encrypted and needs a password');
    throw new PdfImportError('pdf.invalid', `the PDF cannot be read: ${(e as Error)?.message ?? String(e)}`);
  }
  try {
    const meta = (await doc.getMetadata().catch(() => null)) as { info?: { EncryptFilterName?: string | null } } | null;
    const encrypted = !!meta?.info?.EncryptFilterName;
    const wanted = o.pages?.length ? [...new Set(o.pages)] : Array.from({ length: doc.numPages }, (_, i) => i + 1);
    for (const n of wanted) if (!Number.isInteger(n) || n < 1 || n > doc.numPages) throw new PdfImportError('pdf.noSuchPage', `page ${n} is not in the PDF (it has ${doc.numPages})`);
    if (wanted.length > (o.maxPages ?? 2000)) throw new CadError('cad.tooComplex', 'The drawing analysis failed!', `${wanted.length} pages`);

    // optional-content groups (PDF layers) by id
    const groups = new Map<string, string>();
    const hidden = new Set<string>();
    try {
      const oc = await doc.getOptionalContentConfig();
      for (const [id, g] of oc) {
        const name = String((g as { name?: string }).name ?? id);
        groups.set(String(id), name);
        // a PDF layer off when the file opens is a drawing layer off (its content still converted)
        if ((g as { visible?: boolean }).visible === false) hidden.add(name);
      }
    } catch {
      // no optional content: layers by colour
    }
    const limits = { maxSegments: o.maxSegments ?? 4_000_000, maxGlyphs: o.maxGlyphs ?? 2_000_000 };
    const pages: ImportedPage[] = [];
    let images = 0;
    for (const [i, n] of wanted.entries()) {
      o.onProgress?.(5 + Math.round((80 * i) / wanted.length), 'read');
      const page = await doc.getPage(n);
      const list = await page.getOperatorList();
      const fonts = new Map<string, FontInfo | null>();
      const fontOf = (ref: string): FontInfo | null => {
        if (fonts.has(ref)) return fonts.get(ref)!;
        let info: FontInfo | null = null;
        try {
          const f = (page.commonObjs.has(ref) ? page.commonObjs.get(ref) : page.objs.has(ref) ? page.objs.get(ref) : null) as { name?: string; fontMatrix?: number[]; bold?: boolean; italic?: boolean; vertical?: boolean; black?: boolean } | null;
          info = { name: f?.name ?? ref, matrix: f?.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0], bold: !!(f?.bold || f?.black), italic: !!f?.italic, vertical: !!f?.vertical };
        } catch {
          info = { name: ref, matrix: [0.001, 0, 0, 0.001, 0, 0], bold: false, italic: false, vertical: false };
        }
        fonts.set(ref, info);
        return info;
      };
      const view = page.view;
      const content = walkOperators(list as { fnArray: number[]; argsArray: unknown[][] }, pdfjs.OPS as unknown as OpsTable, view, fontOf, (id) => groups.get(id) ?? null, limits, page.rotate);
      const annotations = ((await page.getAnnotations({ intent: 'display' }).catch(() => [])) ?? []) as AnnotationData[];
      const shx = recoverShxText(annotations, content, pageMatrix(view, page.rotate).m);
      images += content.images;
      const runs = dropStrokesUnderInvisibleText(content, mergeRuns(content.runs));
      // a plotted linetype's dashes, one stroke each, become one line with the pattern (after the text took its strokes)
      content.shapes = joinDashRuns(content.shapes);
      pages.push({ number: n, content, texts: [...runs, ...shx] });
      page.cleanup();
    }
    const drawn = pages.reduce((s, p) => s + p.content.shapes.length + p.texts.length, 0);
    if (!drawn) {
      if (encrypted) throw new PdfImportError('pdf.encrypted', 'the PDF is encrypted and shows nothing readable');
      throw new PdfImportError('pdf.noVectors', images ? `the PDF holds only pictures (${images} scanned or embedded images, no vector lines or text)` : 'the PDF holds no vector lines or text');
    }
    o.onProgress?.(88, 'build');
    if (o.scale !== undefined && !(o.scale > 0 && Number.isFinite(o.scale))) throw new CadError('cad.parseFailed', 'Failed to convert the file format.', 'scale: 1:N needs a positive N');
    let mmPerPoint = PT_MM * (o.scale ?? 1);
    if (o.calibrate) {
      const d = Math.hypot(o.calibrate.to[0] - o.calibrate.from[0], o.calibrate.to[1] - o.calibrate.from[1]);
      if (!(d > 0 && o.calibrate.mm > 0)) throw new CadError('cad.parseFailed', 'Failed to convert the file format.', 'calibration: the two points must differ and the length be positive');
      mmPerPoint = o.calibrate.mm / d;
    }
    return buildDrawing(pages, { placement: o.stack ? 'stack' : 'layouts', mmPerPoint, pdfLayers: groups.size > 0, hiddenLayers: hidden, tolerance: o.tolerance ?? 0.05 });
  } finally {
    await doc.destroy();
  }
}
