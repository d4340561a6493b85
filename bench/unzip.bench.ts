/**
 * Decompression (issue 18, performance): extraction throughput of our readers on a ~500 MB drawing set, as a zip
 * (deflate) and as a 7z (LZMA2), against Debian's 7-Zip (`7zz x`, package 7zip) on the same file in the same run,
 * taking turns. Target: ours ≥ 0.5× its throughput, peak RSS of our process < 300 MB whatever the archive's size.
 *
 * The set: 20 generated DXF drawings (gen-large-dxf.ts, different seeds, ~20 MB each) and 5 files of random bytes
 * (~20 MB each) standing in for the DWG/PDF/images a real set carries, which do not compress. Both archives are made
 * with Debian's 7-Zip (-mx5) and kept in the bench folder between runs. Ours runs in a child process
 * (unzip-extract.child.ts) that consumes each entry as storage does: md5 on the way into a file. Throughput is
 * unpacked bytes ÷ wall time; peak RSS is the child's (getrusage), 7-Zip's from /usr/bin/time.
 *
 *   npm run bench -- unzip
 *   BENCH_UNZIP_DIR=/path       where the set and the archives are kept (default: <tmp>/cadcloud-bench-unzip)
 *   BENCH_UNZIP_MB=500          size of the set
 *   BENCH_UNZIP_REPEAT=3        runs of each (the median is reported)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLargeDxf } from './gen-large-dxf.ts';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;

interface Run {
  ms: number;
  peakMb?: number;
  /** our child's CPU time (user + system, all threads) during the extraction */
  cpuMs?: number;
  skipped?: string;
  error?: string;
}

function sevenZipCommand(): string | undefined {
  for (const c of ['7zz', '7z']) if (spawnSync(c, ['i'], { stdio: 'ignore' }).status === 0) return c;
  return undefined;
}

function makeSet(dir: string, totalMb: number): number {
  const set = path.join(dir, 'set');
  const marker = path.join(dir, `set-${totalMb}.done`);
  if (!existsSync(marker)) {
    // one set at a time: archives and markers of another size are of a set no longer there
    for (const f of readdirSync(dir)) if (/^set-\d+\.(done|7z|zip)$/.test(f)) rmSync(path.join(dir, f));
    rmSync(set, { recursive: true, force: true });
    const each = totalMb / 25;
    for (let i = 0; i < 20; i++) {
      const folder = path.join(set, i < 10 ? '建筑' : 'structure', `level-${Math.floor(i / 4)}`);
      mkdirSync(folder, { recursive: true });
      generateLargeDxf(path.join(folder, `plan-${i}.dxf`), each * MB, i + 1);
    }
    mkdirSync(path.join(set, 'refs'), { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(path.join(set, 'refs', `scan-${i}.bin`), randomBytes(each * MB));
    writeFileSync(marker, '');
  }
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else bytes += statSync(path.join(d, e.name)).size;
    }
  };
  walk(set);
  return bytes;
}

function makeArchive(sevenZip: string, dir: string, type: 'zip' | '7z', totalMb: number): string {
  const file = path.join(dir, `set-${totalMb}.${type}`);
  if (!existsSync(file)) {
    const r = spawnSync(sevenZip, ['a', `-t${type}`, '-mx5', ...(type === 'zip' ? ['-mm=Deflate'] : []), file, '.'], { cwd: path.join(dir, 'set'), stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${sevenZip} a -t${type} failed`);
  }
  return file;
}

function runBaseline(sevenZip: string, archive: string, out: string): Run {
  rmSync(out, { recursive: true, force: true });
  const timed = existsSync('/usr/bin/time');
  const args = ['x', '-y', `-o${out}`, archive];
  const t = performance.now();
  const r = spawnSync(timed ? '/usr/bin/time' : sevenZip, timed ? ['-f', 'PEAK_KB %M', sevenZip, ...args] : args, { encoding: 'utf8', maxBuffer: 64 * MB });
  const ms = Math.round(performance.now() - t);
  rmSync(out, { recursive: true, force: true });
  if (r.status !== 0) return { ms, error: `exit ${r.status}` };
  const peak = /PEAK_KB (\d+)/.exec(r.stderr ?? '')?.[1];
  return { ms, ...(peak ? { peakMb: Math.round(Number(peak) / 1024) } : {}) };
}

function runOurs(format: 'zip' | '7z', archive: string, out: string, temp: string): Run {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  mkdirSync(temp, { recursive: true });
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'unzip-extract.child.ts'), format, archive, out, temp], { cwd: root, encoding: 'utf8', maxBuffer: 64 * MB });
  const wall = Math.round(performance.now() - t);
  rmSync(out, { recursive: true, force: true });
  const line = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  let parsed: { ms?: number; maxRssMb?: number; cpuMs?: number; skipped?: string } = {};
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ms: wall, error: (r.stderr ?? '').split('\n').slice(-5).join(' ') || `exit ${r.status}` };
  }
  if (parsed.skipped) return { ms: 0, skipped: parsed.skipped };
  // the child's own clock: the extraction, without tsx and module loading (~1 s of start-up)
  return { ms: parsed.ms ?? wall, peakMb: parsed.maxRssMb, cpuMs: parsed.cpuMs };
}

const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];

export async function runUnzipBench() {
  const sevenZip = sevenZipCommand();
  if (!sevenZip) return { skipped: "Debian's 7-Zip (7zz or 7z) is not installed" };
  const totalMb = Number(process.env.BENCH_UNZIP_MB ?? 500);
  const repeat = Number(process.env.BENCH_UNZIP_REPEAT ?? 1);
  const dir = process.env.BENCH_UNZIP_DIR ?? path.join(os.tmpdir(), 'cadcloud-bench-unzip');
  mkdirSync(dir, { recursive: true });
  const bytes = makeSet(dir, totalMb);
  const result: Record<string, unknown> = { unpackedMb: Math.round(bytes / MB), baseline: `${sevenZip} x` };
  for (const format of ['7z', 'zip'] as const) {
    const archive = makeArchive(sevenZip, dir, format, totalMb);
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let i = 0; i < repeat; i++) {
      ours.push(runOurs(format, archive, path.join(dir, 'out-ours'), path.join(dir, 'temp')));
      if (ours.at(-1)!.skipped) break;
      theirs.push(runBaseline(sevenZip, archive, path.join(dir, 'out-7z')));
    }
    const o = median(ours);
    if (o.skipped) {
      result[format] = { archiveMb: Math.round(statSync(archive).size / MB), skipped: o.skipped };
      continue;
    }
    const b = median(theirs);
    const mbps = (r: Run) => (r.ms ? Math.round((bytes / MB / (r.ms / 1000)) * 10) / 10 : null);
    result[format] = {
      archiveMb: Math.round(statSync(archive).size / MB),
      ours: { ms: o.ms, mbPerS: mbps(o), peakRssMb: o.peakMb, cpuMs: o.cpuMs, ...(o.error ? { error: o.error } : {}) },
      sevenZip: { ms: b.ms, mbPerS: mbps(b), peakRssMb: b.peakMb, ...(b.error ? { error: b.error } : {}) },
      throughputRatio: o.ms && b.ms ? Math.round((b.ms / o.ms) * 100) / 100 : null,
      targets: { ratioAtLeast: 0.5, peakRssMbBelow: 300 },
    };
  }
  rmSync(path.join(dir, 'temp'), { recursive: true, force: true });
  return result;
}
