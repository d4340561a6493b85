import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';

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
