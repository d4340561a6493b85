// Long-lived child process: DWG bytes in (IPC), DXF bytes out, through LibreDWG compiled to WebAssembly.
// Compiling the WASM takes seconds, so one child serves many files; it runs apart so a crash or a runaway
// allocation inside the library ends this process, not the server (the parent starts a new one).
import { LibreDwg } from '@mlightcad/libredwg-web';

const lib = await LibreDwg.create();
process.on('message', (msg) => {
  const { id, bytes } = msg;
  try {
    const input = Buffer.from(bytes);
    const out = lib.dwg_write_dxf(input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength));
    if (!out || out.length === 0) process.send({ id, ok: false, error: 'LibreDWG could not convert this file' });
    else process.send({ id, ok: true, dxf: out });
  } catch (e) {
    process.send({ id, ok: false, error: String(e?.message ?? e) });
  }
});
process.send({ ready: true });
