import { parentPort, workerData } from 'node:worker_threads';
import SevenZip from '7z-wasm';

/**
 * Worker thread body: one 7-Zip command (7z-wasm, 7-Zip 24.09 in WebAssembly) and its output, then the thread ends.
 * 7-Zip is synchronous and has no limits of its own, so it runs here where the parent can terminate it at any time
 * (sevenzip-reader.ts). Host folders are mounted through NODEFS, so an extraction writes to disk, not WASM memory.
 *
 * Guards on this side: symbolic links are never created (FS.symlink fails; 7-Zip in WASM has no hard links at all);
 * every byte 7-Zip writes anywhere is counted, and past `maxWriteBytes` the command is stopped and reported, which also
 * covers a file written outside the mounts (into WASM memory); stdin is empty, so a missing password can never hang.
 */
export interface SevenZipJob {
  args: string[];
  /** mount point in the WASM file system → host folder */
  mounts: Record<string, string>;
  cwd?: string;
  /** stop after 7-Zip wrote this many bytes into files */
  maxWriteBytes?: number;
  /** files closed under this WASM folder are reported as they complete ('closed', path relative to it) */
  closedUnder?: string;
  /** stop when 7-Zip printed this much (a listing of 100,000 entries is ~40 MB) */
  maxOutputBytes: number;
}

export type SevenZipMessage =
  | { type: 'done'; code: number; output: Uint8Array }
  | { type: 'limit'; what: 'written' | 'output'; bytes: number }
  /** an extracted file is complete (7-Zip went on to the next): the parent may take it while the rest is extracted */
  | { type: 'closed'; path: string }
  | { type: 'failed'; error: string };

const job = workerData as SevenZipJob;
const port = parentPort!;

class Stop extends Error {}

let output = new Uint8Array(64 * 1024);
let outputLength = 0;
function print(c: number | null) {
  if (c === null) return;
  if (outputLength === output.length) {
    if (output.length >= job.maxOutputBytes) {
      port.postMessage({ type: 'limit', what: 'output', bytes: outputLength } satisfies SevenZipMessage);
      throw new Stop('output limit');
    }
    const bigger = new Uint8Array(Math.min(output.length * 2, job.maxOutputBytes));
    bigger.set(output);
    output = bigger;
  }
  // emscripten hands bytes over as signed chars: UTF-8 names come as negative numbers
  output[outputLength++] = c & 0xff;
}

try {
  let exitCode: number | undefined;
  // stdin at its end (emscripten reads null as EOF; the package's types say number)
  const eof = (() => null) as unknown as () => number;
  const sz = await SevenZip({ stdout: print, stderr: print, stdin: eof, quit: (code: number) => void (exitCode = code) });
  /** emscripten's FS with the parts wrapped here as they are at run time */
  type Stream = { path?: string; isWrite?: boolean };
  const FS = sz.FS as unknown as Omit<typeof sz.FS, 'write' | 'close' | 'open'> & {
    write: (...a: unknown[]) => number;
    close: (stream: Stream) => void;
    open: (...a: unknown[]) => Stream;
  };
  const errno = (n: number) => Object.assign(new Error('ErrnoError'), { name: 'ErrnoError', errno: n });
  // EPERM: a link inside the target folder could point anywhere on the server
  FS.symlink = () => {
    throw errno(63);
  };
  // 7-Zip sets the modes the archive stores; a tar's 000 makes a folder unreadable and nothing here needs them
  FS.chmod = () => {};
  let written = 0;
  const write = FS.write.bind(FS);
  FS.write = (...a: unknown[]) => {
    const n = write(...a);
    written += n;
    if (job.maxWriteBytes !== undefined && written > job.maxWriteBytes) {
      port.postMessage({ type: 'limit', what: 'written', bytes: written } satisfies SevenZipMessage);
      throw new Stop('write limit');
    }
    return n;
  };
  // A file is complete once 7-Zip opens the next one: after closing it, 7-Zip still sets its time and attributes by
  // name, and the parent deletes a file as soon as it has passed it on.
  const under = job.closedUnder;
  let finished: string | undefined;
  const close = FS.close.bind(FS);
  FS.close = (stream) => {
    close(stream);
    if (under && stream.isWrite && stream.path?.startsWith(under)) finished = stream.path.slice(under.length);
  };
  const open = FS.open.bind(FS);
  FS.open = (...a: unknown[]) => {
    const stream = open(...a);
    if (finished !== undefined && stream.isWrite) {
      port.postMessage({ type: 'closed', path: finished } satisfies SevenZipMessage);
      finished = undefined;
    }
    return stream;
  };
  for (const [at, host] of Object.entries(job.mounts)) {
    FS.mkdir(at);
    FS.mount(sz.NODEFS, { root: host }, at);
  }
  if (job.cwd) FS.chdir(job.cwd);
  let code: number;
  try {
    code = sz.callMain(job.args) as unknown as number;
  } catch (e) {
    // the limit is reported; the parent ends this thread
    if (e instanceof Stop) throw e;
    // emscripten's exit() throws an ExitStatus once quit() has run
    if (exitCode === undefined) throw e;
    code = exitCode;
  }
  port.postMessage({ type: 'done', code: code ?? exitCode ?? 0, output: output.subarray(0, outputLength) } satisfies SevenZipMessage);
} catch (e) {
  if (!(e instanceof Stop)) port.postMessage({ type: 'failed', error: (e as Error)?.message ?? String(e) } satisfies SevenZipMessage);
}
