// Long-lived child process: DWG bytes in (IPC), DXF bytes out, through LibreDWG compiled to WebAssembly.
// Compiling the WASM takes seconds, so one child serves many files; it runs apart so a crash or a runaway
// allocation inside the library ends this process, not the server (the parent starts a new one).
// mode 'database' (the fallback when the DXF writer failed on a file): LibreDWG's object reader instead, the
// DwgDatabase sent back for the parent to write as DXF (dwg/database/database-to-dxf.ts).
// first: the cap must be in place before the library makes its memory
import './wasm-memory-cap.mjs';
import { LibreDwg } from '@mlightcad/libredwg-web';
import { readDatabase } from './dwg-database.child-lib.mjs';
import { startSelfWatch } from './reader-self-watch.mjs';

const arg = (name) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? 0);
// a little above the parent's limit: the parent's watchdog acts first and names the reason
const job = arg('self-max-mb') ? startSelfWatch(arg('self-max-mb')) : () => undefined;
// a reader whose parent thread was terminated gets no more files: it ends as soon as it is free
process.on('disconnect', () => process.exit(0));

const lib = await LibreDwg.create();
process.on('message', (msg) => {
  const { id, bytes, mode, timeoutMs } = msg;
  // the job's deadline plus a grace: the parent ends it at the deadline itself while it is there
  job(timeoutMs ? timeoutMs + 5000 : 0);
  try {
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
});
process.send({ ready: true });
