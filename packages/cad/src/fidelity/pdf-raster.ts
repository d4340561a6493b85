/**
 * Page 1 of a PDF rasterised in Node by pdf.js (legacy build, which runs on Node 20), white background,
 * `width` pixels wide; RGBA pixels. The canvas comes from pdf.js's own canvas factory (its copy of
 * @napi-rs/canvas): a canvas from another copy refuses pdf.js's Path2D objects. Used to read reference plots
 * and our own PDFs.
 */
export async function rasterisePdf(bytes: Uint8Array, width: number): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / base.width });
    const w = Math.round(viewport.width), h = Math.round(viewport.height);
    const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D } } }).canvasFactory;
    const { canvas, context } = factory.create(w, h);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, w, h);
    await page.render({ canvasContext: context, canvas, viewport }).promise;
    const img = context.getImageData(0, 0, w, h);
    return { data: img.data, width: w, height: h };
  } finally {
    await doc.destroy();
  }
}
