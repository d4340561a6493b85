import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDxf } from '../reader.ts';
import { readDrawing } from '../../open.ts';
import { DXF_VERSIONS, type DxfVersion } from '../../convert/targets.ts';
import type { Drawing, Entity } from '../../model/drawing.ts';
import { blockFixtureDxf } from '../../testing/block-fixture.ts';
import { writeAsciiDxf } from '../../testing/dxf-writer.ts';
import { samplesDir } from '../../fidelity/samples.ts';
import { ACADVER, writeDxf, writeDxfDetailed } from './index.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-dxfw-'));

/** ezdxf's recover + audit of a written file: its errors (fixes are listed apart: ezdxf makes some of its own) */
const AUDIT = `
import sys
from ezdxf import recover
doc, a = recover.readfile(sys.argv[1])
b = doc.audit()
print('ERRORS', len(a.errors) + len(b.errors))
for e in a.errors + b.errors: print(e.code, e.message)
`;
const hasEzdxf = spawnSync('/usr/bin/python3', ['-c', 'import ezdxf'], { encoding: 'utf8' }).status === 0;
if (!hasEzdxf) console.warn('ezdxf not installed (/usr/bin/python3 with python3-ezdxf): written files are not audited');
function ezdxfErrors(bytes: Buffer, name: string): string[] {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const r = spawnSync('/usr/bin/python3', ['-c', AUDIT, file], { encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) return [`ezdxf failed (${r.status ?? r.signal}): ${r.stderr.slice(-400)}`];
  const lines = r.stdout.trim().split('\n');
  return lines.slice(1);
}

function allEntities(d: Drawing): Entity[] {
  const out: Entity[] = [];
  const walk = (es: Entity[]) => es.forEach((e) => (out.push(e), e.children && walk(e.children)));
  walk(d.entities);
  d.blocks.forEach((b) => walk(b.entities));
  return out;
}
const handlesOf = (d: Drawing) => allEntities(d).flatMap((e) => (e.handle ? [e.handle.toUpperCase()] : [])).sort();
const names = (xs: { name: string }[]) => [...new Set(xs.map((x) => x.name.toUpperCase()))].sort();
const blockNames = (d: Drawing) => names(d.blocks.filter((b) => !/^[*$](model|paper)_space/i.test(b.name)));

/** the same drawing after a save as `version` (2000 on): entities per type, handles, layers, blocks, layouts */
function expectSame(a: Drawing, b: Drawing, dropped: Record<string, number>, converted: Record<string, number> = {}) {
  const want = { ...a.counts };
  for (const [t, n] of Object.entries(dropped)) want[t] -= n;
  for (const [fromTo, n] of Object.entries(converted)) {
    const [from, to] = fromTo.split('→');
    want[from] -= n;
    want[to] = (want[to] ?? 0) + n;
  }
  for (const t of Object.keys(want)) if (!want[t]) delete want[t];
  expect(b.counts).toEqual(want);
  const kept = new Set(handlesOf(b));
  const droppedHandles = handlesOf(a).filter((h) => !kept.has(h));
  expect(droppedHandles.length).toBeLessThanOrEqual(Object.values(dropped).reduce((s, n) => s + n, 0));
  expect(names(b.layers)).toEqual(expect.arrayContaining(names(a.layers)));
  expect(blockNames(b)).toEqual(blockNames(a));
  if (a.layouts.length) expect(b.layouts.map((l) => l.name).sort()).toEqual(a.layouts.map((l) => l.name).sort());
}

const e = (type: string, pairs: [number, string | number][]) => ({ type, pairs });
/** a drawing with what each version writes differently: CJK names and text, MTEXT, LWPOLYLINE, ELLIPSE, paper space */
const fixture = () =>
  parseDxf(
    writeAsciiDxf({
      version: 'AC1021',
      header: [['$PROJECTNAME', [[1, '住宅楼']]]],
      layers: ['0', 'Walls', '标注'],
      blocks: [{ name: 'DOOR', entities: [e('LINE', [[5, '90'], [8, '0'], [10, 0], [20, 0], [11, 1], [21, 0]])] }],
      entities: [
        e('LINE', [[5, 'A1'], [8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 50], [31, 0]]),
        e('LWPOLYLINE', [[5, 'A2'], [8, 'Walls'], [90, 3], [70, 1], [10, 0], [20, 0], [10, 10], [20, 0], [42, 0.5], [10, 10], [20, 10]]),
        e('MTEXT', [[5, 'A3'], [8, '标注'], [10, 5], [20, 5], [30, 0], [40, 2.5], [71, 1], [1, '{\\fArial|b1;门}\\P第二行 Zweite Zeile ä']]),
        e('TEXT', [[5, 'A4'], [8, '标注'], [10, 1], [20, 1], [30, 0], [40, 2], [1, '客厅 Ω']]),
        e('ELLIPSE', [[5, 'A5'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 10], [21, 0], [31, 0], [40, 0.5], [41, 0], [42, 6.283185307179586]]),
        e('INSERT', [[5, 'A6'], [8, '0'], [2, 'DOOR'], [10, 20], [20, 20], [30, 0]]),
        e('CIRCLE', [[5, 'A7'], [8, '0'], [67, 1], [10, 5], [20, 5], [30, 0], [40, 3]]),
      ],
    }),
  );

describe('writeDxf', () => {
  it('writes each version with its $ACADVER, and our reader reads back the same drawing (2000 on)', () => {
    for (const source of [fixture(), parseDxf(blockFixtureDxf(10))]) {
      for (const version of DXF_VERSIONS) {
        const w = writeDxfDetailed(source, { version });
        const back = parseDxf(w.bytes);
        expect(back.header.version).toBe(ACADVER[version]);
        if (version === 'R12') continue;
        expect(w.dropped).toEqual({});
        expectSame(source, back, w.dropped);
        expect(handlesOf(back)).toEqual(expect.arrayContaining(handlesOf(source)));
        // $HANDSEED above every handle in the file
        const seed = parseInt(String(back.header.vars.$HANDSEED), 16);
        expect(Math.max(...handlesOf(back).map((h) => parseInt(h, 16)))).toBeLessThan(seed);
      }
    }
  });

  it('keeps every handle the source has', () => {
    const source = fixture();
    const back = parseDxf(writeDxf(source, { version: '2013' }));
    expect(handlesOf(back)).toEqual(expect.arrayContaining(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', '90']));
  });

  it('writes text in the code page with \\U+ escapes up to 2004 and as UTF-8 from 2007', () => {
    const source = fixture();
    const v2004 = writeDxf(source, { version: '2004' });
    // ANSI_1252 has ä but no CJK: those are escaped, and read back as the same characters
    expect(v2004.includes(Buffer.from('\\U+5BA2\\U+5385'))).toBe(true);
    expect(v2004.includes(Buffer.from([0xe4]))).toBe(true);
    const text = (d: Drawing) => allEntities(d).find((x) => x.type === 'TEXT')!.pairs.find((p) => p[0] === 1)![1];
    expect(text(parseDxf(v2004))).toBe('客厅 Ω');
    expect(names(parseDxf(v2004).layers)).toContain('标注');
    const gbk = writeDxf({ ...source, header: { ...source.header, codePage: 'ANSI_936' } }, { version: '2000' });
    expect(gbk.includes(Buffer.from([0xbf, 0xcd, 0xcc, 0xfc]))).toBe(true); // 客厅 in GBK
    expect(text(parseDxf(gbk))).toBe('客厅 Ω');
    const v2007 = writeDxf(source, { version: '2007' });
    expect(v2007.includes(Buffer.from('客厅', 'utf8'))).toBe(true);
    // the header, read before the file said its encoding, is written in the right one too
    expect(v2007.includes(Buffer.from('住宅楼', 'utf8'))).toBe(true);
    expect(v2004.includes(Buffer.from('\\U+4F4F\\U+5B85\\U+697C'))).toBe(true);
    expect(text(parseDxf(v2007))).toBe('客厅 Ω');
  });

  it('writes R12 without what R12 lacks: LWPOLYLINE as POLYLINE, MTEXT as TEXT lines, ELLIPSE as a polyline', () => {
    const w = writeDxfDetailed(fixture(), { version: 'R12' });
    const s = w.bytes.toString('latin1');
    expect(s).not.toMatch(/\r\n100\r\nAcDb/);
    expect(s).not.toContain('OBJECTS');
    expect(w.converted).toEqual({ 'LWPOLYLINE→POLYLINE': 1, 'MTEXT→TEXT': 1, 'ELLIPSE→POLYLINE': 1 });
    const back = parseDxf(w.bytes);
    expect(back.counts.LWPOLYLINE).toBeUndefined();
    expect(back.counts.POLYLINE).toBe(2);
    expect(back.counts.TEXT).toBe(3);
    const texts = allEntities(back).filter((x) => x.type === 'TEXT').map((x) => x.pairs.find((p) => p[0] === 1)![1]);
    expect(texts).toEqual(expect.arrayContaining(['门', '第二行 Zweite Zeile ä']));
    // the polyline keeps its handle and its bulge
    const pl = allEntities(back).find((x) => x.handle === 'A2')!;
    expect(pl.type).toBe('POLYLINE');
    expect(pl.children!.filter((c) => c.type === 'VERTEX').map((v) => v.pairs.find((p) => p[0] === 42)?.[1] ?? 0)).toEqual([0, 0.5, 0]);
  });

  it.skipIf(!hasEzdxf)('ezdxf audits every version written from the fixture without errors', () => {
    for (const version of DXF_VERSIONS) expect(ezdxfErrors(writeDxf(fixture(), { version }), `fixture-${version}.dxf`), version).toEqual([]);
  }, 600_000);
});

/**
 * Every sample DXF and DWG saved as each version and read back. CI takes a few files (DXF_WRITER_FULL=1 for all):
 * the DWG ones go through LibreDWG, seconds each on these machines.
 */
const SAMPLED = ['dxf_2018_acadsharp_sample_ascii.dxf', 'dxf_r12_libredwg_example.dxf', 'dwg_2000_acadsharp_colors.dwg'];
const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => /\.(dxf|dwg)$/i.test(f) && (process.env.DXF_WRITER_FULL || SAMPLED.includes(f))) : [];
if (!samples.length) console.warn(`no samples in ${samplesDir}: the sample sweep of the DXF writer is skipped`);

describe.skipIf(!samples.length)('samples saved as each DXF version', () => {
  for (const file of samples) {
    it(file, async () => {
      const source = await readDrawing(readFileSync(path.join(samplesDir, file)), file);
      for (const version of DXF_VERSIONS) {
        const w = writeDxfDetailed(source, { version });
        const back = parseDxf(w.bytes);
        expect(back.header.version).toBe(ACADVER[version]);
        if (version !== 'R12') expectSame(source, back, w.dropped, w.converted);
        else expect(blockNames(back)).toEqual(blockNames(source).filter((n) => !/^\*PAPER_SPACE\d+$/.test(n)));
        if (hasEzdxf) expect(ezdxfErrors(w.bytes, `${file}.${version}.dxf`), `${file} ${version}`).toEqual([]);
      }
    }, 600_000);
  }
});
