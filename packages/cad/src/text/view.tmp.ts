import { readFileSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { parseDxf, flattenModelSpace, loadFonts, textGeometry } from '../index.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
const file = process.argv[2];
const d = file ? parseDxf(new Uint8Array(readFileSync(file))) : parseDxf(writeAsciiDxf({ version: 'AC1027', entities: [
  { type: 'MTEXT', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 5], [41, 80], [71, 1], [1, '中文标题 Title\\P1\\S1/2; + 3\\S3^4; + 5\\S5#8; {\\C1;\\H1.5x;Big} \\LUnder\\l \\OOver\\o\\P%%c20 45%%d %%p0.1\\P한국어 日本語かな']] },
  { type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, -50], [30, 0], [40, 5], [50, 15], [51, 15], [1, 'Oblique 15° rotated']] },
] }));
const fonts = await loadFonts(d, async () => null);
console.log(fonts.report);
const flat = flattenModelSpace(d);
const parts: string[] = [];
let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
const upd = (x: number, y: number) => { minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); };
const only = process.argv[3] ? [flat.texts[Number(process.argv[3])]] : flat.texts;
for (const r of only) {
  const g = textGeometry(r, d, fonts);
  for (const s of g.strokes) { let p = ''; for (let i = 0; i < s.length; i += 2) { p += (i ? 'L' : 'M') + s[i].toFixed(3) + ' ' + (-s[i + 1]).toFixed(3); upd(s[i], s[i + 1]); } parts.push(`<path d="${p}" fill="none" stroke="black" stroke-width="0.15"/>`); }
  let p = '';
  for (let i = 0; i < g.triangles.length; i += 6) { p += `M${g.triangles[i]} ${-g.triangles[i + 1]}L${g.triangles[i + 2]} ${-g.triangles[i + 3]}L${g.triangles[i + 4]} ${-g.triangles[i + 5]}Z`; for (let k = 0; k < 6; k += 2) upd(g.triangles[i + k], g.triangles[i + k + 1]); }
  if (p) parts.push(`<path d="${p}" fill="black" stroke="black" stroke-width="0.02"/>`);
}
const w = maxX - minX, h = maxY - minY;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${minX - 1} ${-maxY - 1} ${w + 2} ${h + 2}" width="1400" height="${Math.round(1400 * (h + 2) / (w + 2))}"><rect x="${minX - 1}" y="${-maxY - 1}" width="${w + 2}" height="${h + 2}" fill="white"/>${parts.join('')}</svg>`;
writeFileSync('/tmp/text-view.png', new Resvg(svg).render().asPng());
