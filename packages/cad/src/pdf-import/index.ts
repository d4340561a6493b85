export { importPdf, looksLikePdf, PdfImportError, type PdfImportOptions, type PdfImportFailure } from './import-pdf.ts';
export { fitArc, fitSubpath } from './fit-arcs.ts';
export { mergeRuns } from './merge-runs.ts';
