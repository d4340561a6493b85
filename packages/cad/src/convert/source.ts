import { CadError, type Drawing } from '../model/drawing.ts';
import { readDrawing } from '../read.ts';
import type { PdfImportOptions } from '../pdf-import/index.ts';
import { writableTargets, type ConvertTarget } from './targets.ts';

/** A PDF source (by its name): it becomes a drawing through the PDF import, not a drawing reader. */
export const isPdfName = (fileName: string) => /\.pdf$/i.test(fileName);

/** What a PDF converts to: drawing targets this build writes (DXF; DWG once its writer lands). */
export function pdfTargets(): ConvertTarget[] {
  return writableTargets().filter((t) => t === 'dxf' || t === 'dwg');
}

/** PDF → drawing choices (issue 17 part 5): pages, placement, calibration. */
export type PdfSourceOptions = Pick<PdfImportOptions, 'pages' | 'stack' | 'calibrate' | 'scale'>;

/**
 * The drawing a conversion starts from: a DWG/DXF read, or a PDF imported (refused up front for a target a PDF
 * does not convert to). The command line and the server's conversion worker both start here.
 */
export async function readConvertSource(
  bytes: Uint8Array,
  fileName: string,
  target: ConvertTarget,
  o: { timeoutMs?: number; pdf?: PdfSourceOptions; onProgress?: (percent: number, stage: string) => void } = {},
): Promise<Drawing> {
  if (!isPdfName(fileName)) return readDrawing(bytes, fileName, { timeoutMs: o.timeoutMs });
  if (!pdfTargets().includes(target)) throw new CadError('cad.targetUnavailable', `a PDF converts to ${pdfTargets().join(', ')}, not ${target}`);
  // the PDF import loads only for a PDF source (a drawing's conversion does not compile it)
  const { importPdf } = await import('../pdf-import/index.ts');
  return importPdf(bytes, { ...o.pdf, onProgress: o.onProgress });
}
