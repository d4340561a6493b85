#!/usr/bin/env node
// `npm run build`: everything the product runs, as plain JavaScript, so no TypeScript compiler loads at run time.
//   apps/server/dist   the server (API, jobs and the built-in login site), the admin CLI, the worker threads and the
//                      DWG reader process they start
//   packages/cad/dist  the `cad` command line and the DWG reader process it starts
//   apps/web/dist      the web app (Vite)
// Each entry is bundled by esbuild with our workspace packages inside and every registry package left to node at run
// time (native addons, WebAssembly and the font files keep their places in node_modules). Worker and child entries
// are bundled under the names the code that starts them looks for beside its own bundle (infra/workers/worker-entry.ts,
// packages/cad/src/isolation/entry-file.ts). `--if-stale` builds only what is missing or older than its sources
// (`npm start`, `npm run cad`, `npm run admin`); `--node` leaves the web app out.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dwgChild = {
  'dwg-to-dxf.child': 'packages/cad/src/dwg/dwg-to-dxf.child.mjs',
  'reader-self-watch.thread': 'packages/cad/src/dwg/reader-self-watch.thread.mjs',
};

/** What is built, where, and from which sources (a target is stale when any of them is newer than its output). */
export const targets = [
  {
    name: 'cad',
    outdir: 'packages/cad/dist',
    entries: { cad: 'packages/cad/src/cli/cad.cli.ts', ...dwgChild },
    // the commands again as one CommonJS file, which `cad.mjs` compiles from a V8 code cache for `convert`
    // (packages/cad/src/cli/cad.cli.ts; node has no compile cache for ES modules)
    cjsEntries: { 'cad-main': 'packages/cad/src/cli/main.ts', 'cad-snapshot': 'packages/cad/src/cli/cad-snapshot.ts' },
    // `cad.blob`, a V8 start-up snapshot of `cad-snapshot.cjs`, and `cad`, the launcher that starts node from it
    snapshot: { bundle: 'cad-snapshot', blob: 'cad.blob', launcher: 'cad', fallback: 'cad.mjs' },
    sources: ['packages/cad/src'],
  },
  {
    name: 'model3d',
    outdir: 'packages/model3d/dist',
    // the DWG reader process beside the worker: a DWG's solids are read by the drawing engine (packages/cad)
    entries: { model3d: 'packages/model3d/src/cli/model3d.cli.ts', 'model3d.worker': 'packages/model3d/src/worker/convert.worker.ts', ...dwgChild },
    sources: ['packages/model3d/src', 'packages/cad/src'],
  },
  {
    name: 'server',
    outdir: 'apps/server/dist',
    entries: {
      main: 'apps/server/src/main.ts',
      admin: 'apps/server/src/admin/admin.main.ts',
      'scene.worker': 'apps/server/src/modules/drawings/scene.worker.mjs',
      'compare.worker': 'apps/server/src/modules/compare/compare.worker.mjs',
      'convert.worker': 'apps/server/src/modules/conversions/convert.worker.mjs',
      'drawing.worker': 'apps/server/src/modules/thumbnails/render/drawing.worker.ts',
      'sevenzip.worker': 'apps/server/src/modules/unzip/sevenzip.worker.ts',
      'model3d.worker': 'packages/model3d/src/worker/convert.worker.ts',
      ...dwgChild,
    },
    sources: ['apps/server/src', 'apps/sso/src', 'packages/cad/src', 'packages/model3d/src', 'packages/contracts/src', 'packages/i18n/src'],
  },
  {
    name: 'web',
    outdir: 'apps/web/dist',
    sources: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contracts/src', 'packages/i18n/src'],
  },
];
// a change of dependencies rebuilds everything
const shared = ['package-lock.json', 'package.json', 'apps/server/package.json', 'apps/sso/package.json', 'apps/web/package.json', 'packages/cad/package.json', 'packages/model3d/package.json', 'scripts/build.mjs'];

function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}
/** oldest output file of a target, 0 when one is missing (the web app's index.html is written last by Vite) */
function builtAt(t) {
  const files = t.entries ? [...Object.keys(t.entries).map((n) => `${n}.mjs`), ...Object.keys(t.cjsEntries ?? {}).map((n) => `${n}.cjs`), ...(t.snapshot ? [t.snapshot.blob, t.snapshot.launcher] : [])] : ['index.html'];
  let oldest = Infinity;
  for (const f of files) {
    const p = path.join(root, t.outdir, f);
    if (!existsSync(p)) return 0;
    oldest = Math.min(oldest, statSync(p).mtimeMs);
  }
  return oldest;
}
/**
 * Whether a target must be built: its output is missing or older than one of its sources. A bundled target checks
 * the files its last build read (INPUTS, from esbuild's metafile) instead of walking its source folders: a stat of
 * each (~1 ms for the `cad` CLI) where the walk took 8–20 ms of every `npm run cad`. That is as exact: a file added
 * since changes the bundle only through an edit of a file already in it, and a file of it deleted is missing here.
 */
export function isStale(t) {
  const built = builtAt(t);
  if (!built) return true;
  const inputs = t.entries ? readInputs(t) : null;
  if (!inputs) return [...t.sources, ...shared].some((s) => newestMtime(path.join(root, s)) > built);
  return [...inputs, ...shared].some((s) => {
    const st = statSync(path.join(root, s), { throwIfNoEntry: false });
    return !st || st.mtimeMs > built;
  });
}
/** the workspace files of a bundled target's last build (none recorded: null, the folders are walked) */
function readInputs(t) {
  try {
    return JSON.parse(readFileSync(path.join(root, t.outdir, INPUTS), 'utf8'));
  } catch {
    return null;
  }
}
/** beside a bundled target's output: the esbuild metafile (what each output holds and imports; read by tests) */
export const METAFILE = 'meta.json';
/** the same for its CommonJS entries (`cjsEntries`) */
export const CJS_METAFILE = 'meta-cjs.json';
/** and the workspace files its build read, for isStale */
const INPUTS = 'inputs.json';

/**
 * Bare imports: our workspace packages (their `exports` point at TypeScript) are bundled; every other package stays
 * an import node resolves at run time — by its name where node finds the same package from the bundle's folder, by a
 * relative path where it would not (apps/sso's own node_modules, e.g. its oidc-provider, are not visible from
 * apps/server/dist).
 */
function registryPackagesOutside(outdir, cjs = false) {
  return {
    name: 'registry-packages-outside',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (a) => {
        if (a.pluginData?.inner || a.path.startsWith('@cadcloud/') || a.path.startsWith('node:')) return undefined;
        // a CommonJS bundle require()s what the sources import statically: resolved as node's require() will
        const kind = cjs && a.kind === 'import-statement' ? 'require-call' : a.kind;
        const opts = { kind, pluginData: { inner: true } };
        const from = await b.resolve(a.path, { ...opts, resolveDir: a.resolveDir });
        // and takes an ES-module-only package (earcut) inside: require() of an ES module is still experimental in
        // node 20; one imported dynamically (pdfjs-dist) stays node's import()
        if (kind !== a.kind && (from.errors.length || isEsmFile(from.path))) return undefined;
        if (from.errors.length || !from.path) return { path: a.path, external: true };
        // from the package folder above the output: the same node_modules walk as from the output folder, which does
        // not exist yet
        const atOut = await b.resolve(a.path, { ...opts, resolveDir: path.dirname(outdir) });
        if (!atOut.errors.length && atOut.path === from.path) return { path: a.path, external: true };
        let rel = path.relative(outdir, from.path).split(path.sep).join('/');
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return { path: rel, external: true };
      });
    },
  };
}

/** whether node loads a file as an ES module (.mjs, or .js under a package.json of `"type": "module"`) */
function isEsmFile(file) {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) return JSON.parse(readFileSync(pj, 'utf8')).type === 'module';
  }
  return false;
}

/**
 * The top of a CommonJS bundle: where it is a start-up snapshot's entry (cad-snapshot), its `require` is node's
 * snapshot builder's, which knows node's own modules only. The registry packages the bundle requires at run time
 * (sharp, resvg, polygon-clipping: native addons and packages loaded only by some commands) are then required from
 * the bundle's place by node's loader, in the process started from the snapshot; while the snapshot is built that is
 * an error (user code run by node's loader there makes every process started from it fail its start-up checks).
 * A module's own `require` (cad-main, through require-cached.ts) has `resolve` and is left as it is.
 */
const SNAPSHOT_REQUIRE = `if (typeof require.resolve !== "function") {
  var __snapshotBuiltin = require;
  require = (id) => {
    const builtin = process.getBuiltinModule(id);
    if (builtin) return builtin;
    if (__snapshotBuiltin("node:v8").startupSnapshot.isBuildingSnapshot()) throw new Error(id + " cannot be required while the start-up snapshot is built");
    return __snapshotBuiltin("node:module").createRequire(__filename)(id);
  };
}`;

async function buildNode(t) {
  const { build } = await import('esbuild');
  const outdir = path.join(root, t.outdir);
  rmSync(outdir, { recursive: true, force: true });
  // both builds of a target: node 20, node's own resolution, names kept
  const common = {
    absWorkingDir: root,
    metafile: true,
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    // node's own resolution: no bundler-only `module` condition or field
    conditions: [],
    mainFields: ['main'],
    // as tsx does: code and libraries that read a function's or class's name get the name it was written with
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  };
  const { metafile } = await build({
    ...common,
    entryPoints: t.entries,
    outExtension: { '.js': '.mjs' },
    // shared code in chunks beside the entries (the same folder: code finds its worker entries beside itself), and
    // what a command imports only when it runs (the renderers of `cad render`) stays unloaded until then
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    plugins: [registryPackagesOutside(outdir)],
  });
  writeFileSync(path.join(outdir, METAFILE), JSON.stringify(metafile));
  const inputs = new Set(Object.keys(metafile.inputs));
  if (t.cjsEntries) {
    // one file per entry (no chunks in CommonJS), everything it imports dynamically inlined behind esbuild's lazy
    // module wrappers; `import.meta` is the file's own place, as in the ES module build
    const cjs = await build({
      ...common,
      entryPoints: t.cjsEntries,
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      banner: { js: `${SNAPSHOT_REQUIRE}\nvar __import_meta_url = require("node:url").pathToFileURL(__filename).href, __esmi = (id) => (globalThis[Symbol.for("cadcloud.import")] ?? ((i) => import(i)))(id);` },
      define: { 'import.meta.url': '__import_meta_url', 'import.meta.dirname': '__dirname' },
      plugins: [registryPackagesOutside(outdir, true)],
    });
    // import() of an ES module (pdfjs-dist, node's own modules) through the loader the ES module launcher installs
    // (require-cached.ts installEsmImport): a vm.Script's own import() needs node's experimental VM modules. Same
    // length, so the source map still holds.
    // Characters beyond Latin-1 (esbuild leaves them in comments and regular expressions: − … →) as \u escapes,
    // the same code: V8 keeps a source without any as one byte a character, else two, and the source stays in the
    // heap (in the snapshot's, 1.5 MB instead of 0.75).
    for (const name of Object.keys(t.cjsEntries)) {
      const file = path.join(outdir, `${name}.cjs`);
      writeFileSync(file, latin1Source(readFileSync(file, 'utf8').replaceAll('import("', '__esmi("')));
    }
    writeFileSync(path.join(outdir, CJS_METAFILE), JSON.stringify(cjs.metafile));
    for (const f of Object.keys(cjs.metafile.inputs)) inputs.add(f);
  }
  if (t.snapshot) await buildSnapshot(outdir, t.snapshot);
  // written last, so a build that failed half way leaves none and the next check walks the folders
  writeFileSync(path.join(outdir, INPUTS), JSON.stringify([...inputs].filter((f) => !f.includes('node_modules/'))));
}

/**
 * `source` with its characters beyond Latin-1 written as \u escapes (UTF-16 units), which mean the same in strings,
 * template literals (but String.raw), regular expressions, identifiers and comments; none follows a backslash in
 * the bundles (an escaped one is left as it is). packages/cad/src/require-cached.ts does the same to the packages
 * the snapshot loads.
 */
function latin1Source(source) {
  return source.replace(/(?<!\\)[^\0-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The node flags of the command line's launcher, given both when its snapshot is built and when node is started
 * from it (V8 refuses a snapshot built under other flags). The interrupt budget is cli/v8-flags.ts's, which the
 * snapshot's code also sets, to the same value. `--single-threaded`: V8's garbage collection and compiles on the
 * main thread, without helper threads: a cold floor-plan PDF blocked ~185 times waiting for them (a bare node start
 * ~17), and on a loaded machine every wait is a trip to the back of the run queue; its CPU time was no higher.
 * `--max-semi-space-size=2` (MB; V8 grows the young generation to 16): fewer fresh pages touched, each a page fault
 * (~1,000 fewer of ~12,300 for the floor plan, ~6 % less CPU); the generated 10 MB drawing's CPU within noise.
 * `--v8-pool-size=1`: node still starts V8's worker threads (4 by default) under `--single-threaded`, which then get
 * nothing to do, and its main thread waits for each to have started: 3 threads fewer, the main thread's waits at
 * start 2.4 → 0.8 ms (strace, `--help`), ~6 fewer voluntary context switches a run (each a wait for a core on a busy
 * machine). Not a V8 flag: a snapshot built without it would start as well.
 */
export const SNAPSHOT_NODE_FLAGS = ['--interrupt-budget=1000000', '--single-threaded', '--max-semi-space-size=2', '--v8-pool-size=1'];

/**
 * The command line's V8 start-up snapshot (packages/cad/src/cli/cad-snapshot.ts) built with this node, and its
 * launcher: a POSIX shell script (a shell starts in ~1 ms, a second node in ~50) that runs node from the snapshot,
 * or the plain bundle (`fallback`) when the blob is missing or older than the node binary or the bundle it was built
 * from (node refuses a snapshot of another version: a node upgraded since gets the plain bundle until the next
 * build). The snapshot holds this folder's absolute paths: a moved checkout builds again. Either way without
 * NODE_EXTRA_CA_CERTS, which only TLS connections need (the command line makes none; the server keeps it).
 */
async function buildSnapshot(outdir, s) {
  const { spawnSync } = await import('node:child_process');
  const blob = path.join(outdir, s.blob);
  const r = spawnSync(process.execPath, [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', blob, '--build-snapshot', path.join(outdir, `${s.bundle}.cjs`)], { cwd: outdir, encoding: 'utf8', timeout: 120_000 });
  // (node warns on stderr about built-in modules it has not verified in snapshots: the test of the launcher runs the
  // conversions it makes against the plain bundle's)
  if (r.status !== 0) throw new Error(`building the start-up snapshot ${s.blob} failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
  trimBuiltinCodeCache(blob, spawnSync);
  const q = (x) => `'${x.replaceAll("'", "'\\''")}'`;
  const launcher = [
    '#!/bin/sh',
    `# ${s.launcher}: written by scripts/build.mjs. Starts node from the V8 start-up snapshot ${s.blob} (modules loaded, fonts`,
    `# read, code compiled), else runs ${s.fallback} when the snapshot is missing or older than node or ${s.bundle}.cjs.`,
    `node=${q(process.execPath)}`,
    '# The command line opens no TLS connection: node 20 reads and parses NODE_EXTRA_CA_CERTS (where set; some hosts',
    '# point it at the whole system bundle) and builds its root store at every start, ~20 % of a cold PDF export.',
    'unset NODE_EXTRA_CA_CERTS',
    'case "$0" in */*) d="${0%/*}" ;; *) d=. ;; esac',
    `if [ -f "$d/${s.blob}" ] && [ ! "$node" -nt "$d/${s.blob}" ] && [ ! "$d/${s.bundle}.cjs" -nt "$d/${s.blob}" ]; then`,
    `  exec "$node" ${SNAPSHOT_NODE_FLAGS.join(' ')} --snapshot-blob "$d/${s.blob}" "$@"`,
    'fi',
    `exec "$node" ${SNAPSHOT_NODE_FLAGS.join(' ')} "$d/${s.fallback}" "$@"`,
    '',
  ].join('\n');
  writeFileSync(path.join(outdir, s.launcher), launcher, { mode: 0o755 });
}

/**
 * Node's own modules a process started from the command line's snapshot compiles after its start (not in the
 * snapshot's heap): found with NODE_DEBUG_NATIVE=CODE_CACHE on `convert` to PDF, PNG and from a PDF to DXF, with
 * stdout a pipe and a terminal. Their compiled code stays in the blob; a module not named here still loads, compiled
 * from its source.
 */
export const SNAPSHOT_BUILTIN_CACHE = new Set([
  'net', 'tty', 'internal/tty', 'diagnostics_channel', 'internal/util/colors', 'internal/fs/sync_write_stream', 'internal/process/report',
  'child_process', 'internal/child_process', 'internal/socket_list', 'dgram', 'internal/dgram', 'internal/streams/lazy_transform',
  'crypto', ...['certificate', 'cipher', 'diffiehellman', 'hash', 'hashnames', 'hkdf', 'keygen', 'keys', 'pbkdf2', 'random', 'scrypt', 'sig', 'util', 'x509'].map((m) => `internal/crypto/${m}`),
  // a PDF read back (pdfjs-dist, an ES module, and what it imports)
  ...['initialize_import_meta', 'load', 'module_job', 'module_map', 'translators'].map((m) => `internal/modules/esm/${m}`),
  ...['adapters', 'compression', 'readablestream', 'writablestream'].map((m) => `internal/webstreams/${m}`),
  'internal/deps/undici/undici', 'http', 'http2', 'internal/http', 'internal/http2/compat', 'internal/http2/core', 'internal/http2/util',
  '_http_agent', '_http_client', '_http_common', '_http_incoming', '_http_outgoing', '_http_server', 'tls', '_tls_common', '_tls_wrap',
  'internal/tls/secure-context', 'internal/tls/secure-pair', 'internal/js_stream_socket', 'internal/freelist', 'internal/file',
  'worker_threads', 'internal/worker', 'internal/worker/io', 'internal/worker/messaging', 'internal/error_serdes', 'util/types',
  'assert', 'internal/assert/assertion_error', 'internal/assert/calltracker', 'internal/assert/utils',
]);

/**
 * Drops from a snapshot blob the compiled code of node's own modules (2.8 of its 9.1 MB) but for
 * SNAPSHOT_BUILTIN_CACHE's. Node 20's snapshot builder compiles every one of its ~320 modules into the blob, though
 * the modules a conversion runs are already in the snapshot's heap. Each byte of the blob costs three fresh pages'
 * worth at every start (node reads the file into a zeroed buffer and copies each part out of it), and on this
 * machine clearing fresh pages was ~30 % of a cold PDF export's CPU (perf: clear_page_erms): the floor plan's page
 * faults 11,550 → 10,160. The blob's layout (node 20's src/node_snapshotable.cc) ends with that list: a count, then
 * per module its id and its code, each a 64-bit length and the bytes. The list is found as the one that ends exactly
 * at the file's end and checked by starting node from the new blob; a blob this does not recognise (another node)
 * is kept whole.
 */
function trimBuiltinCodeCache(blob, spawnSync) {
  const b = readFileSync(blob);
  const u64 = (at) => (at + 8 <= b.length ? Number(b.readBigUInt64LE(at)) : -1);
  /** the list's entries when one starts at `at` and ends at the file's end */
  const listAt = (at) => {
    const count = u64(at);
    if (count < 1 || count > 10_000) return undefined;
    const entries = [];
    for (let i = 0, p = at + 8; i < count; i++) {
      const idLength = u64(p);
      if (idLength < 1 || idLength > 200) return undefined;
      const id = b.toString('latin1', p + 8, p + 8 + idLength);
      if (!/^[\w/.:-]+$/.test(id)) return undefined;
      const codeLength = u64(p + 8 + idLength);
      if (codeLength < 0 || p + 16 + idLength + codeLength > b.length) return undefined;
      entries.push({ id, start: p, end: p + 16 + idLength + codeLength });
      p += 16 + idLength + codeLength;
      if (i === count - 1 && p !== b.length) return undefined;
    }
    return entries;
  };
  // the metadata (magic, type, node's version, arch and platform, V8's cache tag and the flags), then V8's blob (a
  // 32-bit size and the bytes), node's isolate and environment records (small), then the list
  let p = 5;
  for (let i = 0; i < 3; i++) p += 8 + Math.max(0, u64(p));
  const v8Size = p + 12 <= b.length ? b.readInt32LE(p + 8) : -1;
  let found;
  for (let at = p + 12 + v8Size; v8Size > 0 && at < Math.min(b.length, p + 12 + v8Size + 1_000_000) && !found; at++) found = listAt(at) && at;
  const entries = found ? listAt(found) : undefined;
  if (!entries) return process.stderr.write(`\n[build] ${path.basename(blob)}: node's code cache list not found, the blob kept whole\n`);
  const kept = entries.filter((e) => SNAPSHOT_BUILTIN_CACHE.has(e.id));
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(kept.length));
  const trimmed = `${blob}.trimmed`;
  writeFileSync(trimmed, Buffer.concat([b.subarray(0, found), count, ...kept.map((e) => b.subarray(e.start, e.end))]));
  // started from it with no command: the usage, exit 2 (a blob node cannot read ends otherwise)
  const r = spawnSync(process.execPath, [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', trimmed], { encoding: 'utf8', timeout: 60_000 });
  if (r.status === 2 && r.stderr.includes('usage')) return renameSync(trimmed, blob);
  rmSync(trimmed, { force: true });
  process.stderr.write(`\n[build] ${path.basename(blob)}: node did not start from the trimmed blob (exit ${r.status ?? r.signal}), the blob kept whole\n`);
}

async function buildWeb() {
  // loaded here: `npm run cad` imports this file for its staleness check only
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
}

/** Builds the targets named (all by default); with `ifStale` only those whose output is missing or old. */
export async function buildTargets({ names = targets.map((t) => t.name), ifStale = false, quiet = false } = {}) {
  const built = [];
  for (const t of targets.filter((x) => names.includes(x.name))) {
    if (ifStale && !isStale(t)) continue;
    const t0 = performance.now();
    if (!quiet) process.stderr.write(`[build] ${t.name} → ${t.outdir} …`);
    if (t.entries) await buildNode(t);
    else await buildWeb();
    if (!quiet) process.stderr.write(` ${Math.round(performance.now() - t0)} ms\n`);
    built.push(t.name);
  }
  return built;
}

/**
 * Runs a compiled entry in this process (`npm run cad`, `npm run admin`): built first when stale, so a fresh clone or
 * an edited source never runs old code. The entry reads its arguments from process.argv as when run directly.
 */
export async function runCompiled(name, entry) {
  const t = targets.find((x) => x.name === name);
  try {
    await buildTargets({ names: [name], ifStale: true });
  } catch (e) {
    console.error(`[build] ${e?.message ?? e}`);
    process.exit(1);
  }
  await import(pathToFileURL(path.join(root, t.outdir, `${entry}.mjs`)).href);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  try {
    await buildTargets({ names: names.length ? names : args.includes('--node') ? ['cad', 'model3d', 'server'] : undefined, ifStale: args.includes('--if-stale') });
  } catch (e) {
    console.error(e?.message ?? e);
    process.exit(1);
  }
}
