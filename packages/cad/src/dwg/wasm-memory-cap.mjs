// Caps WebAssembly memory growth in this process. LibreDWG (emscripten) may grow its memory to 4 GB, and that memory
// is outside V8's heap, so `--max-old-space-size` does not bound it: a DWG with 100 flipped bytes drove one reader
// past 5.6 GB. Emscripten's own growth path catches a refused grow() and reports it as a failed malloc, which
// LibreDWG answers with an error for that file. The parent's RSS watchdog (isolation/memory-watchdog.ts) stays the
// backstop for whatever this cannot see. Import it before the library; the cap is `--wasm-max-mb=N` on the argv.
const arg = process.argv.find((a) => a.startsWith('--wasm-max-mb='));
const maxMb = arg ? Number(arg.slice('--wasm-max-mb='.length)) : 0;
if (maxMb > 0) {
  const maxBytes = maxMb * 1024 * 1024;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function cappedGrow(pages) {
    if (this.buffer.byteLength + pages * 65536 > maxBytes) throw new RangeError(`WebAssembly memory over ${maxMb} MB refused`);
    return grow.call(this, pages);
  };
}
