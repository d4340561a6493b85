import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { fixtureImage, writeAsciiDxf } from '../testing/dxf-writer.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const cad = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 });

describe('cad render --images', () => {
  it('paints the IMAGE with the picture found in DIR by base name, whatever path and case the drawing wrote', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-images-'));
    const pics = path.join(dir, 'pics');
    mkdirSync(pics);
    // all red, 20 × 10
    await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } }).png().toFile(path.join(pics, 'Logo.png'));
    const img = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'C:\\work\\LOGO.PNG', pixels: [20, 10], insert: [0, 0], u: [5, 0], v: [0, 5] });
    const drawing = path.join(dir, 'logo.dxf');
    writeFileSync(drawing, writeAsciiDxf({ entities: [img.entity], objects: [img.def] }));
    const out = path.join(dir, 'out.png');

    const r = cad('render', drawing, out, '--images', pics, '--width', '208');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).picturesMissing).toBeUndefined();
    // the 100 × 50 picture fills the page but for its 2 % margins: its middle is red
    const { data, info } = await sharp(readFileSync(out)).raw().toBuffer({ resolveWithObject: true });
    const mid = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect([...data.subarray(mid, mid + 3)]).toEqual([255, 0, 0]);

    const without = cad('render', drawing, out, '--width', '208');
    expect(without.status, without.stderr).toBe(0);
    expect(JSON.parse(without.stdout).picturesMissing).toEqual(['LOGO.PNG']);
  }, 60_000);
});
