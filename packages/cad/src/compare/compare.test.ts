import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseDxf } from '../dxf/reader.ts';
import { parseDwg, stopDwgWorker } from '../dwg/dwg-reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import type { Drawing, Entity, Pair } from '../model/drawing.ts';
import { decodeScene } from '../scene/binary.ts';
import { compareDrawings, type EntityChange } from './compare.ts';
import { buildCompare, COMPARE_COLOURS, COMPARE_LAYERS } from './overlay.ts';
import { loadFonts, textGeometry } from '../text/index.ts';

const SAMPLES = process.env.SAMPLES_DIR ?? '/work/shared/samples';

const line = (h: string, layer: string, x0: number, y0: number, x1: number, y1: number, extra: Pairs = []): FixtureEntity => ({ type: 'LINE', pairs: [[5, h], [8, layer], ...extra, [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]] });
const circle = (h: string, layer: string, x: number, y: number, r: number): FixtureEntity => ({ type: 'CIRCLE', pairs: [[5, h], [8, layer], [10, x], [20, y], [30, 0], [40, r]] });
const text = (h: string, s: string, x: number, y: number): FixtureEntity => ({ type: 'TEXT', pairs: [[5, h], [8, 'T'], [10, x], [20, y], [30, 0], [40, 5], [1, s]] });
const insert = (h: string, block: string, x: number, y: number): FixtureEntity => ({ type: 'INSERT', pairs: [[5, h], [8, 'A'], [2, block], [10, x], [20, y], [30, 0]] });
const arc = (h: string): FixtureEntity => ({ type: 'ARC', pairs: [[5, h], [8, 'A'], [10, 300], [20, 300], [30, 0], [40, 20], [50, 0], [51, 90]] });
const poly = (h: string): FixtureEntity => ({ type: 'LWPOLYLINE', pairs: [[5, h], [8, 'B'], [90, 3], [70, 1], [10, 400], [20, 0], [10, 450], [20, 0], [10, 450], [20, 40]] });

/** Version A of a generated drawing and version B with known edits. `rehandle` gives every B entity a new handle. */
function pair(rehandle = false) {
  const layers = ['0', 'A', 'B', 'T'];
  const a = writeAsciiDxf({
    layers,
    blocks: [
      { name: 'BOX', entities: [line('', '0', 0, 0, 10, 0).pairs, line('', '0', 10, 0, 10, 10).pairs].map((pairs) => ({ type: 'LINE', pairs: pairs.slice(1) })) },
      { name: 'ICON', entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 3]] }] },
    ],
    entities: [
      line('10', 'A', 0, 0, 100, 0),
      circle('11', 'A', 50, 50, 10),
      line('12', 'B', 0, 200, 100, 200),
      text('13', 'Hello', 0, 100),
      poly('14'),
      arc('15'),
      insert('16', 'BOX', 200, 0),
      insert('17', 'ICON', 250, 0),
      line('18', 'A', 0, 300, 100, 300),
    ],
  });
  const h = (x: string) => (rehandle ? (parseInt(x, 16) + 0x1000).toString(16).toUpperCase() : x);
  const b = writeAsciiDxf({
    layers,
    blocks: [
      // the block's second line is longer: every INSERT of BOX draws something else
      { name: 'BOX', entities: [line('', '0', 0, 0, 10, 0).pairs, line('', '0', 10, 0, 10, 25).pairs].map((pairs) => ({ type: 'LINE', pairs: pairs.slice(1) })) },
      { name: 'ICON', entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [40, 3]] }] },
    ],
    entities: [
      line(h('10'), 'A', 0, 50, 100, 50), // moved
      // 11 deleted
      line(h('12'), 'B', 0, 200, 100, 200, [[62, 3]]), // recoloured
      text(h('13'), 'World', 0, 100), // retexted
      poly(h('14')),
      arc(rehandle ? h('15') : '25'), // same arc, new handle
      insert(h('16'), 'BOX', 200, 0), // block content changed
      insert(h('17'), 'ICON', 250, 0),
      line(h('18'), 'B', 0, 300, 100, 300), // moved to another layer
      circle(h('30'), 'A', 600, 600, 5), // added
    ],
  });
  return { a: parseDxf(a), b: parseDxf(b), h };
}

const summary = (changes: EntityChange[]) => changes.map((c) => `${c.kind} ${c.type} ${c.handleA ?? '-'}>${c.handleB ?? '-'} ${c.what.join('+')}`).sort();

describe('drawing compare', () => {
  afterAll(() => stopDwgWorker());
  it('finds exactly the moved, deleted, added, recoloured, retexted, re-layered entities and the changed block', () => {
    const { a, b } = pair();
    const r = compareDrawings(a, b);
    expect(summary(r.changes)).toEqual([
      'added CIRCLE ->30 ',
      'modified INSERT 16>16 geometry',
      'modified LINE 10>10 geometry',
      'modified LINE 12>12 colour',
      'modified LINE 18>18 layer',
      'modified TEXT 13>13 text',
      'removed CIRCLE 11>- ',
    ]);
    expect(r.counts).toEqual({ added: 1, removed: 1, modified: 5, unchanged: 3 });
    // where to look: the moved line spans its old and new place, the added circle its own box
    expect(r.changes.find((c) => c.handleA === '10')!.bounds).toEqual({ minX: 0, minY: 0, maxX: 100, maxY: 50 });
    const added = r.changes.find((c) => c.kind === 'added')!.bounds;
    expect(Math.abs(added.minX - 595)).toBeLessThan(0.1);
    expect(Math.abs(added.maxY - 605)).toBeLessThan(0.5);
  });

  it('finds the same changes when every handle was regenerated (matched by geometry)', () => {
    const { a, b } = pair(true);
    const r = compareDrawings(a, b);
    expect(summary(r.changes).map((s) => s.replace(/ \S+>\S+ /, ' ')).sort()).toEqual([
      'added CIRCLE ',
      'modified INSERT geometry',
      'modified LINE colour',
      'modified LINE geometry',
      'modified LINE layer',
      'modified TEXT text',
      'removed CIRCLE ',
    ]);
  });

  it('finds nothing between identical drawings', () => {
    const { a } = pair();
    const r = compareDrawings(a, parseDxf(writeBack(a)));
    expect(r.changes).toEqual([]);
    expect(r.counts.unchanged).toBe(9);
  });

  it('draws the overlay: grey unchanged, green added, red removed, orange modified over faint red', async () => {
    const { a, b } = pair();
    const built = await buildCompare(a, b);
    const s = decodeScene(built.scene);
    expect(s.meta.layers.map((l) => l.name)).toEqual(Object.values(COMPARE_LAYERS));
    const colourOfLayer = (name: string) => {
      const li = s.meta.layers.findIndex((l) => l.name === name);
      const r = s.meta.lineRanges.find(([l]) => l === li);
      if (!r) return null;
      const v = r[1];
      return (s.lineColors[v * 4] << 16) | (s.lineColors[v * 4 + 1] << 8) | s.lineColors[v * 4 + 2];
    };
    expect(colourOfLayer(COMPARE_LAYERS.added)).toBe(COMPARE_COLOURS.added);
    expect(colourOfLayer(COMPARE_LAYERS.removed)).toBe(COMPARE_COLOURS.removed);
    expect(colourOfLayer(COMPARE_LAYERS.modified)).toBe(COMPARE_COLOURS.modified);
    expect(colourOfLayer(COMPARE_LAYERS.before)).toBe(COMPARE_COLOURS.before);
    expect(colourOfLayer(COMPARE_LAYERS.unchanged)).toBe(COMPARE_COLOURS.unchanged);
    // the removed circle's segments belong to A's circle (entity list: B's then A's), with its own layer
    const li = s.meta.layers.findIndex((l) => l.name === COMPARE_LAYERS.removed);
    const [, first] = s.meta.lineRanges.find(([l]) => l === li)!;
    expect(s.meta.entities[s.lineEntities[first / 2]]).toMatchObject({ handle: '11', type: 'CIRCLE', layer: 'A' });
  });

  it('draws text in its state colour, inline MTEXT colours included', async () => {
    const mtext = (h: string, s: string): FixtureEntity => ({ type: 'MTEXT', pairs: [[5, h], [8, 'T'], [10, 0], [20, 0], [30, 0], [40, 5], [1, s]] });
    const a = parseDxf(writeAsciiDxf({ layers: ['0', 'T'], entities: [line('1', 'T', 0, -10, 50, -10)] }));
    const b = parseDxf(writeAsciiDxf({ layers: ['0', 'T'], entities: [line('1', 'T', 0, -10, 50, -10), mtext('2', '{\\C1;RED} and {\\C5;BLUE}')] }));
    const fonts = { a: await loadFonts(a, async () => null), b: await loadFonts(b, async () => null) };
    const built = await buildCompare(a, b, {}, async (da, db) => ({ a: (run) => textGeometry(run, da, fonts.a), b: (run) => textGeometry(run, db, fonts.b) }));
    const s = decodeScene(built.scene);
    const li = s.meta.layers.findIndex((l) => l.name === COMPARE_LAYERS.added);
    const colours = new Set<number>();
    for (const [l, first, count] of s.meta.lineRanges) if (l === li) for (let v = first; v < first + count; v++) colours.add((s.lineColors[v * 4] << 16) | (s.lineColors[v * 4 + 1] << 8) | s.lineColors[v * 4 + 2]);
    for (const [l, first, count] of s.meta.triRanges) if (l === li) for (let v = first; v < first + count; v++) colours.add((s.triColors[v * 4] << 16) | (s.triColors[v * 4 + 1] << 8) | s.triColors[v * 4 + 2]);
    expect([...colours]).toEqual([COMPARE_COLOURS.added]);
    expect(built.counts).toEqual({ added: 1, removed: 0, modified: 0, unchanged: 1 });
  });

  it('npm run cad -- compare prints the change list and writes the overlay image', () => {
    const { a, b } = pair();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cad-compare-'));
    writeFileSync(path.join(dir, 'a.dxf'), writeBack(a));
    writeFileSync(path.join(dir, 'b.dxf'), writeBack(b));
    const root = path.resolve(import.meta.dirname, '../../../..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts', 'compare', path.join(dir, 'a.dxf'), path.join(dir, 'b.dxf'), path.join(dir, 'o.png')], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.counts).toEqual({ added: 1, removed: 1, modified: 5, unchanged: 3 });
    expect(readFileSync(path.join(dir, 'o.png')).subarray(1, 4).toString()).toBe('PNG');
  }, 90_000);

  it('pairs thousands of identical entities, all moved a little and re-handled, each with its own original, quickly', () => {
    const n = 20_000, side = Math.ceil(Math.sqrt(n));
    const lines = (dx: number, prefix: string) => Array.from({ length: n }, (_, k) => line(`${prefix}${k.toString(16).toUpperCase()}`, 'A', (k % side) * 10 + dx, Math.floor(k / side) * 10, (k % side) * 10 + dx + 4, Math.floor(k / side) * 10));
    const a = parseDxf(writeAsciiDxf({ layers: ['0', 'A'], entities: lines(0, '1') }));
    const b = parseDxf(writeAsciiDxf({ layers: ['0', 'A'], entities: lines(0.5, '2') }));
    const t0 = performance.now();
    const r = compareDrawings(a, b);
    const ms = performance.now() - t0;
    console.log(`${n} re-handled moved lines compared in ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(15_000);
    expect(r.counts).toEqual({ added: 0, removed: 0, modified: n, unchanged: 0 });
    expect(r.changes.filter((c) => c.handleB!.slice(1) !== c.handleA!.slice(1) || c.what.join() !== 'geometry')).toEqual([]);
  }, 60_000);

  const floorplan = path.join(SAMPLES, 'dxf_dxfjs_floorplan.dxf');
  it.skipIf(!existsSync(floorplan))('finds exactly the known edits in a modified copy of a real drawing', () => {
    if (!existsSync(floorplan)) return console.log(`skipped: no sample at ${floorplan} (set SAMPLES_DIR)`);
    const a = parseDxf(readFileSync(floorplan));
    const model = a.entities.filter((e) => !e.paperSpace && a.layers.find((l) => l.name === e.layer)?.on !== false);
    const lines = model.filter((e) => e.type === 'LINE');
    const texts = model.filter((e) => e.type === 'TEXT');
    const layerColour = (e: Entity) => a.layers.find((l) => l.name === e.layer)?.color;
    const moved = lines[10], deleted = lines[20], recoloured = lines.find((e, i) => i > 30 && e.color === 256 && layerColour(e) !== 1 && !e.trueColor)!, rehandled = lines[40];
    const retexted = texts[3];
    const edit = (e: Entity, f: (p: Pair[]) => Pair[], more: Partial<Entity> = {}): Entity => ({ type: e.type, handle: e.handle, layer: e.layer, color: e.color, trueColor: e.trueColor, linetype: e.linetype, lineweight: e.lineweight, paperSpace: e.paperSpace, owner: e.owner, pairs: f(e.pairs), ...more });
    const shift = (p: Pair[]) => p.map(([c, v]): Pair => ([20, 21].includes(c) ? [c, Number(v) + 137] : [c, v]));
    const added: Entity = { type: 'CIRCLE', handle: 'FFFF1', layer: '0', color: 3, paperSpace: false, pairs: [[5, 'FFFF1'], [8, '0'], [62, 3], [10, 12345], [20, 6789], [30, 0], [40, 77]] };
    const entities = a.entities.flatMap((e): Entity[] => {
      if (e === deleted) return [];
      if (e === moved) return [edit(e, shift)];
      if (e === recoloured) return [edit(e, (p) => [...p, [62, 1]], { color: 1 })];
      if (e === retexted) return [edit(e, (p) => p.map(([c, v]): Pair => (c === 1 ? [c, `${v} (rev B)`] : [c, v])))];
      if (e === rehandled) return [edit(e, (p) => p.map(([c, v]): Pair => (c === 5 ? [c, 'FFFF2'] : [c, v])), { handle: 'FFFF2' })];
      return [e];
    });
    const b: Drawing = { ...a, entities: [...entities, added] };
    const t0 = performance.now();
    const r = compareDrawings(a, b);
    const ms = performance.now() - t0;
    expect(summary(r.changes)).toEqual([
      `added CIRCLE ->FFFF1 `,
      `modified LINE ${moved.handle}>${moved.handle} geometry`,
      `modified LINE ${recoloured.handle}>${recoloured.handle} colour`,
      `modified TEXT ${retexted.handle}>${retexted.handle} text`,
      `removed LINE ${deleted.handle}>- `,
    ].sort());
    expect(compareDrawings(a, parseDxf(readFileSync(floorplan))).changes).toEqual([]);
    expect(ms).toBeLessThan(20_000);
  });

  const dwg = path.join(SAMPLES, 'dwg_2018_acadsharp_sample.dwg');
  it.skipIf(!existsSync(dwg))('compares DWG drawings: itself → nothing, one entity erased → exactly that one', async () => {
    const a = await parseDwg(readFileSync(dwg));
    const drawn = compareDrawings(a, a).counts.unchanged;
    expect(drawn).toBeGreaterThan(10);
    const gone = a.entities.find((e) => !e.paperSpace && e.type === 'LINE' && e.handle)!;
    const r = compareDrawings(a, { ...a, entities: a.entities.filter((e) => e !== gone) });
    expect(summary(r.changes)).toEqual([`removed LINE ${gone.handle}>- `]);
  }, 120_000);

  const bigger = path.join(SAMPLES, 'dxf_ezdxf_us_map.dxf');
  it.skipIf(!existsSync(bigger))('compares a larger drawing with itself quickly and finds nothing', () => {
    const a = parseDxf(readFileSync(bigger)), b = parseDxf(readFileSync(bigger));
    const t0 = performance.now();
    const r = compareDrawings(a, b);
    expect(r.changes).toEqual([]);
    expect(r.counts.unchanged).toBeGreaterThan(100);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});

/** A drawing written out again through the test writer (tables and blocks as the fixture had them). */
function writeBack(d: Drawing): Uint8Array {
  return writeAsciiDxf({
    layers: d.layers.map((l) => l.name),
    blocks: d.blocks.filter((b) => !b.name.startsWith('*')).map((b) => ({ name: b.name, entities: b.entities.map((e) => ({ type: e.type, pairs: e.pairs.map(([c, v]) => [c, v] as [number, string | number]) })) })),
    entities: d.entities.map((e) => ({ type: e.type, pairs: e.pairs.map(([c, v]) => [c, v] as [number, string | number]) })),
  });
}
