/**
 * Hand-written PDFs for the PDF import tests: pages of content streams in plain PDF operators, an optional
 * annotation list per page, an /Encrypt dictionary, pictures — the cases a PDF writer library will not make on
 * purpose. The cross-reference table is computed, so readers need no repair.
 */
export interface FixturePage {
  /** the content stream (PDF operators), in points */
  content: string;
  /** page size in points (default A4 portrait 595 × 842) */
  width?: number;
  height?: number;
  /** annotation dictionaries, without the surrounding << >> (e.g. "/Subtype /Square /Rect [...] /T (…) /Contents (…)") */
  annotations?: string[];
  /** /Rotate: the page shown turned clockwise by this many degrees */
  rotate?: number;
  /** an image XObject /Im1 (8-bit grey, width × height pixels) painted by the content */
  image?: { width: number; height: number };
}

/**
 * `layers`: optional content groups (PDF layers), named /L0, /L1 … in every page's resources for `/OC /L0 BDC … EMC`;
 * `on: false` ones are off when the file opens.
 */
export function fixturePdf(pages: FixturePage[], o: { encrypt?: boolean; layers?: { name: string; on: boolean }[] } = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => (objects.push(body), objects.length);
  const catalog = add('');
  const pagesObj = add('');
  const ocgs = (o.layers ?? []).map((l) => add(`<< /Type /OCG /Name (${l.name}) >>`));
  const props = ocgs.length ? ` /Properties << ${ocgs.map((g, i) => `/L${i} ${g} 0 R`).join(' ')} >>` : '';
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const p of pages) {
    const stream = p.content;
    const contents = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    const annots = (p.annotations ?? []).map((a) => add(`<< /Type /Annot ${a} >>`));
    let xobj = '';
    if (p.image) {
      const px = Buffer.alloc(p.image.width * p.image.height, 0x80).toString('latin1');
      const im = add(`<< /Type /XObject /Subtype /Image /Width ${p.image.width} /Height ${p.image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${px.length} >>\nstream\n${px}\nendstream`);
      xobj = ` /XObject << /Im1 ${im} 0 R >>`;
    }
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${p.width ?? 595} ${p.height ?? 842}]${p.rotate ? ` /Rotate ${p.rotate}` : ''} /Resources << /Font << /F1 ${font} 0 R >>${xobj}${props} >> /Contents ${contents} 0 R${annots.length ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : ''} >>`));
  }
  const off = ocgs.filter((_, i) => !o.layers![i].on);
  const oc = ocgs.length ? ` /OCProperties << /OCGs [${ocgs.map((g) => `${g} 0 R`).join(' ')}] /D << /Order [${ocgs.map((g) => `${g} 0 R`).join(' ')}] /OFF [${off.map((g) => `${g} 0 R`).join(' ')}] >> >>` : '';
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R${oc} >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  // the standard security handler (RC4, 40 bit) with made-up O and U entries: no password opens it
  const encrypt = o.encrypt ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> >>`) : 0;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt ? ` /Encrypt ${encrypt} 0 R /ID [<${'11'.repeat(16)}> <${'11'.repeat(16)}>]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** A circle as PDF writers draw it: four Béziers (kappa 0.5523). */
export function circlePath(cx: number, cy: number, r: number): string {
  const k = 0.5522847498 * r;
  return [
    `${cx + r} ${cy} m`,
    `${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r} c`,
    `${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy} c`,
    `${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r} c`,
    `${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy} c`,
  ].join('\n');
}
