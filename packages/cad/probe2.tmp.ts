import fs from 'node:fs';
import { importPdf } from './src/pdf-import/index.ts';
import { writeDxf } from './src/dxf/writer/index.ts';
const t0 = Date.now();
const d = await importPdf(new Uint8Array(fs.readFileSync(process.argv[2])), { stack: process.argv[3] === 'stack' });
console.log('ms', Date.now() - t0, d.counts, d.layers.length, d.linetypes.map(l=>l.pattern.join(' ')), d.textStyles.map(s=>s.name+':'+s.font));
const bytes = writeDxf(d, { version: '2018' });
fs.writeFileSync('/tmp/plot.dxf', bytes);
console.log('dxf bytes', bytes.length, 'ms', Date.now() - t0);
