/**
 * `npm run model3d -- convert`: the compiled command line (packages/model3d/dist) converts in its compiled worker
 * thread (model3d.worker.mjs), taking the MTL the OBJ names from beside it; no TypeScript or tsx loads at run time
 * (the module log hook of scripts/build.test.ts); a bad file exits 1 with its kind.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mtl, obj } from '../fixtures/mesh.ts';
import { expectModel } from '../fixtures/read-back.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'model3d-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// built first: a stale build would load esbuild in the logged run
beforeAll(() => {
  const b = spawnSync(process.execPath, ['scripts/build.mjs', 'model3d', '--if-stale'], { cwd: root, encoding: 'utf8' });
  expect(b.status, b.stderr).toBe(0);
}, 120_000);

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['scripts/model3d.mjs', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });

describe('npm run model3d -- convert', () => {
  it('converts an OBJ with the MTL beside it in the compiled worker, loading no TypeScript', async () => {
    writeFileSync(path.join(dir, 'box.obj'), obj());
    writeFileSync(path.join(dir, 'cube.mtl'), mtl);
    const log = path.join(dir, 'modules.log');
    const out = path.join(dir, 'box.glb');
    const r = run(['convert', path.join(dir, 'box.obj'), out], { MODULE_LOG: log, NODE_OPTIONS: `--import=${path.join(root, 'scripts/testing/module-log.mjs')}` });
    expect(r.status, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ format: 'obj', triangles: 12, tree: [{ name: 'box', children: [{ name: 'Bottom' }, { name: 'Top' }] }] });
    const glb = new Uint8Array(readFileSync(out));
    const back = await expectModel({ glb, stats: printed, tree: printed.tree, format: 'obj' }, 12, [0, 0, 0], [10, 10, 10]);
    // the MTL's red on the bottom: it was found beside the OBJ
    expect(back.doc.getRoot().listMaterials().map((m) => m.getBaseColorFactor().slice(0, 3))).toContainEqual([1, 0, 0]);
    const mods = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.slice(l.indexOf(' ') + 1));
    expect(mods).toContain(`file://${root}/packages/model3d/dist/model3d.worker.mjs`);
    expect(mods.filter((u) => /\.(c|m)?tsx?$/.test(u.split('?')[0]) || /\/node_modules\/(tsx|esbuild|typescript)\//.test(u))).toEqual([]);
  });

  it('a file that is not a model exits 1 with its kind', () => {
    writeFileSync(path.join(dir, 'bad.stp'), 'ISO-10303-21;\nHEADER;\n');
    const r = run(['convert', path.join(dir, 'bad.stp'), path.join(dir, 'bad.glb')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^bad-input: /);
  });
});
