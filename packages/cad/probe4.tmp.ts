import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
const names = Object.fromEntries(Object.entries(pdfjs.OPS).map(([k,v])=>[v,k]));
const cnt: Record<string, number> = {};
for (let i=0;i<ops.fnArray.length;i++){ const n=names[ops.fnArray[i]]; if(n==='constructPath'){ const k=names[ops.argsArray[i][0]]; cnt[k]=(cnt[k]??0)+1; } }
console.log(cnt);
// context of setFillColorN and eoClip
let shown=0;
for (let i=0;i<ops.fnArray.length && shown<6;i++){ const n=names[ops.fnArray[i]]; if(n==='setFillColorN'){ shown++; console.log(i, JSON.stringify(ops.argsArray[i]).slice(0,300)); for (let j=i-3;j<i+6;j++) console.log('   ', names[ops.fnArray[j]], JSON.stringify(ops.argsArray[j], (k,v)=> v instanceof Float32Array? Array.from(v).slice(0,12):v).slice(0,200)); } }
shown=0;
for (let i=0;i<ops.fnArray.length && shown<3;i++){ const n=names[ops.fnArray[i]]; if(n==='eoClip'){ shown++; for (let j=i-2;j<i+5;j++) console.log('   ', names[ops.fnArray[j]], JSON.stringify(ops.argsArray[j], (k,v)=> v instanceof Float32Array? Array.from(v).slice(0,12):v).slice(0,200)); } }
