// Long-lived child process: DWG bytes in (IPC), DXF bytes out, through LibreDWG compiled to WebAssembly.
// Compiling the WASM takes seconds, so one child serves many files; it runs apart so a crash or a runaway
// allocation inside the library ends this process, not the server (the parent starts a new one).
// mode 'database' (the fallback when the DXF writer failed on a file): LibreDWG's object reader instead, the
// DwgDatabase sent back for the parent to write as DXF (dwg/database/database-to-dxf.ts).
// first: the cap must be in place before the library makes its memory
import './wasm-memory-cap.mjs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { LibreDwg, createModule } from '@mlightcad/libredwg-web';
import { readDatabase } from './dwg-database.child-lib.mjs';
import { startSelfWatch } from './reader-self-watch.mjs';

const arg = (name) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? 0);
// a little above the parent's limit: the parent's watchdog acts first and names the reason
const job = arg('self-max-mb') ? startSelfWatch(arg('self-max-mb')) : () => undefined;
// a reader whose parent thread was terminated gets no more files: it ends as soon as it is free
process.on('disconnect', () => process.exit(0));

// LibreDWG keeps state between files in one instance: its DXF writer then ends some strings of a later file with
// bytes of an earlier one (seen: "…lines in it" written "…lines in iti", "^Janno" as "^JaCTI"). Every file gets a
// fresh instance of the module; only the compilation (the seconds) is shared. An instance costs milliseconds.
const wasmFile = path.join(path.dirname(createRequire(import.meta.url).resolve('@mlightcad/libredwg-web')), '../wasm/libredwg-web.wasm');
const compiled = await WebAssembly.compile(readFileSync(wasmFile));
async function freshLibrary() {
  // instantiateWasm hands emscripten an instance of the compiled module (its promise: the exports, as it awaits them)
  const wasm = await createModule({ instantiateWasm: (imports, receive) => WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled)) });
  // createByWasmInstance, unlike create(), takes the instance given (the library keeps no singleton here)
  return LibreDwg.createByWasmInstance(wasm);
}
// one file at a time, in the order sent (the parent sends one at a time; this holds even if it did not)
let queue = Promise.resolve();
process.on('message', (msg) => {
  queue = queue.then(() => convert(msg));
});

async function convert(msg) {
  const { id, bytes, mode, timeoutMs } = msg;
  // the job's deadline plus a grace: the parent ends it at the deadline itself while it is there
  job(timeoutMs ? timeoutMs + 5000 : 0);
  try {
    const lib = await freshLibrary();
    const input = Buffer.from(bytes);
    const arrayBuffer = input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength);
    if (mode === 'database') {
      const read = readDatabase(lib, arrayBuffer);
      if (!read) process.send({ id, ok: false, error: 'LibreDWG could not read this file' });
      else process.send({ id, ok: true, database: read.database, codePage: read.codePage });
      return;
    }
    const out = lib.dwg_write_dxf(arrayBuffer);
    if (!out || out.length === 0) process.send({ id, ok: false, error: 'LibreDWG could not convert this file' });
    else process.send({ id, ok: true, dxf: out });
  } catch (e) {
    process.send({ id, ok: false, error: String(e?.message ?? e) });
  } finally {
    job(0);
  }
}
process.send({ ready: true });
