import { importPdf } from './src/pdf-import/index.ts';
import { writeDxf } from './src/dxf/writer/index.ts';
import { fixturePdf } from './src/testing/pdf-fixture.ts';
const d = await importPdf(fixturePdf([{ content: '1 0 0 rg 100 450 50 30 re f' }]));
const s = writeDxf(d, { version: '2018' }).toString();
const i = s.indexOf('AcDbHatch'); console.log(s.slice(i, i + 900).split('\n').join('|'));
