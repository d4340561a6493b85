import { readFileSync } from 'node:fs';
import { parseDxf, flattenModelSpace, loadFonts, textGeometry, textBounds } from '../index.ts';
const d = parseDxf(new Uint8Array(readFileSync('/work/shared/samples/dxf_ezdxf_mtext_inline_codes.dxf')));
const flat = flattenModelSpace(d);
const fonts = await loadFonts(d, async () => null);
console.log(flat.texts.map((r) => (r.raw ?? r.text).length));
for (let k = 0; k < 4; k++) { const t = performance.now(); for (const r of flat.texts) textBounds(r, d, fonts); const t2 = performance.now(); for (const r of flat.texts) textGeometry(r, d, fonts); console.log((t2 - t).toFixed(1), (performance.now() - t2).toFixed(1)); }
