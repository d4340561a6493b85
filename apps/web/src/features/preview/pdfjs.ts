import { GlobalWorkerOptions } from 'pdfjs-dist';
// the worker is one of our own assets (the CSP allows workers from our origin only)
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** pdf.js with its worker set up: the PDF preview and the convert dialog's calibration load PDFs through here. */
export { getDocument, OPS, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
