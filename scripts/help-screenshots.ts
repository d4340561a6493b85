/**
 * Makes the quick-start help's screenshots (/help; apps/web/public/help/*.png) from OUR OWN UI: starts the built
 * product, signs a user in through the login site, uploads a small drawing, shares it, and photographs the pages the
 * help explains. Run after `node scripts/build.mjs`:  npx tsx scripts/help-screenshots.ts
 * Each picture is a palette PNG under 100 KB (checked here), so the repository stays small.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { signedInDesktop } from '../e2e/signed-in.ts';
import { postApi } from '../e2e/page-helpers.ts';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';

const OUT = path.resolve(import.meta.dirname, '../apps/web/public/help');
const MAX_BYTES = 100 * 1024;

/** a small floor plan: a room, a door and a label */
function plan(): Buffer {
  const line = (x1: number, y1: number, x2: number, y2: number) => ({ type: 'LINE', pairs: [[8, '0'], [10, x1], [20, y1], [11, x2], [21, y2]] as [number, string | number][] });
  return Buffer.from(writeAsciiDxf({
    layers: ['0'],
    entities: [line(0, 0, 400, 0), line(400, 0, 400, 300), line(400, 300, 0, 300), line(0, 300, 0, 0), line(200, 0, 200, 120), line(200, 180, 200, 300),
      { type: 'TEXT', pairs: [[8, '0'], [10, 40], [20, 140], [40, 20], [1, 'OFFICE']] }],
  }));
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const s = await signedInDesktop('help@example.com', 'Helen');
  try {
    const { page, product } = s;
    await page.setViewportSize({ width: 1100, height: 640 });
    const up = await page.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name: 'office-plan.dxf', mimeType: 'application/octet-stream', buffer: plan() } } });
    const fileId = (await up.json()).bizData.id as string;
    await postApi(page, `${product.url}/cloud/v5/share/create`, { fileIds: [fileId], kind: 'link' });
    const shots: [string, string][] = [
      ['upload', '/yun/index'],
      ['open', `/yun/view/${fileId}`],
      ['share', '/yun/share'],
      ['convert', '/yun/transformer'],
    ];
    for (const [name, url] of shots) {
      await page.goto(`${product.url}${url}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1500);
      const raw = await page.screenshot({ type: 'png' });
      const png = await sharp(raw).resize({ width: 880 }).png({ palette: true, colours: 64, compressionLevel: 9 }).toBuffer();
      if (png.length > MAX_BYTES) throw new Error(`${name}.png is ${png.length} bytes (at most ${MAX_BYTES})`);
      writeFileSync(path.join(OUT, `${name}.png`), png);
      console.log(`${name}.png ${png.length} bytes`);
    }
  } finally {
    await s.close();
  }
}

await main();
