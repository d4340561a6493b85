import { parseDxf } from './src/dxf/reader.ts';
import { convertDrawing, loadConvertText } from './src/convert/index.ts';
import { convertFixtureDxf } from './src/testing/convert-fixture.ts';
import { inspectPdf } from './src/testing/pdf-inspect.ts';
const drawing = parseDxf(convertFixtureDxf());
for (const withText of [false, true]) {
  const s = withText ? await loadConvertText(drawing, async () => null) : {};
  const pdf = await convertDrawing(drawing, 'pdf', { layouts: ['Model'] }, s);
  const f = await inspectPdf(pdf.bytes, { operators: true });
  console.log(withText, f.pages[0].text, f.pages[0].textModes);
}
