/**
 * DXF parse benchmark (issue: DXF parse performance). Our reader against two baselines measured in the same run:
 * `dxf-parser` 1.1.2 and `@mlightcad/data-model` 1.14.3 (its native DXF converter into an AcDbDatabase), on every
 * DXF in SAMPLES_DIR and on a generated ~100 MB drawing (gen-large-dxf.ts, deterministic seed, temp dir).
 * Target: ours ≥ 3× faster than the fastest baseline, with less peak memory.
 *
 * Every parser runs in a child process of its own, so peak RSS (getrusage maxRSS) belongs to one parser and one
 * file. Each parser is given the file's bytes already in memory and must produce its model (dxf-parser wants a
 * string: the UTF-8 decode is done before the clock starts, as is data-model's ArrayBuffer copy). Samples: one child per parser and file, 8–40 warm-up parses
 * (~32 MB of parsing), then the median of 9 timed runs (no forced GC between them). A run is as many parses as
 * fill ~10 ms, timed together: a small sample parses in 0.2–1 ms, where one parse alone is at the mercy of a
 * timer tick or a context switch, and the garbage a parser leaves is then collected inside the run that made it
 * (a server parses drawing after drawing). The large file: 3 children per parser, one cold parse each, median.
 *
 *   npm run bench -- cad-parse         only this benchmark
 *   BENCH_DXF_MB=20                    size of the generated file (default 100)
 *   BENCH_DXF_FILE=/path/to/x.dxf      use this file instead of generating one
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { generateLargeDxf } from './gen-large-dxf.ts';

const PARSERS = ['ours', 'dxf-parser', 'data-model'] as const;
/** ours again, reading the file itself in 4 MB windows (parseDxfFile): its time includes the reading */
type ParserName = (typeof PARSERS)[number] | 'ours-stream';
const MB = 1024 * 1024;
/** a timed run of a sample: parses filling about this long */
const RUN_MS = 10;

interface ChildResult {
  ok: boolean;
  error?: string;
  /** parse times in ms: wall clock, and CPU time of the process (user + system, GC threads included) */
  times: number[];
  cpu: number[];
  /** entities in the parser's model (model space + blocks), a sanity check that the work was done */
  entities: number;
  /** RSS before the warm-ups (runtime + module + file bytes) and the process's peak, MB */
  rssBeforeMB: number;
  peakRssMB: number;
  /** heap the finished model keeps alive (after a full GC), MB */
  retainedHeapMB: number;
}

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
const round = (v: number, d = 1) => +v.toFixed(d);

/** One parser, one file: runs in its own process. */
async function child(parser: ParserName, file: string, warmups: number, runs: number): Promise<ChildResult> {
  const require = createRequire(import.meta.url);
  type Parsed = { entities: number; model: unknown };
  // each parser is handed its input in the form its API takes, prepared before the clock starts
  let prepare: (bytes: Uint8Array) => unknown = (b) => b;
  let parse: (input: any) => Promise<Parsed> | Parsed;
  if (parser === 'ours-stream') {
    const { parseDxfFile } = await import('../packages/cad/src/dxf/file.ts');
    prepare = () => file;
    parse = (f: string) => {
      const d = parseDxfFile(f);
      return { entities: d.entities.length + d.blocks.reduce((a, b) => a + b.entities.length, 0), model: d };
    };
  } else if (parser === 'ours') {
    const { parseDxf } = await import('../packages/cad/src/dxf/reader.ts');
    parse = (bytes: Uint8Array) => {
      const d = parseDxf(bytes);
      return { entities: d.entities.length + d.blocks.reduce((a, b) => a + b.entities.length, 0), model: d };
    };
  } else if (parser === 'dxf-parser') {
    const mod = require('dxf-parser');
    const DxfParser = mod.default ?? mod;
    prepare = (bytes) => new TextDecoder().decode(bytes);
    parse = (text: string) => {
      const d = new DxfParser().parseSync(text);
      return { entities: d.entities.length + Object.values(d.blocks as Record<string, { entities?: unknown[] }>).reduce((a, b) => a + (b.entities?.length ?? 0), 0), model: d };
    };
  } else {
    const dm = require('@mlightcad/data-model');
    prepare = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    parse = async (ab: ArrayBuffer) => {
      const db = new dm.AcDbDatabase();
      await db.read(ab, { readOnly: true }, dm.AcDbFileType.DXF);
      let n = 0;
      for (const btr of db.tables.blockTable.newIterator()) for (const _ of btr.newIterator()) n++;
      return { entities: n, model: db };
    };
  }
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const input = prepare(new Uint8Array(readFileSync(file)));
  // dxf-parser warns on every group it does not know: quiet, or the warnings cost time and fill the pipe
  console.warn = console.log = console.info = () => {};
  const out: ChildResult = { ok: true, times: [], cpu: [], entities: 0, rssBeforeMB: 0, peakRssMB: 0, retainedHeapMB: 0 };
  try {
    // the heap is weighed before the warm-ups: an awaited result can stay referenced from the async frame.
    // No forced GC between the warm-ups and the timed runs: a full GC shrinks the young generation and the
    // first timed parses would pay for regrowing it (measured: 5–7 ms instead of 1.1 ms on a 0.2 MB sample for
    // the first four of nine runs, for every parser), which a server parsing drawing after drawing never sees
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    out.rssBeforeMB = round(process.memoryUsage().rss / MB);
    // the second half of the warm-ups says how long a warm parse takes
    let warmMs = 0;
    let warmN = 0;
    for (let i = 0; i < warmups; i++) {
      const t = performance.now();
      await parse(input);
      if (i >= warmups / 2) (warmMs += performance.now() - t), warmN++;
    }
    // parses per timed run: ~RUN_MS of them (the large file's cold parse is one)
    const batch = warmN ? Math.max(1, Math.ceil(RUN_MS / (warmMs / warmN))) : 1;
    let model: unknown = null;
    for (let i = 0; i < runs; i++) {
      // no forced GC between runs: it shrinks the young generation and the next parse pays for regrowing it,
      // which no server sees; the garbage of one run is collected during the next, as in steady state
      model = null;
      const t = performance.now();
      const c = process.cpuUsage();
      let r: Awaited<ReturnType<typeof parse>> | null = null;
      for (let k = 0; k < batch; k++) r = await parse(input);
      out.times.push(round((performance.now() - t) / batch, 3));
      const u = process.cpuUsage(c);
      out.cpu.push(round((u.user + u.system) / 1000 / batch, 3));
      out.entities = r!.entities;
      model = r!.model;
    }
    // the last model is still referenced: what a full GC cannot free is what the model costs
    gc();
    out.retainedHeapMB = round((process.memoryUsage().heapUsed - heapBefore) / MB);
    if (!model) throw new Error('no model');
  } catch (e) {
    out.ok = false;
    out.error = String((e as Error).message ?? e).slice(0, 120);
  }
  out.peakRssMB = round(process.resourceUsage().maxRSS / 1024);
  return out;
}

function runChild(parser: ParserName, file: string, warmups: number, runs: number): ChildResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', '--max-old-space-size=16384', import.meta.filename, 'child', parser, file, String(warmups), String(runs)], {
    encoding: 'utf8',
    maxBuffer: 16 * MB,
    cwd: path.resolve(import.meta.dirname, '..'),
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ChildResult;
  } catch {
    return { ok: false, error: `child exited ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 160)}`, times: [], cpu: [], entities: 0, rssBeforeMB: 0, peakRssMB: 0, retainedHeapMB: 0 };
  }
}

interface Row {
  file: string;
  sizeMB: number;
  ms: Partial<Record<ParserName, number>>;
  cpuMs: Partial<Record<ParserName, number>>;
  peakRssMB: Partial<Record<ParserName, number>>;
  entities: Partial<Record<ParserName, number>>;
  retainedHeapMB: Partial<Record<ParserName, number>>;
  errors: Partial<Record<ParserName, string>>;
  /** fastest baseline time / our time (wall clock; CPU time) */
  speedup?: number;
  cpuSpeedup?: number;
  /** our peak RSS / the lowest baseline peak RSS */
  rssRatio?: number;
}

function measure(file: string, label: string, warmups: number, runs: number, children: number, parsers: readonly ParserName[] = PARSERS): Row {
  const row: Row = { file: label, sizeMB: round(statSync(file).size / MB, 2), ms: {}, cpuMs: {}, peakRssMB: {}, entities: {}, retainedHeapMB: {}, errors: {} };
  for (const p of parsers) {
    const rs = Array.from({ length: children }, () => runChild(p, file, warmups, runs));
    const ok = rs.filter((r) => r.ok);
    if (!ok.length) {
      row.errors[p] = rs[0].error;
      continue;
    }
    // two decimals: the small samples parse in 0.3–0.6 ms, where tenths would be a 15–30 % rounding
    row.ms[p] = round(median(ok.flatMap((r) => r.times)), 2);
    row.cpuMs[p] = round(median(ok.flatMap((r) => r.cpu)), 2);
    row.peakRssMB[p] = round(median(ok.map((r) => r.peakRssMB)), 0);
    row.entities[p] = ok[0].entities;
    row.retainedHeapMB[p] = ok[0].retainedHeapMB;
  }
  const base = (['dxf-parser', 'data-model'] as const).filter((p) => row.ms[p] !== undefined);
  if (row.ms.ours !== undefined && base.length) {
    row.speedup = round(Math.min(...base.map((p) => row.ms[p]!)) / row.ms.ours, 2);
    row.cpuSpeedup = round(Math.min(...base.map((p) => row.cpuMs[p]!)) / row.cpuMs.ours!, 2);
    row.rssRatio = round(row.peakRssMB.ours! / Math.min(...base.map((p) => row.peakRssMB[p]!)), 2);
  }
  process.stderr.write(`cad-parse ${label}: ${JSON.stringify(row.ms)} peak ${JSON.stringify(row.peakRssMB)}\n`);
  return row;
}

/** A markdown table of the rows (the same one goes into bench/README.md). */
export function cadParseTable(rows: Row[]): string {
  const f = (v?: number) => (v === undefined ? '–' : String(v));
  const t = (r: Row, p: ParserName) => (r.ms[p] === undefined ? '–' : `${r.ms[p]} (${r.cpuMs[p]})`);
  const x = (v?: number) => (v ? `${v}×` : '–');
  const lines = [
    '| file | MB | ours ms (CPU ms) | dxf-parser ms (CPU ms) | data-model ms (CPU ms) | speed-up vs fastest: wall / CPU | peak RSS MB ours / dxf-parser / data-model |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const rss = r.peakRssMB.ours === undefined ? '–' : `${f(r.peakRssMB.ours)} / ${f(r.peakRssMB['dxf-parser'])} / ${f(r.peakRssMB['data-model'])}`;
    lines.push(`| ${r.file} | ${r.sizeMB} | ${t(r, 'ours')} | ${t(r, 'dxf-parser')} | ${t(r, 'data-model')} | ${x(r.speedup)} / ${x(r.cpuSpeedup)} | ${rss} |`);
    if (r.ms['ours-stream'] !== undefined) lines.push(`| ↳ ours, streamed from the file (parseDxfFile, reading included) | | ${t(r, 'ours-stream')} | | | | ${r.peakRssMB['ours-stream']} |`);
  }
  return lines.join('\n');
}

export async function runCadParseBench() {
  const repoRoot = path.resolve(import.meta.dirname, '..');
  const samplesDir = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples');
  const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => f.toLowerCase().endsWith('.dxf')).sort() : [];
  const rows: Row[] = [];
  // enough warm-up parses for the JIT to settle (a server parses many drawings: ~32 MB of the file, 8–40
  // parses), then the median of 9
  for (const f of samples) {
    const size = statSync(path.join(samplesDir, f)).size;
    rows.push(measure(path.join(samplesDir, f), f, Math.min(40, Math.max(8, Math.ceil((32 * MB) / size))), 9, 1));
  }
  const total: Row = { file: `all ${samples.length} samples`, sizeMB: round(rows.reduce((a, r) => a + r.sizeMB, 0), 2), ms: {}, cpuMs: {}, peakRssMB: {}, entities: {}, retainedHeapMB: {}, errors: {} };
  for (const p of PARSERS) {
    // a parser that fails on a file has no total
    if (rows.every((r) => r.ms[p] !== undefined)) {
      total.ms[p] = round(rows.reduce((a, r) => a + r.ms[p]!, 0), 1);
      total.cpuMs[p] = round(rows.reduce((a, r) => a + r.cpuMs[p]!, 0), 1);
    }
  }
  // a speed-up against a subset of the baselines would flatter: only where both read every file
  if (total.ms.ours !== undefined && total.ms['dxf-parser'] !== undefined && total.ms['data-model'] !== undefined) total.speedup = round(Math.min(total.ms['dxf-parser'], total.ms['data-model']) / total.ms.ours, 2);
  // totals over the files every parser read (the binary sample is ours alone)
  const common = rows.filter((r) => PARSERS.every((p) => r.ms[p] !== undefined));
  const commonTotal: Row = { file: `${common.length} samples all parsers read`, sizeMB: round(common.reduce((a, r) => a + r.sizeMB, 0), 2), ms: {}, cpuMs: {}, peakRssMB: {}, entities: {}, retainedHeapMB: {}, errors: {} };
  for (const p of PARSERS) {
    commonTotal.ms[p] = round(common.reduce((a, r) => a + r.ms[p]!, 0), 1);
    commonTotal.cpuMs[p] = round(common.reduce((a, r) => a + r.cpuMs[p]!, 0), 1);
  }
  commonTotal.speedup = round(Math.min(commonTotal.ms['dxf-parser']!, commonTotal.ms['data-model']!) / commonTotal.ms.ours!, 2);
  commonTotal.cpuSpeedup = round(Math.min(commonTotal.cpuMs['dxf-parser']!, commonTotal.cpuMs['data-model']!) / commonTotal.cpuMs.ours!, 2);
  rows.push(total, commonTotal);

  const given = process.env.BENCH_DXF_FILE;
  const tmp = given ? null : mkdtempSync(path.join(os.tmpdir(), 'cadcloud-dxf-'));
  try {
    const mb = Number(process.env.BENCH_DXF_MB ?? 100);
    const big = given ?? path.join(tmp!, `generated-${mb}mb.dxf`);
    if (!given) generateLargeDxf(big, mb * MB, 1);
    rows.push(measure(big, given ? path.basename(given) : `generated ${mb} MB (seed 1)`, 0, 1, 3, [...PARSERS, 'ours-stream']));
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  const table = cadParseTable(rows);
  process.stderr.write(`\n${table}\n\n`);
  return { target: 'ours ≥ 3× faster than the fastest baseline, less peak RSS', rows, table };
}

if (process.argv[2] === 'child') {
  const [, , , parser, file, warmups, runs] = process.argv;
  const r = await child(parser as ParserName, file, Number(warmups), Number(runs));
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runCadParseBench(), null, 2));
}
