import Module, { createRequire } from 'node:module';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/**
 * CommonJS packages compiled from a V8 code cache (Node 20 has no module compile cache). The command line is a fresh
 * process per conversion: compiling pdfkit (237 KB) and opentype.js (477 KB) took ~10–20 ms of each, and every
 * function of theirs a conversion calls was compiled again on its first call. With a cache written at the end of the
 * first run (after those calls, so their code is in it) the next runs deserialise instead. V8 checks a cache against
 * the source and its own version and flags and ignores one that does not match (then a new one is written); the
 * file's name also carries the source's size and time and node's version. Off unless a process turns it on
 * (enableCodeCache: the command line, into a folder beside its bundle): the server's workers live long and
 * compile once.
 */
let cacheDir: string | undefined;
const toWrite: { script: vm.Script; file: string }[] = [];

interface ModuleInternals {
  _cache: Record<string, Module>;
  _nodeModulePaths(dir: string): string[];
  wrap(source: string): string;
}
const M = Module as unknown as ModuleInternals;

/** Turns the cache on for this process: read from and written to `dir` (made when first written). */
export function enableCodeCache(dir: string) {
  cacheDir = dir;
}

/** Writes the caches of the packages compiled without one (call once the work is done: their functions are compiled by then). */
export function saveCodeCaches() {
  if (!cacheDir || !toWrite.length) return;
  try {
    mkdirSync(cacheDir, { recursive: true });
    for (const { script, file } of toWrite.splice(0)) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, file);
    }
  } catch {
    // a read-only install: no cache, the same code
  }
}

/**
 * Where a script compiled here imports an ES module: `import()` in a `vm.Script` needs node's experimental VM
 * modules, so scripts built for it (scripts/build.mjs, `cad-main.cjs`) call this instead, which node's own loader
 * answers from the ES module that installed it (the same folder).
 */
export function installEsmImport(load: (id: string) => Promise<unknown>) {
  (globalThis as Record<symbol, unknown>)[Symbol.for('cadcloud.import')] = load;
}

/** `require(id)` from the module at `parentUrl`, through the code cache when it is on (and `id` not loaded yet). */
export function requireCached(id: string, parentUrl: string): unknown {
  const req = createRequire(parentUrl);
  if (!cacheDir) return req(id);
  const filename = req.resolve(id);
  if (M._cache[filename] || !/\.c?js$/.test(filename)) return req(id);
  const source = readFileSync(filename, 'utf8');
  const st = statSync(filename);
  const file = path.join(cacheDir, `${path.basename(filename)}-${hash(filename)}-${st.size}-${Math.round(st.mtimeMs)}-${process.version}-${process.arch}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(file);
  } catch {
    // first run: written at the end
  }
  const script = new vm.Script(M.wrap(source), { filename, cachedData });
  const m = new Module(filename);
  m.filename = filename;
  m.paths = M._nodeModulePaths(path.dirname(filename));
  M._cache[filename] = m;
  try {
    (script.runInThisContext() as (...a: unknown[]) => void).call(m.exports, m.exports, createRequire(filename), m, filename, path.dirname(filename));
  } catch (e) {
    delete M._cache[filename];
    throw e;
  }
  m.loaded = true;
  if (!cachedData || script.cachedDataRejected) toWrite.push({ script, file });
  return m.exports;
}

/** a short hash of the path (two installs of one version do not share a file) */
function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
