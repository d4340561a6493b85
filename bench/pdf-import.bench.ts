/**
 * PDF → DXF (issue 17 part 5): `npm run cad -- convert in.pdf out.dxf` as a user runs it (the built command line, a
 * cold process: start-up, pdfjs loading and reading included), its wall time and peak memory (/usr/bin/time when
 * present), against two tools on the same PDF in the same run, taking turns with ours so all meet the same load:
 * Debian's pstoedit (`-f dxf_s`: PDF to DXF through Ghostscript, the nearest tool doing the same job) and poppler's
 * `pdftocairo -svg` (the PDF's vectors read and written out without building a drawing: a floor for the reading).
 * Ratios are ours ÷ theirs (under 1: ours is faster / smaller). Each tool is skipped with a note when not installed.
 *
 *   npm run bench -- pdf-import              only this benchmark
 *   BENCH_PDF_FILE=/path/to/x.pdf           another PDF (default: SAMPLES_DIR's floor plan plot and flange reference)
 *   BENCH_PDF_REPEAT=3                      runs of each (the median is reported)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

interface Run {
  ms: number;
  status: number | null;
  peakMb?: number;
}

function run(cmd: string, args: string[], cwd: string): Run {
  const timed = existsSync('/usr/bin/time');
  const t = performance.now();
  const r = spawnSync(timed ? '/usr/bin/time' : cmd, timed ? ['-f', 'PEAK_KB %M', cmd, ...args] : args, { cwd, encoding: 'utf8', timeout: 600_000 });
  const ms = Math.round(performance.now() - t);
  const peak = /PEAK_KB (\d+)/.exec(r.stderr ?? '')?.[1];
  return { ms, status: r.status, ...(peak ? { peakMb: Math.round(Number(peak) / 1024) } : {}) };
}

const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
const size = (file: string) => (existsSync(file) ? statSync(file).size : null);
/** entities in a DXF's ENTITIES section (each "0" group there, a POLYLINE's VERTEX and SEQEND records not counted) */
function entityCount(file: string): number | null {
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'latin1').split(/\r?\n/);
  let inEntities = false, n = 0;
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i].trim(), value = lines[i + 1].trim();
    if (code === '2' && value === 'ENTITIES') inEntities = true;
    else if (code === '0' && value === 'ENDSEC') inEntities = false;
    else if (inEntities && code === '0' && value !== 'VERTEX' && value !== 'SEQEND') n++;
  }
  return n;
}

export async function runPdfImportBench() {
  const samples = path.resolve(root, process.env.SAMPLES_DIR ?? '../shared/samples');
  const files = process.env.BENCH_PDF_FILE ? [process.env.BENCH_PDF_FILE] : ['pdf_ddc_floorplan_plot.pdf', 'pdf_qcad_flange_reference.pdf'].map((f) => path.join(samples, f));
  spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'cad', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const out: Record<string, unknown>[] = [];
  for (const file of files) out.push(existsSync(file) ? benchFile(file) : { skipped: `no ${file}` });
  return out;
}

function benchFile(file: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-pdf-import-bench-'));
  try {
    const repeat = Number(process.env.BENCH_PDF_REPEAT ?? 3);
    const ours = path.join(dir, 'ours.dxf'), ps = path.join(dir, 'pstoedit.dxf'), svg = path.join(dir, 'poppler.svg');
    const havePstoedit = existsSync('/usr/bin/pstoedit'), havePoppler = existsSync('/usr/bin/pdftocairo');
    const runs = { ours: [] as Run[], pstoedit: [] as Run[], poppler: [] as Run[] };
    for (let i = 0; i < repeat; i++) {
      runs.ours.push(run(process.execPath, [path.join(root, 'packages/cad/dist/cad.mjs'), 'convert', file, ours], root));
      // Ghostscript 10's new PDF interpreter hands pstoedit 3.78 nothing (an empty DXF, status 0): the legacy one reads it
      if (havePstoedit) runs.pstoedit.push(run('/usr/bin/pstoedit', ['-q', '-psarg', '-dNEWPDF=false', '-f', 'dxf_s', file, ps], dir));
      if (havePoppler) runs.poppler.push(run('/usr/bin/pdftocairo', ['-svg', file, svg], dir));
    }
    const o = median(runs.ours);
    const result: Record<string, unknown> = { file: path.basename(file), pdfBytes: statSync(file).size, runs: repeat, ours: { ...o, dxfBytes: size(ours), entities: entityCount(ours) } };
    const ratio = (other: Run) => ({ time: +(o.ms / other.ms).toFixed(2), ...(o.peakMb && other.peakMb ? { peakMemory: +(o.peakMb / other.peakMb).toFixed(2) } : {}) });
    if (havePstoedit && !entityCount(ps)) result.pstoedit = 'wrote no entities: no comparison';
    else if (havePstoedit) {
      const p = median(runs.pstoedit);
      result.pstoedit = { ...p, dxfBytes: size(ps), entities: entityCount(ps) };
      result.ratioToPstoedit = { ...ratio(p), ...(size(ps) && size(ours) ? { dxfSize: +(size(ours)! / size(ps)!).toFixed(2) } : {}) };
    } else result.pstoedit = 'not installed (apt-get install -y pstoedit ghostscript)';
    if (havePoppler) {
      const p = median(runs.poppler);
      result.pdftocairoSvg = { ...p, svgBytes: size(svg) };
      result.ratioToPdftocairo = ratio(p);
    } else result.pdftocairoSvg = 'not installed (apt-get install -y poppler-utils)';
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
