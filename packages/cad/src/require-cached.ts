import Module, { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startupSnapshot } from 'node:v8';
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

/**
 * What a package's own requires get instead of the module named: `instead` a value given here, `onUse` a stand-in that
 * loads the module when first used (a property read, a call or `new`). For the package required and the modules it
 * requires in turn, each loaded here for the first time.
 */
export interface RequireHooks {
  instead?: Record<string, unknown>;
  onUse?: ReadonlySet<string>;
}

/**
 * `require(id)` from the module at `parentUrl`, through the code cache when it is on (and `id` not loaded yet), with
 * `hooks` for the requires of what it loads. While a start-up snapshot is built (the command line's, cad-snapshot.ts)
 * node's module loader must not run user code (a process started from such a snapshot fails its start-up checks): the
 * package is then loaded by snapshotRequire.
 */
export function requireCached(id: string, parentUrl: string, hooks: RequireHooks = {}): unknown {
  if (startupSnapshot.isBuildingSnapshot()) return snapshotRequire(id, path.dirname(fileURLToPath(parentUrl)), hooks, new Map());
  if (!hooks.instead && !hooks.onUse) return requireFromCache(id, parentUrl);
  // node's module loader hook for the length of this one require
  const M = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const load = M._load;
  M._load = function (request, parent, isMain) {
    if (hooks.instead && request in hooks.instead) return hooks.instead[request];
    if (!hooks.onUse?.has(request)) return load.call(this, request, parent, isMain);
    return standIn(() => load.call(M, request, parent, isMain) as object);
  };
  try {
    return requireFromCache(id, parentUrl);
  } finally {
    M._load = load;
  }
}

/** A stand-in for a module that `load`s it when first used (a property read, a call or `new`). */
function standIn(load: () => object): unknown {
  let real: object | undefined;
  const get = () => (real ??= load());
  return new Proxy(function stand() {}, {
    get: (_, key) => Reflect.get(get(), key),
    has: (_, key) => Reflect.has(get(), key),
    apply: (_, self, args) => Reflect.apply(get() as (...a: unknown[]) => unknown, self, args),
    construct: (_, args) => Reflect.construct(get() as new (...a: unknown[]) => object, args),
  });
}

function requireFromCache(id: string, parentUrl: string): unknown {
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

/**
 * A CommonJS package loaded while a start-up snapshot is built, without node's module loader: its files compiled
 * here, node's own modules from process.getBuiltinModule, and what `hooks` name as they say. What must wait for the
 * snapshot's process is deferred to there: `onUse` modules are loaded by node's loader at their first use, and
 * `createRequire` (of node:module, which pdfkit calls at its top for its standard fonts) hands out a require that
 * starts node's loader at its first call. Anything else a package requires is an error here, at build time.
 */
function snapshotRequire(id: string, fromDir: string, hooks: RequireHooks, loaded: Map<string, unknown>): unknown {
  if (hooks.instead && id in hooks.instead) return hooks.instead[id];
  if (hooks.onUse?.has(id)) return standIn(() => createRequire(path.join(fromDir, 'noop.js'))(id) as object);
  if (id === 'module' || id === 'node:module') return { ...Module, createRequire: (from: string | URL) => (request: string) => createRequire(from)(request) };
  const builtin = process.getBuiltinModule(id);
  if (builtin) return builtin;
  const filename = resolvePackageFile(id, fromDir);
  if (loaded.has(filename)) return (loaded.get(filename) as { exports: unknown }).exports;
  if (filename.endsWith('.json')) return JSON.parse(readFileSync(filename, 'utf8'));
  const m = { exports: {} as unknown };
  loaded.set(filename, m);
  const dir = path.dirname(filename);
  const run = vm.compileFunction(latin1Source(readFileSync(filename, 'utf8')), ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  run.call(m.exports, m.exports, (r: string) => snapshotRequire(r, dir, hooks, loaded), m, filename, dir);
  return m.exports;
}

/**
 * A package's source with its characters beyond Latin-1 as \u escapes (the same code in strings, regular
 * expressions and comments, where opentype.js has its ~1,000: Mac encodings' tables): V8 keeps the source of a
 * script in its heap, as one byte a character when it has none, else two, and the snapshot holds the heap — opentype.js
 * 0.95 → 0.48 MB of it. An escaped character (after a backslash) is left as it is. scripts/build.mjs does the same
 * to its bundles.
 */
function latin1Source(source: string): string {
  const escaped = source.replace(/(?<!\\)[^\0-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // made again from its bytes: a string cut from a two-byte one stays two-byte in V8 whatever it holds
  return Buffer.from(escaped, 'latin1').toString('latin1');
}

/** A relative file, or a package's CommonJS entry (its exports' `node`/`require` for ".", else its main), from `fromDir` up. */
function resolvePackageFile(id: string, fromDir: string): string {
  if (id.startsWith('./') || id.startsWith('../') || path.isAbsolute(id)) {
    const base = path.resolve(fromDir, id);
    const found = ['', '.js', '.json', '/index.js'].map((ext) => base + ext).find((f) => existsSync(f) && statSync(f).isFile());
    if (found) return found;
  } else {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const pkgDir = path.join(dir, 'node_modules', id);
      if (existsSync(path.join(pkgDir, 'package.json'))) {
        const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { main?: string; exports?: unknown };
        const dot = typeof pkg.exports === 'object' && pkg.exports ? ((pkg.exports as Record<string, unknown>)['.'] ?? pkg.exports) : pkg.exports;
        const entry = typeof dot === 'string' ? dot : conditional(dot) ?? pkg.main ?? 'index.js';
        return resolvePackageFile(`./${entry.replace(/^\.\//, '')}`, pkgDir);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  throw new Error(`${id} (from ${fromDir}) cannot be loaded while the start-up snapshot is built`);
}

/** the CommonJS target of an exports condition object ({ node: { require } }, { require }, { default }) */
function conditional(c: unknown): string | undefined {
  if (typeof c === 'string') return c;
  if (!c || typeof c !== 'object') return undefined;
  const o = c as Record<string, unknown>;
  for (const k of ['node', 'require', 'default']) {
    const t = conditional(o[k]);
    if (t && !t.endsWith('.mjs')) return t;
  }
  return undefined;
}

/** a short hash of the path (two installs of one version do not share a file) */
function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
