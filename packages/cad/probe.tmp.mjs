import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import fs from 'node:fs';
const data = new Uint8Array(fs.readFileSync(process.argv[2]));
const doc = await pdfjs.getDocument({ data, verbosity: 0, isEvalSupported: false }).promise;
console.log('pages', doc.numPages);
const oc = await doc.getOptionalContentConfig(); const groups=[]; for (const [id,g] of oc) groups.push([id,g.name]); console.log('oc', groups.length, groups.slice(0,10));
const page = await doc.getPage(1);
console.log('view', page.view, 'rotate', page.rotate, 'userUnit', page.userUnit);
const ops = await page.getOperatorList();
const names = Object.fromEntries(Object.entries(pdfjs.OPS).map(([k,v])=>[v,k]));
const counts = {};
for (const f of ops.fnArray) counts[names[f]] = (counts[names[f]]??0)+1;
console.log(counts);
let shown=0;
for (let i=0;i<ops.fnArray.length && shown<40;i++){ const n=names[ops.fnArray[i]]; if (['constructPath','showText','setFont','beginMarkedContentProps','setDash','transform','paintImageXObject'].includes(n)) { shown++; console.log(n, JSON.stringify(ops.argsArray[i], (k,v)=> v instanceof Float32Array? Array.from(v).slice(0,30): (k==='fontChar'||k==='vmetric')?undefined:v).slice(0,400)); } }
const ann = await page.getAnnotations(); console.log('annots', ann.length, ann.slice(0,3).map(a=>({subtype:a.subtype, contents:a.contentsObj?.str, rect:a.rect, title: a.titleObj?.str})));
const tc = await page.getTextContent(); console.log('text items', tc.items.length, tc.items.slice(0,8).map(i=>[i.str,i.transform, i.fontName]));
