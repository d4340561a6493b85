import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { body, writeDwgR12 } from '../testing/dwg-r12-writer.ts';
import { fixturePdf } from '../testing/pdf-fixture.ts';
import { pairValue, parseDxf } from '../dxf/reader.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const cad = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 });

describe('cad info', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-cli-'));

  it('prints the facts of a drawing as JSON', () => {
    const file = path.join(dir, 'ok.dxf');
    writeFileSync(file, writeAsciiDxf({ layers: ['0', 'A'], entities: [{ type: 'CIRCLE', pairs: [[8, 'A'], [10, 0], [20, 0], [30, 0], [40, 3]] }] }));
    const r = cad('info', file);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ format: 'dxf', version: 'AC1015', release: '2000', units: 4, entities: { total: 1, byType: { CIRCLE: 1 } }, notDrawn: {} });
    expect(info.layers.map((l: { name: string }) => l.name)).toEqual(['0', 'A']);
  });

  it('exits non-zero with the message for a corrupt file, fast', () => {
    const file = path.join(dir, 'bad.dxf');
    writeFileSync(file, 'garbage\x00\x01\x02');
    const t = Date.now();
    const r = cad('info', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('The drawing analysis failed!');
    expect(Date.now() - t).toBeLessThan(30_000);
  });
});

describe('cad render', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-render-'));
  const drawing = path.join(dir, 'part.dxf');
  writeFileSync(
    drawing,
    writeAsciiDxf({
      layers: ['0', 'A'],
      entities: [
        { type: 'CIRCLE', pairs: [[8, 'A'], [62, 1], [10, 0], [20, 0], [30, 0], [40, 30]] },
        { type: 'LINE', pairs: [[8, '0'], [370, 50], [10, -40], [20, 0], [30, 0], [11, 40], [21, 0], [31, 0]] },
      ],
    }),
  );

  it('writes PNG at --width, SVG and a vector PDF, and says what it drew', () => {
    const png = path.join(dir, 'out.png');
    const r = cad('render', drawing, png, '--width', '300');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'png', layout: 'Model', polylines: 1, curves: 1 });
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(300); // IHDR width
    const svg = path.join(dir, 'out.svg');
    expect(cad('render', drawing, svg, '--dark').status).toBe(0);
    expect(readFileSync(svg, 'utf8')).toContain('stroke="#ff0000"'); // the red circle
    expect(readFileSync(svg, 'utf8')).toMatch(/<path d="M30 0A30 30 0 0 1 -30 0A30 30 0 0 1 30 0" fill="none" stroke="#ff0000"/); // as true arcs
    const pdf = path.join(dir, 'out.pdf');
    expect(cad('render', drawing, pdf, '--layout', 'model').status).toBe(0);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exits 2 naming the layouts when --layout is not one of them, and for an unknown format', () => {
    const r = cad('render', drawing, path.join(dir, 'x.png'), '--layout', 'Sheet 9');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^layout not found: Sheet 9 \(layouts: Model/);
    expect(existsSync(path.join(dir, 'x.png'))).toBe(false);
    expect(cad('render', drawing, path.join(dir, 'x.bmp')).status).toBe(2);
  });

  const flange = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples', 'dxf_qcad_flange.dxf');
  it.runIf(existsSync(flange))('renders a paper layout by name, any case: the sheet with model space in its viewports', () => {
    const model = cad('render', flange, path.join(dir, 'flange-model.svg'));
    const sheet = cad('render', flange, path.join(dir, 'flange-sheet.pdf'), '--layout', 'LAYOUT');
    expect(sheet.status, sheet.stderr).toBe(0);
    const [m, l] = [JSON.parse(model.stdout), JSON.parse(sheet.stdout)];
    expect(l.layout).toBe('Layout');
    expect(l.polylines).toBeGreaterThan(m.polylines); // border, title block and the viewports' geometry
    expect(l.texts).toBeGreaterThan(m.texts);
  });

  // a truncated file and random bytes, as DXF and as DWG (the DWG path runs LibreDWG in its worker)
  const corrupt: [string, () => Buffer][] = [
    ['truncated.dxf', () => readFileSync(drawing).subarray(0, Math.floor(readFileSync(drawing).length / 2))],
    ['random.dxf', () => randomBytes(200_000)],
    ['random.dwg', () => randomBytes(200_000)],
    ['truncated.dwg', () => Buffer.concat([Buffer.from('AC1018'), randomBytes(100_000)])],
  ];
  // and a real DWG cut to a fifth, when the samples are there
  const floorPlan = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples', 'dwg_2004_ddc_floorplan.dwg');
  if (existsSync(floorPlan)) corrupt.push(['floorplan-cut.dwg', () => readFileSync(floorPlan).subarray(0, 300_000)]);
  it.each(corrupt)('%s exits 1 with the message in under 30 s', (name, bytes) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes());
    const t = Date.now();
    const r = cad('render', file, path.join(dir, `${name}.png`));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('The drawing analysis failed!');
    expect(Date.now() - t).toBeLessThan(30_000);
  }, 35_000);
});

describe('cad on R11/R12 DWG (read in process by dwg/r12)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-r12-'));

  it('info names the release; render draws the sheet of a drawing made in paper space', () => {
    const file = path.join(dir, 'sheet.dwg');
    writeFileSync(file, writeDwgR12({ tileMode: 0, entities: [{ type: 1, paper: true, flat: true, body: body().f64(0, 0, 10, 5).bytes() }] }));
    const info = cad('info', file);
    expect(info.status, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ format: 'dwg', version: 'AC1009', release: 'R11/R12', entities: { total: 1, byType: { LINE: 1 } } });
    const r = cad('render', file, path.join(dir, 'sheet.png'));
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ layout: 'Layout1', polylines: 1 });
    // model space, asked for by name, is empty but still a valid render
    expect(JSON.parse(cad('render', file, path.join(dir, 'model.png'), '--layout', 'model').stdout)).toMatchObject({ layout: 'Model', polylines: 0 });
  });

  const aceb10 = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples', 'dwg_r11_libredwg_ACEB10.dwg');
  it.runIf(existsSync(aceb10))('renders the R11 sample (its sheet) to PNG', () => {
    const png = path.join(dir, 'aceb10.png');
    const r = cad('render', aceb10, png, '--width', '800');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'png', layout: 'Layout1', notDrawn: {} });
    const out = JSON.parse(r.stdout);
    expect(out.polylines + out.curves).toBeGreaterThan(400); // circles and arcs are exact curves
    expect(readFileSync(png).readUInt32BE(16)).toBe(800);
  });

  it('a cut R12 DWG exits 1 with the message', () => {
    const file = path.join(dir, 'cut.dwg');
    writeFileSync(file, writeDwgR12({ entities: [{ type: 1, flat: true, body: body().f64(0, 0, 10, 5).bytes() }] }).subarray(0, 0x700));
    const r = cad('info', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('The drawing analysis failed!');
  });
});

describe('cad convert', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-convert-'));

  it('saves a DXF as the version asked for, and refuses a version that does not exist', () => {
    const file = path.join(dir, 'in.dxf');
    writeFileSync(file, writeAsciiDxf({ layers: ['0', 'A'], entities: [{ type: 'CIRCLE', pairs: [[5, 'B1'], [8, 'A'], [10, 0], [20, 0], [30, 0], [40, 3]] }] }));
    const out = path.join(dir, 'out.dxf');
    const r = cad('convert', file, out, '--version', '2004');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ target: 'dxf', version: '2004' });
    expect(readFileSync(out, 'latin1')).toContain('AC1018');
    const bad = cad('convert', file, out, '--version', '2099');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--version must be one of');
  });

  it('converts a PDF to DXF: chosen pages as layouts, or stacked in model space; a bad PDF exits 1 with its reason', () => {
    const file = path.join(dir, 'plan.pdf');
    writeFileSync(file, fixturePdf([{ content: '0 G 0 0 m 100 0 l S' }, { content: '0 G 0 0 m 200 0 l S' }, { content: '0 G 0 0 m 300 0 l S' }]));
    const out = path.join(dir, 'plan.dxf');
    const r = cad('convert', file, out, '--pages', '1,3');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ target: 'dxf', layouts: ['Model', 'Page 1', 'Page 3'] });
    expect(parseDxf(readFileSync(out)).counts.LINE).toBe(2);
    const stacked = cad('convert', file, out, '--stack');
    expect(JSON.parse(stacked.stdout)).toMatchObject({ layouts: ['Model'] });
    expect(parseDxf(readFileSync(out)).entities.filter((e) => e.type === 'LINE' && !e.paperSpace)).toHaveLength(3);
    // printed at 1:50: page 1's 100 pt line is 100 × 25.4 / 72 × 50 drawing units long
    expect(cad('convert', file, out, '--pages', '1', '--scale', '1:50').status).toBe(0);
    const scaled = parseDxf(readFileSync(out)).entities.find((e) => e.type === 'LINE')!;
    expect(Number(pairValue(scaled, 11)) - Number(pairValue(scaled, 10))).toBeCloseTo((100 * 25.4 * 50) / 72, 6);
    expect(cad('convert', file, out, '--scale', '0').status).toBe(2);
    // a PDF becomes a drawing only
    expect(cad('convert', file, path.join(dir, 'plan.png')).status).toBe(2);
    const locked = path.join(dir, 'locked.pdf');
    writeFileSync(locked, fixturePdf([{ content: '0 G 0 0 m 100 0 l S' }], { encrypt: true }));
    const refused = cad('convert', locked, out);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Failed to convert the file format. (pdf.encrypted: the PDF is encrypted and needs a password)');
  });
});
