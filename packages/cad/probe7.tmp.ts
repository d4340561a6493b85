import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const oc = await doc.getOptionalContentConfig();
for (const [id, g] of oc) console.log(id, (g as any).name, (g as any).visible, oc.isVisible({ type: 'OCG', id } as any));
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
const names = Object.fromEntries(Object.entries(pdfjs.OPS).map(([k,v])=>[v,k]));
for (let i=0;i<ops.fnArray.length;i++){ if(names[ops.fnArray[i]]==='beginMarkedContentProps') console.log(i, JSON.stringify(ops.argsArray[i])); }
