/**
 * Issue 16, item 1: no TypeScript compiler at run time. `npm run build` compiles every runtime entry to plain JavaScript
 * (scripts/build.mjs), and this runs that output as an operator would: `npm start`'s script starts the compiled server
 * on plain node, the compiled admin CLI makes its user, and the server answers, reads a drawing in its scene worker,
 * renders its thumbnail in the thumbnail worker and compares two versions in the compare worker — all from the
 * bundles. A loader hook (testing/module-log.mjs) records every module each process loads: none is TypeScript, none is
 * tsx. The `cad` command line starts within its budget and `info` loads none of the renderers' libraries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAsciiDxf, type FixtureEntity } from '../packages/cad/src/testing/dxf-writer.ts';
import { repoRoot, startServer, type ServerProcess } from '../apps/server/src/test/server-process.ts';
import { until } from '../apps/server/src/test/until.ts';

const MODULE_LOG_HOOK = path.join(repoRoot, 'scripts/testing/module-log.mjs');
const SAMPLES = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples');
const sampleDwg = path.join(SAMPLES, 'dwg_2000_libredwg_example.dwg');

const line = (h: string, x0: number, y0: number, x1: number, y1: number, color?: number): FixtureEntity => ({ type: 'LINE', pairs: [[5, h], [8, 'Walls'], ...(color ? [[62, color] as [number, number]] : []), [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]] });
const v1 = Buffer.from(writeAsciiDxf({ layers: ['0', 'Walls'], entities: [line('A1', 0, 0, 100, 0), line('A2', 0, 50, 100, 50), { type: 'CIRCLE', pairs: [[5, 'A4'], [8, 'Walls'], [10, 50], [20, 150], [30, 0], [40, 10]] }] }));
// A1 moved, A2 recoloured, the circle erased
const v2 = Buffer.from(writeAsciiDxf({ layers: ['0', 'Walls'], entities: [line('A1', 0, 10, 100, 10), line('A2', 0, 50, 100, 50, 1)] }));

/** `node` with the module log: every module of this process and of the processes and threads it starts is listed */
const loggedEnv = (log: string) => ({ MODULE_LOG: log, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${MODULE_LOG_HOOK}`.trim() });
const modulesIn = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.slice(l.indexOf(' ') + 1)) : []);
/** what must never load at run time: TypeScript sources and the tsx compiler (the hook's own two files excepted) */
const compilerOrSources = (mods: string[]) => mods.filter((u) => /\.(c|m)?tsx?$/.test(u.split('?')[0]) || /\/node_modules\/(tsx|esbuild|typescript)\//.test(u));

/** esbuild's metafile, the parts read here */
interface Metafile {
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
}
/** The sources and external imports of an output and of every output it imports statically (what loads before it runs). */
function staticClosure(meta: Metafile, output: string) {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const external = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const f of Object.keys(meta.outputs[o].inputs)) inputs.add(f);
    for (const i of meta.outputs[o].imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) external.add(i.path);
      else visit(i.path);
    }
  };
  visit(output);
  return { inputs: [...inputs], external: [...external] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
function wallMs(args: string[], env?: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, env: env ?? process.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return performance.now() - t0;
}

describe('the compiled build (npm run build, npm start)', () => {
  let dir: string;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-build-'));
    // what npm start would build first (nothing when scripts/test.mjs or an earlier run built it)
    const b = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
    expect(b.status, b.stderr).toBe(0);
  }, 300_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }, 30_000);

  it('npm start runs the compiled server on plain node: health, a drawing opened, its thumbnail, a compare; no TypeScript loaded', async () => {
    const dataDir = path.join(dir, 'data');
    const log = path.join(dir, 'modules.log');
    const admin = spawnSync(process.execPath, ['apps/server/dist/admin.mjs', 'user', 'create', '--email', 'build@example.com', '--password', 'compiled build'], { cwd: repoRoot, env: { ...process.env, ...loggedEnv(log), DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
    expect(admin.status, admin.stderr).toBe(0);

    server = await startServer({ ...loggedEnv(log), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', STORAGE_DRIVER: 'fs', SSO_ISSUER: undefined, LOG_LEVEL: 'warn' }, undefined, 'CADCloud is running', ['scripts/start.mjs']);
    expect(server.output()).not.toMatch(/\[build\]/); // built before: npm start only checked
    // the server's own process: node on the bundle, no loader on its command line
    const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(server.child.pid)], { encoding: 'utf8' }).stdout.trim();
    expect(ps).toMatch(/node .*apps\/server\/dist\/main\.mjs$/);
    expect(ps).not.toMatch(/tsx|--import|--loader/);

    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    expect((await fetch(`${server.url}/yun`)).headers.get('content-type')).toMatch(/text\/html/);

    const signIn = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'build@example.com', password: 'compiled build' } }), headers: { 'content-type': 'application/json' } })).json();
    const token = signIn.data?.token as string;
    expect(token, JSON.stringify(signIn)).toBeTruthy();
    const q = `utoken=${encodeURIComponent(token)}`;
    const call = async (p: string, data: unknown) => (await fetch(`${server!.url}${p}?${q}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();
    const upload = async (name: string, bytes: Buffer) => {
      const form = new FormData();
      form.set('filedata', new Blob([new Uint8Array(bytes)]), name);
      const r = await (await fetch(`${server!.url}/cloud/v5/file/upload?${q}`, { method: 'POST', body: form })).json();
      expect(r.rtnCode, r.msg).toBe('0000000');
      return r.bizData.id as string;
    };

    // a drawing: its scene from the scene worker, its thumbnail from the thumbnail worker
    const id = await upload('plan.dxf', v1);
    const scene = await fetch(`${server.url}/cloud/v5/drawing/scene?fileId=${id}&${q}`);
    expect(scene.status).toBe(200);
    expect((await scene.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const thumbkey = await until(async () => (await call('/cloud/v5/file/list', { folderId: '0' })).bizData.list.find((x: { id: string }) => x.id === id)?.thumbkey, 90_000);
    const thumb = await fetch(`${server.url}/cloud/v5/file/thumb/${thumbkey}?${q}`);
    expect(thumb.status).toBe(200);
    expect(Buffer.from(await thumb.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    // two versions compared in the compare worker
    const rev = await upload('plan-rev-b.dxf', v2);
    expect((await call('/cloud/v5/version/copy', { fileId: id, sourceFileId: rev })).rtnCode).toBe('0000000');
    const versions = (await call('/cloud/v5/version/history', { fileId: id })).bizData.list as { versionId: string; version: number }[];
    const changes = await call('/cloud/v5/version/compare/changes', { fileId: id, a: versions.find((v) => v.version === 1)!.versionId, b: versions.find((v) => v.version === 2)!.versionId });
    expect(changes.rtnCode, changes.msg).toBe('0000000');
    expect(changes.bizData.counts).toMatchObject({ removed: 1, modified: 2 });

    // a DWG: read by the LibreDWG process the compiled scene worker starts (dist/dwg-to-dxf.child.mjs)
    if (existsSync(sampleDwg)) {
      const dwg = await upload('example.dwg', readFileSync(sampleDwg));
      const s = await fetch(`${server.url}/cloud/v5/drawing/scene?fileId=${dwg}&${q}`);
      expect(s.status, await s.clone().text().catch(() => '')).toBe(200);
    } else console.info(`DWG through the compiled reader not checked: ${sampleDwg} absent`);

    const mods = modulesIn(log);
    expect(mods).toContain(`file://${repoRoot}/apps/server/dist/main.mjs`);
    for (const worker of ['scene.worker', 'drawing.worker', 'compare.worker', 'admin', ...(existsSync(sampleDwg) ? ['dwg-to-dxf.child'] : [])]) {
      expect(mods, `${worker} ran compiled`).toContain(`file://${repoRoot}/apps/server/dist/${worker}.mjs`);
    }
    expect(compilerOrSources(mods)).toEqual([]);
  }, 240_000);

  it('`cad info` on a DXF loads only the DXF reader, the model and the flattening: no DWG reader, scene, renderer or library', () => {
    const file = path.join(dir, 'small.dxf');
    writeFileSync(file, v1);
    const log = path.join(dir, 'cad-modules.log');
    const r = spawnSync(process.execPath, ['scripts/cad.mjs', 'info', file], { cwd: repoRoot, env: { ...process.env, ...loggedEnv(log) }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'dxf', entities: { total: 3 } });
    const mods = modulesIn(log);
    expect(compilerOrSources(mods)).toEqual([]);
    // no registry package at all (earcut came with the scene compiler, pdfkit, sharp, resvg and opentype.js with the
    // renderers and the text engine), and no child_process (the LibreDWG reader process)
    expect(mods.filter((u) => u.includes('/node_modules/'))).toEqual([]);
    expect(mods).not.toContain('node:child_process');

    // what the bundle says (esbuild's metafile): the chunks `cad.mjs` imports before it runs, and those of the
    // commands (cli/main.ts, which it imports for every command but a built `convert`), hold none of the engine's
    // other parts, and import nothing but node's own modules; the DWG reader is a dynamic import
    const meta = JSON.parse(readFileSync(path.join(repoRoot, 'packages/cad/dist/meta.json'), 'utf8')) as Metafile;
    const launcher = staticClosure(meta, 'packages/cad/dist/cad.mjs');
    expect(launcher.inputs.filter((f) => f.startsWith('packages/cad/src/') && !f.startsWith('packages/cad/src/cli/'))).toEqual([]);
    const mainChunk = Object.keys(meta.outputs).find((o) => o.endsWith('.mjs') && meta.outputs[o].inputs['packages/cad/src/cli/main.ts']);
    const commands = staticClosure(meta, mainChunk!);
    const inputs = [...launcher.inputs, ...commands.inputs];
    const external = [...launcher.external, ...commands.external];
    expect(inputs).toContain('packages/cad/src/dxf/reader.ts');
    expect(inputs.filter((f) => /^packages\/cad\/src\/(dwg|scene|render|text|compare|convert)\//.test(f) || !f.startsWith('packages/cad/src/'))).toEqual([]);
    // (node:v8: the command line's V8 flags, cli/v8-flags.ts)
    expect(external.filter((x) => !/^node:(fs|path|util|url|v8)$/.test(x))).toEqual([]);
    expect(Object.values(meta.outputs).some((o) => o.entryPoint === 'packages/cad/src/dwg/dwg-reader.ts')).toBe(true);
  });

  it('`cad convert` from the build runs the commands\' CommonJS build from its V8 code cache: the same PDF as from the sources, and a PDF back to a drawing (pdfjs-dist through the launcher\'s import)', () => {
    const file = path.join(dir, 'text.dxf');
    const text: FixtureEntity = { type: 'TEXT', pairs: [[5, 'B1'], [8, 'Walls'], [10, 10], [20, 20], [30, 0], [40, 5], [1, 'Compiled convert']] };
    writeFileSync(file, writeAsciiDxf({ layers: ['0', 'Walls'], entities: [line('A1', 0, 0, 100, 0), text] }));
    const cacheDir = path.join(repoRoot, 'packages/cad/dist/.code-cache');
    const run = (args: string[], out: string) => {
      const r = spawnSync(process.execPath, [...args, 'convert', file, out], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe(''); // no warning of node's
      return readFileSync(out, 'latin1').replace(/D:\d{14}Z/g, 'D:').replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '/ID');
    };
    const first = run(['packages/cad/dist/cad.mjs'], path.join(dir, 'built1.pdf'));
    const cached = readdirSync(cacheDir).filter((f) => f.startsWith('cad-main.cjs-'));
    expect(cached.length).toBeGreaterThan(0);
    const second = run(['packages/cad/dist/cad.mjs'], path.join(dir, 'built2.pdf'));
    // the cache was accepted (a rejected one is written again)
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('cad-main.cjs-')).map((f) => statSync(path.join(cacheDir, f)).mtimeMs)).toEqual(cached.map((f) => statSync(path.join(cacheDir, f)).mtimeMs));
    const sources = run(['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts'], path.join(dir, 'sources.pdf'));
    expect(first).toBe(sources);
    expect(second).toBe(sources);
    expect(first).toContain('/Type /Page');

    const back = spawnSync(process.execPath, ['packages/cad/dist/cad.mjs', 'convert', path.join(dir, 'built2.pdf'), path.join(dir, 'back.dxf')], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(back.status, back.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'back.dxf'), 'utf8')).toContain('Compiled convert');
  }, 120_000);

  it('`packages/cad/dist/cad` starts node from the command line\'s V8 snapshot: the same PDF as the plain bundle, a PDF back to a drawing; a missing or stale snapshot runs the plain bundle, and --if-stale builds it again', () => {
    const dist = path.join(repoRoot, 'packages/cad/dist');
    const blob = path.join(dist, 'cad.blob');
    const file = path.join(dir, 'snapshot.dxf');
    const text: FixtureEntity = { type: 'TEXT', pairs: [[5, 'B1'], [8, 'Walls'], [10, 10], [20, 20], [30, 0], [40, 5], [1, 'From the snapshot']] };
    writeFileSync(file, writeAsciiDxf({ layers: ['0', 'Walls'], entities: [line('A1', 0, 0, 100, 0), text, { type: 'CIRCLE', pairs: [[5, 'A4'], [8, 'Walls'], [10, 50], [20, 150], [30, 0], [40, 10]] }] }));
    // `sh -x`: the shell traces the command the launcher executes
    const launch = (args: string[]) => {
      const r = spawnSync('sh', ['-x', path.join(dist, 'cad'), ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      const trace = r.stderr.split('\n').filter((l) => l.startsWith('+'));
      // nothing else on stderr: no warning of node's (the snapshot's experimental import is its own business)
      expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('+'))).toEqual([]);
      return trace.find((l) => l.startsWith('+ exec '))!;
    };
    const pdf = (out: string) => readFileSync(out, 'latin1').replace(/D:\d{14}Z/g, 'D:').replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '/ID');
    const plain = spawnSync(process.execPath, ['packages/cad/dist/cad.mjs', 'convert', file, path.join(dir, 'plain.pdf'), '--all-layouts'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(plain.status, plain.stderr).toBe(0);

    expect(launch(['convert', file, path.join(dir, 'snap.pdf'), '--all-layouts'])).toMatch(/ --snapshot-blob \S*cad\.blob convert /);
    expect(pdf(path.join(dir, 'snap.pdf'))).toBe(pdf(path.join(dir, 'plain.pdf')));
    // pdfjs-dist, an ES module, imported from the snapshot's code
    expect(launch(['convert', path.join(dir, 'snap.pdf'), path.join(dir, 'snap-back.dxf')])).toMatch(/--snapshot-blob/);
    expect(readFileSync(path.join(dir, 'snap-back.dxf'), 'utf8')).toContain('From the snapshot');

    // a blob older than the bundle it was built from (or than node): the plain bundle, the same PDF
    const built = statSync(blob).mtime;
    // older than everything (not "an hour ago": in a checkout built more than an hour before, cad-snapshot.cjs and
    // the sources are older than that, and the blob would still count as fresh)
    const past = new Date('2000-01-01T00:00:00Z');
    utimesSync(blob, past, past);
    try {
      expect(launch(['convert', file, path.join(dir, 'stale.pdf'), '--all-layouts'])).toMatch(/ \S*cad\.mjs convert /);
      expect(pdf(path.join(dir, 'stale.pdf'))).toBe(pdf(path.join(dir, 'plain.pdf')));
      // and the build sees the target stale: --if-stale builds the snapshot again, which the launcher then uses
      const b = spawnSync(process.execPath, ['scripts/build.mjs', 'cad', '--if-stale'], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
      expect(b.status, b.stderr).toBe(0);
      expect(b.stderr).toMatch(/\[build\] cad/);
    } finally {
      if (statSync(blob, { throwIfNoEntry: false })?.mtimeMs === past.getTime()) utimesSync(blob, built, built);
    }
    expect(statSync(blob).mtimeMs).toBeGreaterThan(past.getTime());
    expect(launch(['convert', file, path.join(dir, 'rebuilt.pdf'), '--all-layouts'])).toMatch(/--snapshot-blob/);
    expect(pdf(path.join(dir, 'rebuilt.pdf'))).toBe(pdf(path.join(dir, 'plain.pdf')));
  }, 360_000);

  it('the snapshot blob keeps the compiled code of only those of node\'s modules a conversion compiles after start, and its bundle is one byte a character', async () => {
    const { SNAPSHOT_BUILTIN_CACHE } = (await import('./build.mjs' as string)) as { SNAPSHOT_BUILTIN_CACHE: ReadonlySet<string> };
    const dist = path.join(repoRoot, 'packages/cad/dist');
    const file = path.join(dir, 'trimmed.dxf');
    writeFileSync(file, v1);
    const run = (args: string[]) => {
      const r = spawnSync(path.join(dist, 'cad'), args, { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_DEBUG_NATIVE: 'CODE_CACHE' } });
      expect(r.status, r.stderr).toBe(0);
      return r.stderr;
    };
    for (const log of [run(['convert', file, path.join(dir, 'trimmed.pdf'), '--all-layouts']), run(['convert', path.join(dir, 'trimmed.pdf'), path.join(dir, 'trimmed-back.dxf')])]) {
      // node 20 puts all its ~320 modules' code in a snapshot it builds (scripts/build.mjs trimBuiltinCodeCache)
      expect(Number(/snapshot contains (\d+) code cache/.exec(log)?.[1])).toBe(SNAPSHOT_BUILTIN_CACHE.size);
      // and each module these conversions compile after the start finds its code there
      expect(log).toMatch(/Compiling \S+ with code cache/);
      expect(log.match(/Compiling \S+ without code cache/g) ?? []).toEqual([]);
    }
    // characters beyond Latin-1 escaped (a two-byte source doubles its share of the snapshot's heap)
    expect(readFileSync(path.join(dist, 'cad-snapshot.cjs'), 'utf8').match(/[^\0-\xff]/g) ?? []).toEqual([]);
  }, 120_000);

  it('`npm run cad -- info` on a small DXF adds at most 60 ms to a bare node\'s start', () => {
    const file = path.join(dir, 'small.dxf');
    writeFileSync(file, v1);
    // The spec's 150 ms is for a machine where node itself starts in ~55 ms (this one when quiet): 95 ms of our own.
    // What our program adds to node's start is what this checks, and more tightly: 60 ms. Each is timed 15 times in
    // turn and the fastest run of each compared, as a loaded machine (tests in parallel) slows single runs by 100 ms
    // and more, the fastest of 15 far less; what load still adds stretches our part as it stretches node's own, so the
    // 60 ms grow with bare node's time past 55 ms. Measured on a quiet machine: bare ~55 ms, `cad info` ~80 ms (~92 ms
    // before the commands were split and the staleness check read the build's inputs instead of walking the sources).
    const bare: number[] = [];
    const cad: number[] = [];
    for (let i = 0; i < 15; i++) {
      bare.push(wallMs(['-e', '0']));
      cad.push(wallMs(['scripts/cad.mjs', 'info', file]));
    }
    const [b, c] = [Math.min(...bare), Math.min(...cad)];
    console.info(`cad info: fastest ${c.toFixed(0)} ms, median ${median(cad).toFixed(0)} ms of 15; bare node fastest ${b.toFixed(0)} ms, median ${median(bare).toFixed(0)} ms; ratio ${(c / b).toFixed(2)}`);
    expect(c - b).toBeLessThan(60 * Math.max(1, b / 55));
  }, 120_000);
});
