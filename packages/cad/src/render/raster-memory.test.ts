/**
 * Issue 17: a 16,000 px picture once peaked at 1.4 GB (every strip kept as a PNG, then joined and re-encoded by
 * sharp). Strips are now encoded into one PNG as they are drawn, so the peak is one strip's pixels plus the
 * compressed result, whatever the picture's size. Measured in a child process (its maxRSS: this export alone, node
 * and tsx included, ~100 MB of it); bound 400 MB for 16,000 × 16,000.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, '../testing/raster-memory.child.ts');
const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-raster-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PEAK_BOUND_MB = 400;

function exportPicture(width: number, height: number, format = 'png', background = 'white') {
  const out = path.join(dir, `${width}x${height}-${background}.${format}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', child, out, String(width), String(height), format, background], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`export failed (${r.status ?? r.signal}): ${r.stderr}`);
  return { out, ...(JSON.parse(r.stdout.trim().split('\n').pop()!) as { bytes: number; startMb: number; peakMb: number }) };
}

describe('big pictures in bounded memory', () => {
  it(`a 16,000 × 16,000 px PNG peaks under ${PEAK_BOUND_MB} MB resident, and is whole`, async () => {
    const r = exportPicture(16_000, 16_000);
    console.log(`16000×16000 PNG: ${r.bytes} bytes, peak ${r.peakMb} MB (process at start ${r.startMb} MB)`);
    expect(r.peakMb).toBeLessThan(PEAK_BOUND_MB);
    const meta = await sharp(r.out, { limitInputPixels: false }).metadata();
    expect([meta.width, meta.height]).toEqual([16_000, 16_000]);
    // drawn across the picture, not just its first strip: a band through the middle holds ink (the fixture's lines)
    const band = await sharp(r.out, { limitInputPixels: false, sequentialRead: true }).extract({ left: 0, top: 7_000, width: 16_000, height: 2_000 }).removeAlpha().raw().toBuffer();
    let ink = 0;
    for (let i = 0; i < band.length; i += 3) if (band[i] < 200 || band[i + 1] < 200 || band[i + 2] < 200) ink++;
    expect(ink).toBeGreaterThan(1_000);
  }, 600_000);

  it('a transparent PNG of several strips keeps its alpha, straight (not premultiplied)', async () => {
    const r = exportPicture(1_500, 12_000, 'png', 'transparent');
    const img = sharp(r.out, { limitInputPixels: false });
    const meta = await img.metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([1_500, 12_000, 4]);
    const px = await img.raw().toBuffer();
    let clear = 0, inked = 0, dim = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) clear++;
      else if (px[i + 3] > 0) {
        inked++;
        // a half-covered edge of a saturated colour keeps its colour (premultiplied it would darken towards black)
        if (px[i + 3] < 255 && Math.max(px[i], px[i + 1], px[i + 2]) < 100 && Math.max(px[i], px[i + 1], px[i + 2]) > 0) dim++;
      }
    }
    expect(clear).toBeGreaterThan(px.length / 8);
    expect(inked).toBeGreaterThan(0);
    expect(dim / inked).toBeLessThan(0.2);
  }, 300_000);
});
