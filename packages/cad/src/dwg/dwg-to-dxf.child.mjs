// Long-lived child process: DWG bytes in (IPC), DXF bytes out, through LibreDWG compiled to WebAssembly.
// Compiling the WASM takes seconds, so one child serves many files; it runs apart so a crash or a runaway
// allocation inside the library ends this process, not the server (the parent starts a new one).
// mode 'database' (the fallback when the DXF writer failed on a file): LibreDWG's object reader instead, the
// DwgDatabase sent back for the parent to write as DXF (dwg/database/database-to-dxf.ts).
// first: the cap must be in place before the library makes its memory
import './wasm-memory-cap.mjs';
import { LibreDwg } from '@mlightcad/libredwg-web';
import { readDatabase } from './dwg-database.child-lib.mjs';

const lib = await LibreDwg.create();
process.on('message', (msg) => {
  const { id, bytes, mode } = msg;
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
  }
});
process.send({ ready: true });
