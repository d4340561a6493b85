/**
 * Conversion (issue 17): PDF export of the floor plan (all layouts) against Debian LibreCAD's `librecad dxf2pdf` on
 * the same DXF in the same run (ratio of wall times, PDF sizes), and a PNG export 4000 px wide. Each is a whole
 * command run as a user runs it (a cold process: start-up and reading included); peak memory from /usr/bin/time
 * when present, with its ratio to LibreCAD's. Ours is the built command line, `packages/cad/dist/cad` (node started
 * from the command line's V8 start-up snapshot; `npm run cad` runs the same commands, built first when stale), not the
 * TypeScript sources through tsx, whose compiling would be timed too. LibreCAD
 * runs with `-a` (fit to page: without it it printed an empty page of every sample here), under xvfb-run when
 * installed (Debian `xvfb`), else Qt's offscreen platform. Files: the DXF floor plan, the SHX text drawing LibreCAD
 * bloats, and a generated ~10 MB drawing (gen-large-dxf.ts, the same bytes every run). `warm`: the same conversion
 * as a second job in a kept process, as the server's conversion worker runs it (start-up and module loading paid once).
 *
 *   npm run bench -- convert              only this benchmark
 *   BENCH_CONVERT_FILE=/path/to/x.dxf     another DXF (default: SAMPLES_DIR's dxf_dxfjs_floorplan.dxf and dxf_ezdxf_text_shx_font.dxf, and the generated one)
 *   BENCH_CONVERT_LARGE_MB=10             size of the generated drawing (0: none)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLargeDxf } from './gen-large-dxf.ts';

const root = path.resolve(import.meta.dirname, '..');

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { ms: number; status: number | null; peakMb?: number } {
  const timed = existsSync('/usr/bin/time');
  const t = performance.now();
  const r = spawnSync(timed ? '/usr/bin/time' : cmd, timed ? ['-f', 'PEAK_KB %M', cmd, ...args] : args, { cwd, encoding: 'utf8', timeout: 600_000, env: { ...process.env, ...env } });
  const ms = Math.round(performance.now() - t);
  const peak = /PEAK_KB (\d+)/.exec(r.stderr ?? '')?.[1];
  return { ms, status: r.status, ...(peak ? { peakMb: Math.round(Number(peak) / 1024) } : {}) };
}

/** The second conversion of `file` in one process (convert-warm.child.ts): its time, and the process's peak memory. */
function warm(file: string, target: 'pdf' | 'png'): { ms: number; peakMb: number } | { failed: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/convert-warm.child.ts'), file, target], { cwd: root, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) return { failed: (r.stderr || String(r.signal)).slice(-300) };
  const { ms, peakMb } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; peakMb: number };
  return { ms, peakMb };
}

export async function runConvertBench() {
  const samples = path.resolve(root, process.env.SAMPLES_DIR ?? '../shared/samples');
  const files = process.env.BENCH_CONVERT_FILE ? [process.env.BENCH_CONVERT_FILE] : ['dxf_dxfjs_floorplan.dxf', 'dxf_ezdxf_text_shx_font.dxf'].map((f) => path.join(samples, f));
  spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'cad', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const large = Number(process.env.BENCH_CONVERT_LARGE_MB ?? 10);
  const genDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-convert-large-'));
  try {
    if (!process.env.BENCH_CONVERT_FILE && large > 0) {
      const file = path.join(genDir, `generated-${large}mb.dxf`);
      generateLargeDxf(file, large * 1024 * 1024);
      files.push(file);
    }
    const out: Record<string, unknown>[] = [];
    for (const file of files) out.push(existsSync(file) ? await benchFile(file) : { skipped: `no ${file}` });
    return out;
  } finally {
    rmSync(genDir, { recursive: true, force: true });
  }
}

/** The run of median time of `n` (each a fresh process): one slow run on a shared machine does not decide a ratio. */
function median<T extends { ms: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
}

async function benchFile(file: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-convert-bench-'));
  try {
    const dxfBytes = statSync(file).size;
    // small files three times each, ours and LibreCAD's taking turns, so both meet the same load; big ones once
    const repeat = Number(process.env.BENCH_CONVERT_REPEAT ?? (dxfBytes < 4_000_000 ? 3 : 1));
    // the built command line's launcher: node started from the command line's V8 snapshot (scripts/build.mjs)
    const cli = (args: string[]) => run(path.join(root, 'packages/cad/dist/cad'), args, root);
    const oursPdf = path.join(dir, 'ours.pdf');
    const oursPng = path.join(dir, 'ours.png');
    const lcInstalled = existsSync('/usr/bin/librecad');
    const xvfb = existsSync('/usr/bin/xvfb-run');
    // LibreCAD writes the PDF beside its input
    const input = path.join(dir, 'lc.dxf');
    if (lcInstalled) copyFileSync(file, input);
    const librecad = () => (xvfb ? run('/usr/bin/xvfb-run', ['-a', 'librecad', 'dxf2pdf', '-a', input], dir) : run('/usr/bin/librecad', ['dxf2pdf', '-a', input], dir, { QT_QPA_PLATFORM: 'offscreen' }));
    const runs = { pdf: [] as ReturnType<typeof run>[], png: [] as ReturnType<typeof run>[], lc: [] as ReturnType<typeof run>[] };
    for (let i = 0; i < repeat; i++) {
      runs.pdf.push(cli(['convert', file, oursPdf, '--all-layouts']));
      if (lcInstalled) runs.lc.push(librecad());
      runs.png.push(cli(['convert', file, oursPng, '--width', '4000']));
    }
    const pdf = median(runs.pdf), png = median(runs.png);
    const warmPdf = warm(file, 'pdf');
    const result: Record<string, unknown> = {
      file: path.basename(file),
      dxfBytes,
      runs: repeat,
      ours: { pdf: { ...pdf, bytes: existsSync(oursPdf) ? statSync(oursPdf).size : null }, png4000: { ...png, bytes: existsSync(oursPng) ? statSync(oursPng).size : null } },
      // a job after the first in a kept process (the server's conversion worker): start-up not paid again
      warm: { pdf: warmPdf, png4000: warm(file, 'png') },
    };
    if (lcInstalled) {
      const lc = median(runs.lc);
      const lcPdf = path.join(dir, 'lc.pdf');
      const lcBytes = existsSync(lcPdf) ? statSync(lcPdf).size : null;
      result.librecad = { ...lc, bytes: lcBytes, display: xvfb ? 'xvfb-run' : 'offscreen' };
      // ours ÷ LibreCAD: under 1 is better
      result.ratio = {
        time: +(pdf.ms / lc.ms).toFixed(2),
        ...(pdf.peakMb && lc.peakMb ? { peakMemory: +(pdf.peakMb / lc.peakMb).toFixed(2) } : {}),
        ...(lcBytes ? { size: +((statSync(oursPdf).size || 0) / lcBytes).toFixed(2) } : {}),
        png4000TimeToLibrecadPdf: +(png.ms / lc.ms).toFixed(2),
        ...('ms' in warmPdf ? { warmPdfTime: +(warmPdf.ms / lc.ms).toFixed(2) } : {}),
      };
    } else result.librecad = 'not installed (apt-get install -y librecad)';
    result.pdfToDxfSize = existsSync(oursPdf) ? +(statSync(oursPdf).size / dxfBytes).toFixed(3) : null;
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
