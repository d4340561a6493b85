import { fork, type ChildProcess } from 'node:child_process';
import { parseDxf } from '../dxf/reader.ts';
import { entryFile } from '../isolation/entry-file.ts';
import { watchProcessMemory } from '../isolation/memory-watchdog.ts';
import { CadError, type Drawing } from '../model/drawing.ts';
import { acdsDataSection, databaseToDxf, tableEntities } from './database/database-to-dxf.ts';
import type { Rec } from './database/dxf-out.ts';
import { VERSIONS as R12_VERSIONS } from './r12/file-header.ts';
import { readAcisStorage } from './r2004/acds.ts';
import { parseDwgR12 } from './r12/reader.ts';

const CHILD = entryFile(import.meta.dirname, 'dwg-to-dxf.child.mjs');
/** the mark reader-self-watch.mjs leaves on stderr when it ends the reader (kept in step with it) */
const SELF_STOP_MARK = 'reader-self-watch:';

export interface DwgReadOptions {
  /** a file that takes longer is abandoned and the worker restarted (a bad file must never hang a request) */
  timeoutMs?: number;
  /**
   * read through LibreDWG's object reader straight away, the path otherwise taken only when its DXF writer fails
   * (tests compare both paths on every sample; diagnostics)
   */
  objectReader?: boolean;
}

/** What the worker hands back: LibreDWG's DXF, or (fallback) its DwgDatabase for database-to-dxf.ts to write. */
export type Converted = { dxf: Buffer } | { database: Rec; codePage: string };

/** the two ways the worker reads a file: LibreDWG's DXF writer, or its object reader (dwg_read_data + convert) */
type Mode = 'dxf' | 'database';

/** a file that ran out of time or memory is not read a second way: the fallback would only double the cost */
const timedOut = new WeakSet<Error>();

/** How the reader process is bounded; `configureDwgWorker` changes it (the server sets it from its config). */
export interface DwgWorkerSettings {
  /**
   * the reader process's real memory (RSS) in MB: its WebAssembly memory may not grow beyond it and a watchdog kills
   * the process once it goes over, failing the file it was reading (LibreDWG's memory is outside V8's heap)
   */
  memoryLimitMb: number;
  /** an idle reader is stopped after this long (0: as soon as it has nothing to do, so it holds no memory between jobs) */
  idleMs: number;
  /** the reader script (tests put a stand-in here that speaks the same messages) */
  script: string;
}

interface Pending {
  resolve(c: Converted): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
  /** the process doing it: when an old process exits late (after a restart), only its own requests fail */
  child: ChildProcess;
}

/**
 * One isolated worker process around LibreDWG: started on first use, reused (its WASM takes seconds to
 * compile), restarted after a crash or a timeout, stopped when idle so its memory (~150–500 MB) is given back.
 */
class DwgWorker {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(public o: DwgWorkerSettings) {}

  private start() {
    const limit = this.o.memoryLimitMb;
    // V8's heap gets at most half: the rest is for LibreDWG's WebAssembly memory and the DXF it writes
    const heapMb = Math.max(64, Math.min(1024, Math.floor(limit / 2)));
    const child = fork(this.o.script, [`--wasm-max-mb=${limit}`, `--self-max-mb=${Math.round(limit * 1.1 + 32)}`], { execArgv: [`--max-old-space-size=${heapMb}`], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child = child;
    let overLimit: string | null = null;
    const watch = watchProcessMemory(child, limit, (rss) => (overLimit = `the DWG reader needed more than ${limit} MB (${Math.round(rss)} MB when stopped)`));
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    this.ready = new Promise((resolve, reject) => {
      child.once('message', (m: { ready?: boolean }) => (m?.ready ? resolve() : reject(new Error('worker did not start'))));
      child.once('exit', () => reject(new CadError('cad.parseFailed', undefined, 'the DWG worker did not start')));
    });
    this.ready.catch(() => undefined);
    child.on('message', (m: { id?: number; ok?: boolean; dxf?: Uint8Array; database?: Rec; codePage?: string; error?: string }) => {
      if (!m?.id) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok && m.dxf) p.resolve({ dxf: Buffer.from(m.dxf) });
      else if (m.ok && m.database) {
        p.resolve({ database: m.database, codePage: m.codePage ?? '' });
        // LibreDWG's object reader leaves its instance unfit for more files (a later file can trap with "null
        // function or function signature mismatch"): the process that ran it serves no other file
        if (!this.pending.size) this.stop();
      } else {
        p.reject(new CadError('cad.parseFailed', undefined, m.error ?? 'conversion failed'));
        // a failed conversion can leave LibreDWG's WASM state broken for every later file: start afresh
        if (!this.pending.size) this.stop();
      }
      if (!this.pending.size) this.hold(false);
      this.armIdle();
    });
    child.on('exit', (code, signal) => {
      watch.stop();
      if (this.child === child) {
        this.child = null;
        this.ready = null;
      }
      // whatever was in flight in this process died with it (LibreDWG aborts on some files)
      for (const [id, p] of this.pending) {
        if (p.child !== child) continue;
        clearTimeout(p.timer);
        // the reader's own watch (reader-self-watch.mjs) ended it: over its memory, or past its deadline
        const self = new RegExp(`${SELF_STOP_MARK} (.*)`).exec(stderr)?.[1];
        if (!overLimit && self?.startsWith('memory')) overLimit = `the DWG reader needed more than ${limit} MB (${self.slice(7)} when stopped)`;
        if (overLimit) {
          const err = new CadError('cad.parseFailed', undefined, overLimit);
          timedOut.add(err);
          p.reject(err);
        } else p.reject(new CadError('cad.parseFailed', undefined, `DWG conversion failed (${signal ?? `exit ${code}`}) ${stderr.trim().split('\n').slice(-1)[0] ?? ''}`.trim()));
        this.pending.delete(id);
      }
    });
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    this.hold(false);
  }

  /** Keeps the parent alive only while a conversion is in flight: an idle worker never holds a CLI run open. */
  private hold(on: boolean) {
    const c = this.child;
    if (!c) return;
    const channel = c.channel as unknown as { ref?: () => void; unref?: () => void } | undefined;
    if (on) {
      c.ref();
      channel?.ref?.();
    } else {
      c.unref();
      channel?.unref?.();
    }
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pending.size) return;
    if (this.o.idleMs <= 0) return this.stop();
    this.idleTimer = setTimeout(() => this.stop(), this.o.idleMs);
    this.idleTimer.unref();
  }

  private chain: Promise<unknown> = Promise.resolve();

  /**
   * One file at a time: a file that breaks LibreDWG's WASM state (or kills the process) must not take the files
   * queued behind it down too; after a failure the next file gets a fresh process.
   */
  convert(bytes: Uint8Array, timeoutMs: number, objectReader = false): Promise<Converted> {
    const run = this.chain.then(() => (objectReader ? this.convertOne(bytes, timeoutMs, 'database') : this.convertWithFallback(bytes, timeoutMs)));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * LibreDWG's DXF writer first; when it fails on a file (a WASM trap, the process dying, no output) the same bytes
   * go through its object reader instead, in a fresh process: the trap leaves the old instance unusable. Only when
   * both fail is the file refused, with both reasons. Timeouts are final.
   */
  private async convertWithFallback(bytes: Uint8Array, timeoutMs: number): Promise<Converted> {
    try {
      return await this.convertOne(bytes, timeoutMs, 'dxf');
    } catch (e) {
      if (!(e instanceof CadError) || timedOut.has(e)) throw e;
      this.stop();
      try {
        return await this.convertOne(bytes, timeoutMs, 'database');
      } catch (e2) {
        const detail = (x: unknown) => (x instanceof CadError ? (x.detail ?? x.message) : String(x));
        const both = new CadError('cad.parseFailed', undefined, `${detail(e)}; object reader: ${detail(e2)}`);
        if (e2 instanceof Error && timedOut.has(e2)) timedOut.add(both);
        throw both;
      }
    }
  }

  private async convertOne(bytes: Uint8Array, timeoutMs: number, mode: Mode): Promise<Converted> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (!this.child) this.start();
    const child = this.child!;
    this.hold(true);
    await this.ready;
    // the process was stopped while starting (another file's failure restarts it): ask the next one
    if (child !== this.child || !child.connected) return this.convertOne(bytes, timeoutMs, mode);
    const id = this.nextId++;
    return new Promise<Converted>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const err = new CadError('cad.parseFailed', undefined, `DWG conversion took longer than ${timeoutMs} ms`);
        timedOut.add(err);
        reject(err);
        child.kill('SIGKILL');
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, child });
      // a process that died after the check above (killed by another file's timeout) refuses the write: EPIPE here,
      // which without this callback is thrown as an uncaught error and would take the caller's process down
      child.send({ id, bytes, mode, timeoutMs }, (err) => {
        const p = err && this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.reject(new CadError('cad.parseFailed', undefined, `the DWG worker could not be reached (${err.message})`));
      });
    });
  }

  stop() {
    this.child?.kill('SIGKILL');
    this.child = null;
    this.ready = null;
  }
}

const worker = new DwgWorker({ memoryLimitMb: 2048, idleMs: 5 * 60_000, script: CHILD });
/**
 * A second worker for the object-reader pass (withObjectReaderParts): the object reader ends the process that runs it, so that
 * pass never changes the life of the main worker's process. Same memory bounds as the main one.
 */
const acisWorker = new DwgWorker({ memoryLimitMb: 2048, idleMs: 60_000, script: CHILD });

/**
 * Bounds of the reader process for this thread (each worker thread has its own). New settings apply from the next
 * process started, so a running one is stopped (a file in flight fails: call this before reading); the same
 * settings again change nothing.
 */
export function configureDwgWorker(settings: Partial<DwgWorkerSettings>) {
  const next = { ...worker.o, ...settings };
  if (next.memoryLimitMb === worker.o.memoryLimitMb && next.idleMs === worker.o.idleMs && next.script === worker.o.script) return;
  worker.o = next;
  worker.stop();
  acisWorker.o = { ...acisWorker.o, memoryLimitMb: next.memoryLimitMb, script: next.script };
  acisWorker.stop();
}

/**
 * The DXF of an R13+ DWG, made in the isolated worker process: LibreDWG's own DXF, or, for a file its DXF writer
 * fails on, the DXF we write from its DwgDatabase (database/database-to-dxf.ts).
 */
export async function dwgToDxf(bytes: Uint8Array, o: DwgReadOptions = {}): Promise<Buffer> {
  const converted = await worker.convert(bytes, o.timeoutMs ?? 60_000, o.objectReader);
  if ('dxf' in converted) return withObjectReaderParts(converted.dxf, bytes, o);
  const version = String.fromCharCode(...bytes.subarray(0, 6));
  try {
    return Buffer.from(databaseToDxf(converted.database, { version, codePage: converted.codePage }));
  } catch (e) {
    throw new CadError('cad.parseFailed', undefined, `DWG database to DXF: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Ends the worker now (tests, shutdown). */
export function stopDwgWorker() {
  worker.stop();
  acisWorker.stop();
}

/**
 * DWG into the drawing model. R13–2018: LibreDWG writes DXF in a worker process (or, where its DXF writer fails,
 * reads the DWG's objects and we write the DXF), our reader reads it, so both formats share one reader and one
 * set of tests. R10–R12 (AC1006, AC1009): our own reader (r12/), in process
 * (LibreDWG writes only the header of their DXF). Older versions are refused clearly.
 */
export async function parseDwg(bytes: Uint8Array, o: DwgReadOptions = {}): Promise<Drawing> {
  if (bytes.length < 6 || bytes[0] !== 0x41 || bytes[1] !== 0x43) throw new CadError('cad.parseFailed', undefined, 'not a DWG file');
  const version = String.fromCharCode(...bytes.subarray(0, 6));
  if (R12_VERSIONS.has(version)) return parseDwgR12(bytes);
  if (version < 'AC1012') throw new CadError('cad.parseFailed', undefined, `DWG ${version} (older than R10) is not read`);
  let drawing: Drawing;
  try {
    drawing = parseDxf(await dwgToDxf(bytes, o));
  } catch (e) {
    if (!(e instanceof CadError) || e.code !== 'cad.parseFailed') throw e;
    // LibreDWG keeps state between the files of one instance (damaged text in the next file's DXF); the reader now
    // gives every file a fresh instance (dwg-to-dxf.child.mjs, reader-state.test.ts), and a DXF we cannot read is
    // still made once more by a fresh process before the file is called unreadable.
    worker.stop();
    drawing = parseDxf(await dwgToDxf(bytes, o));
  }
  drawing.format = 'dwg';
  drawing.binary = true;
  if (version >= 'AC1027') withAcisStorage(drawing, bytes);
  // LibreDWG 0.13.3 writes nearly every layer of R13–2018 files with a negative colour ("off"): all layers of
  // 21 of the 22 readable samples, including layers named "Layer_On", and the floor plan that AutoCAD shows
  // fully. The sign carries no information there, so DWG layers are read as on (frozen still hides them).
  for (const l of drawing.layers) l.on = true;
  return drawing;
}


/** an ACAD_TABLE LibreDWG's DXF writer left empty (R2010+ tables): its type line, then straight the next entity */
const BARE_TABLE = /\r?\n[ \t]*0\r?\nACAD_TABLE(?=\r?\n[ \t]*0\r?\n)/;

/**
 * 2013+ DWG keep the ACIS data of solids, regions and surfaces in their AcDs data storage, which we read ourselves
 * (r2004/acds.ts): by the handle the storage names, where LibreDWG hands the pieces out in the order it meets the
 * solids (example_2013.dwg: a solid drawn with a region's 4 edges instead of its 18) and finds none in 2018 files.
 * What is read there wins over whatever the DXF carried for the same handle. A storage that cannot be read changes
 * nothing: those entities stay reported as not drawn, the rest of the drawing is unaffected.
 */
function withAcisStorage(drawing: Drawing, bytes: Uint8Array) {
  let stored: Map<string, Uint8Array>;
  try {
    stored = readAcisStorage(bytes);
  } catch (e) {
    if (e instanceof RangeError) return;
    throw e;
  }
  if (!stored.size) return;
  drawing.acisData ??= {};
  for (const [handle, sab] of stored) drawing.acisData[handle] = sab;
}

/**
 * What LibreDWG's DXF writer leaves out and its object reader gives, added to the DXF from one object-reader pass
 * (in its own process: acisWorker):
 * - R2004–R2010 DWG keep solids, regions, bodies and surfaces as binary ACIS (SAB), which the DXF writer turns into SAT text that is
 *   often cut short (no edge can be drawn from it). The database carries the SAB bytes (`sabHex`,
 *   dwg-database.child-lib.mjs); they go in as the ACDSDATA section AutoCAD 2013 on writes, which the reader keeps by
 *   handle and the flattener prefers.
 * - R2010+ tables are written as a bare "0 / ACAD_TABLE" (no handle, block or insertion point): each is replaced by
 *   the table the database gives, placed from the table's own graphics, in the order both list them (model space,
 *   then paper space); when the counts differ, nothing is matched and the tables stay unplaced.
 * A failure there keeps the DXF as it was (those entities stay reported as not drawn).
 */
async function withObjectReaderParts(dxf: Buffer, bytes: Uint8Array, o: DwgReadOptions): Promise<Buffer> {
  const version = String.fromCharCode(...bytes.subarray(0, 6));
  // 2013 on keep ACIS data in their AcDs section, read by withAcisStorage: the object reader is not needed for it
  const acis = version >= 'AC1018' && version < 'AC1027' && dxf.includes('AcDbModelerGeometry');
  const bareTables = dxf.includes('ACAD_TABLE') && BARE_TABLE.test(dxf.toString('latin1'));
  if (!acis && !bareTables) return dxf;
  let db: Rec;
  try {
    const converted = await acisWorker.convert(bytes, o.timeoutMs ?? 60_000, true);
    if (!('database' in converted)) return dxf;
    db = converted.database;
  } catch {
    return dxf;
  }
  let text = dxf.toString('latin1');
  if (bareTables) {
    // the entities' text is UTF-8 from R2007 on, the file's bytes are handled here one per character
    const tables = tableEntities(db, version).map((t) => Buffer.from(t, version >= 'AC1021' ? 'utf8' : 'latin1').toString('latin1'));
    const all = new RegExp(BARE_TABLE.source, 'g');
    const bare = text.match(all) ?? [];
    if (tables.length === bare.length) {
      let k = 0;
      text = text.replace(all, (m) => {
        const nl = m.startsWith('\r') ? '\r\n' : '\n';
        // the entity as written ends with a line break; the match ends before the next entity's own one
        return nl + tables[k++].replace(/\n$/, '').replace(/\n/g, nl);
      });
    }
  }
  const section = acis ? acdsDataSection(db) : '';
  if (section) {
    // the section goes before the closing "0 / EOF" pair
    const end = /\r?\n[ \t]*0\r?\nEOF[\s\0]*$/.exec(text);
    if (end) {
      // in the file's own line breaks (the tokenizer reads one kind per file)
      const nl = end[0].startsWith('\r') ? '\r\n' : '\n';
      text = `${text.slice(0, end.index)}${nl}${section.replace(/\n/g, nl)}  0${nl}EOF${nl}`;
    }
  }
  return Buffer.from(text, 'latin1');
}
