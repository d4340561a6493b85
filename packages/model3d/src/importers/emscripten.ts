// An Emscripten-built library (occt-import-js, rhino3dm, assimpjs) started once per thread, its WASM read from beside
// its script in node_modules (never fetched), its console output dropped (failures come back as results).
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const started = new Map<string, Promise<unknown>>();

export function loadEmscripten<T>(pkg: string): Promise<T> {
  let lib = started.get(pkg);
  if (!lib) {
    const script = require.resolve(pkg);
    const init = require(script) as (o: object) => Promise<T>;
    lib = init({ locateFile: (f: string) => path.join(path.dirname(script), f), print: () => undefined, printErr: () => undefined });
    started.set(pkg, lib);
  }
  return lib as Promise<T>;
}
