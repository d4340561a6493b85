/** What the tests read back from a PDF, through pdfjs-dist 5.6.205 (legacy build: Node 20 has no DOMMatrix). */
export interface PdfFacts {
  pages: { widthMm: number; heightMm: number; text: string; strokeColors: string[]; lineWidths: number[]; textModes: number[] }[];
  layers: string[];
  outline: string[];
}

export async function inspectPdf(bytes: Uint8Array, opts: { operators?: boolean } = {}): Promise<PdfFacts> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const facts: PdfFacts = { pages: [], layers: [], outline: [] };
  const oc = await doc.getOptionalContentConfig();
  for (const [, g] of oc) facts.layers.push((g as { name: string }).name);
  facts.outline = ((await doc.getOutline()) ?? []).map((o: { title: string }) => o.title);
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [x0, y0, x1, y1] = page.view;
    const content = await page.getTextContent();
    const text = content.items.map((it) => ('str' in it ? it.str : '')).join('');
    const strokeColors: string[] = [], lineWidths: number[] = [], textModes: number[] = [];
    if (opts.operators) {
      const ops = await page.getOperatorList();
      for (let k = 0; k < ops.fnArray.length; k++) {
        if (ops.fnArray[k] === pdfjs.OPS.setStrokeRGBColor) strokeColors.push(String(ops.argsArray[k][0]));
        if (ops.fnArray[k] === pdfjs.OPS.setLineWidth) lineWidths.push(Number(ops.argsArray[k][0]));
        if (ops.fnArray[k] === pdfjs.OPS.setTextRenderingMode) textModes.push(Number(ops.argsArray[k][0]));
      }
    }
    facts.pages.push({ widthMm: ((x1 - x0) * 25.4) / 72, heightMm: ((y1 - y0) * 25.4) / 72, text, strokeColors, lineWidths, textModes });
  }
  await doc.destroy();
  return facts;
}

/** Text without white space, to compare what a PDF reader extracts with the drawing's strings. */
export const squash = (s: string) => s.replace(/\s+/g, '');
