import { beforeAll, describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { flattenLayout, layoutNames } from '../geometry/layout.ts';
import { loadFonts, textGeometry, textGlyphs, type FontSet } from '../text/index.ts';
import type { Drawing } from '../model/drawing.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';
import { runValueAt } from './runs.ts';
import { CURVE_FLOATS } from './curves.ts';
import { GLYPH_TIER_UNIT } from './tiers.ts';
import type { Scene } from './scene.types.ts';

/** A WIPEOUT over the rectangle x0…x1 × y0…y1 (its clip boundary is the whole frame). */
const wipeout = (handle: string, x0: number, y0: number, x1: number, y1: number, layer = '0'): FixtureEntity => ({
  type: 'WIPEOUT',
  pairs: [[5, handle], [8, layer], [100, 'AcDbWipeout'], [10, x0], [20, y0], [30, 0], [11, x1 - x0], [21, 0], [31, 0], [12, 0], [22, y1 - y0], [32, 0], [13, 1], [23, 1], [280, 1], [71, 1], [91, 2], [14, -0.5], [24, -0.5], [14, 0.5], [24, 0.5]],
});
const line = (handle: string, x0: number, y0: number, x1: number, y1: number, aci = 7): FixtureEntity => ({ type: 'LINE', pairs: [[5, handle], [8, '0'], [62, aci], [10, x0], [20, y0], [11, x1], [21, y1]] });
const circle = (handle: string, x: number, y: number, r: number): FixtureEntity => ({ type: 'CIRCLE', pairs: [[5, handle], [8, '0'], [10, x], [20, y], [40, r]] });
const text = (handle: string, x: number, y: number, h: number, s: string): FixtureEntity => ({ type: 'TEXT', pairs: [[5, handle], [8, '0'], [10, x], [20, y], [40, h], [1, s]] });
const solid = (handle: string, x0: number, y0: number, x1: number, y1: number): FixtureEntity => ({ type: 'SOLID', pairs: [[5, handle], [8, '0'], [10, x0], [20, y0], [11, x1], [21, y0], [12, x0], [22, y1], [13, x1], [23, y1]] });
const insert = (handle: string, block: string, x: number, y: number): FixtureEntity => ({ type: 'INSERT', pairs: [[5, handle], [8, '0'], [2, block], [10, x], [20, y]] });

/**
 * Every primitive's depth tier, by the handle of its entity (as a list of the tiers seen): segments and triangles
 * (255 - alpha), instanced glyphs (layer float / GLYPH_TIER_UNIT), curve records (last float), block instances (8th
 * float), wipeouts (meta.images). For a block INSERT, segments are keyed `handle/colour` (its children's colours).
 */
function tiersOf(s: Scene): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const put = (entity: number, tier: number, suffix = '') => {
    const k = (s.meta.entities[entity].handle ?? `#${entity}`) + suffix;
    (out.get(k) ?? out.set(k, []).get(k)!).push(tier);
  };
  const rgb = (c: Uint8Array, i: number) => ((c[i * 4] << 16) | (c[i * 4 + 1] << 8) | c[i * 4 + 2]).toString(16).padStart(6, '0');
  for (let i = 0; i < s.lineSegmentColors.length / 4; i++) {
    const e = runValueAt(s.lineEntityRuns, i);
    const tier = 255 - s.lineSegmentColors[i * 4 + 3];
    put(e, tier);
    if (s.meta.entities[e].type === 'INSERT') put(e, tier, `/${rgb(s.lineSegmentColors, i)}`);
  }
  for (let i = 0; i < s.triangleColors.length / 4; i++) put(runValueAt(s.triEntityRuns, i), 255 - s.triangleColors[i * 4 + 3]);
  for (let i = 0; i < s.glyphInstanceEntities.length; i++) put(s.glyphInstanceEntities[i], Math.floor(s.glyphInstances[i * 8 + 6] / GLYPH_TIER_UNIT));
  for (let i = 0; i < s.curveEntities.length; i++) put(s.curveEntities[i], s.curves[i * CURVE_FLOATS + 11]);
  for (let i = 0; i < s.blockInstanceEntities.length; i++) put(s.blockInstanceEntities[i], s.blockInstances[i * 8 + 7]);
  for (const im of s.meta.images ?? []) if (im.wipeout) put(im.entity, im.tier ?? -1, '/wipeout');
  return out;
}

const max = (a: number[] | undefined) => Math.max(...(a ?? [NaN]));
const min = (a: number[] | undefined) => Math.min(...(a ?? [NaN]));

describe('depth tiers: a wipeout hides what is drawn before it, in the viewer, whatever the batch order', () => {
  let fonts: FontSet;
  const compile = (d: Drawing, layout = 'Model') => decodeScene(encodeScene(compileScene(d, flattenLayout(d, layout, { curves: true, blockInstances: true })!, {
    layout, layouts: layoutNames(d), textGeometry: (r) => textGeometry(r, d, fonts), textGlyphs: (r) => textGlyphs(r, d, fonts),
  })));

  // under the wipeout (30…70 square): a red line, a circle, a dashed circle (exact dash curves), a solid and text
  // before it; a green line, a circle and a line of 80 E's (instanced glyphs) after it; a line after it far away
  const dashed: FixtureEntity = { type: 'CIRCLE', pairs: [[5, 'C3'], [8, '0'], [6, 'DASHED'], [10, 50], [20, 50], [40, 12]] };
  const d = parseDxf(writeAsciiDxf({
    linetypes: [{ name: 'DASHED', pattern: [2, -1] }],
    entities: [
      line('R1', 0, 50, 100, 50, 1), circle('C1', 50, 50, 5), dashed, solid('S1', 45, 35, 55, 40), text('T1', 40, 42, 3, 'AB'),
      wipeout('W1', 30, 30, 70, 70),
      line('G1', 50, 0, 50, 100, 3), circle('C2', 50, 50, 8), text('T2', 32, 60, 1, 'E'.repeat(80)), line('F1', 200, 200, 210, 200),
    ],
  }));
  beforeAll(async () => {
    fonts = await loadFonts(d, async () => null);
  });

  it('gives what comes before a wipeout a lower tier than the wipeout, and what comes after it the same or higher', () => {
    const s = compile(d);
    const t = tiersOf(s);
    const w = t.get('W1/wipeout')!;
    expect(w).toHaveLength(1);
    expect(w[0]).toBeGreaterThanOrEqual(1);
    // lines, curves, dashes of a curve, triangles and baked text before it
    expect(t.get('C3')!.length).toBeGreaterThan(10);
    for (const h of ['R1', 'C1', 'C3', 'S1', 'T1']) expect(max(t.get(h)), h).toBeLessThan(w[0]);
    // after it: a line, a curve and instanced glyphs (the E's are instanced: used often)
    expect(s.meta.glyphs?.length).toBeGreaterThan(0);
    expect(s.glyphInstanceEntities.length).toBeGreaterThan(0);
    for (const h of ['G1', 'C2', 'T2']) expect(min(t.get(h)), h).toBeGreaterThanOrEqual(w[0]);
    // tiers order things by place: a line nowhere near a wipeout stays on tier 0
    expect(t.get('F1')).toEqual([0]);
  });

  it('keeps every tier at 0 in a drawing without wipeouts: opaque colours, plain layer floats, zero spare floats', () => {
    const plain = parseDxf(writeAsciiDxf({
      blocks: [{ name: 'B', entities: Array.from({ length: 20 }, (_, i) => line(`b${i}`, 0, i, 5, i)) }],
      entities: [
        line('R1', 0, 50, 100, 50, 1), circle('C1', 50, 50, 5), solid('S1', 45, 35, 55, 40), text('T2', 32, 60, 1, 'E'.repeat(80)),
        ...Array.from({ length: 10 }, (_, i) => insert(`I${i}`, 'B', i * 10, 0)),
      ],
    }));
    const flat = flattenLayout(plain, 'Model', { curves: true, blockInstances: true })!;
    // the flattening does not record draw positions either (nothing to order)
    expect(flat.texts.some((r) => 'at' in r) || (flat.curves ?? []).some((c) => 'at' in c)).toBe(false);
    const s = compile(plain);
    expect(s.meta.images).toBeUndefined();
    expect(s.blockInstanceEntities.length).toBe(10);
    expect(s.glyphInstanceEntities.length).toBeGreaterThan(0);
    expect(s.curveEntities.length).toBe(1);
    const tiers = [...tiersOf(s).values()].flat();
    expect(tiers.length).toBeGreaterThan(0);
    expect(new Set(tiers)).toEqual(new Set([0]));
    for (const a of [s.lineSegmentColors, s.triangleColors, s.blockLineColors]) for (let i = 3; i < a.length; i += 4) expect(a[i]).toBe(255);
  });

  it('bakes a block holding a wipeout, so its children are ordered around it; an instanced block takes the INSERT’s tier', () => {
    // TAG: a red line, its wipeout, a green line, inserted three times (apart); DOTS (20 lines, instanced) inserted
    // under the last TAG after it, and over a top-level wipeout drawn after them
    const dots = Array.from({ length: 20 }, (_, i) => line(`d${i}`, 0, i * 0.2, 4, i * 0.2, 5));
    const tag = [line('t1', -3, 0, 3, 0, 1), wipeout('tw', -2, -2, 2, 2), line('t2', 0, -3, 0, 3, 3)];
    const dd = parseDxf(writeAsciiDxf({
      blocks: [{ name: 'TAG', entities: tag }, { name: 'DOTS', entities: dots }],
      entities: [
        insert('A1', 'TAG', 0, 0), insert('A2', 'TAG', 100, 0), insert('A3', 'TAG', 200, 0),
        ...Array.from({ length: 8 }, (_, i) => insert(`D${i}`, 'DOTS', 199 + i * 0.01, -1)),
        insert('E0', 'DOTS', 300, 0), insert('E1', 'DOTS', 300, 0), wipeout('W2', 299, -1, 305, 5),
      ],
    }));
    const s = compile(dd);
    const t = tiersOf(s);
    // TAG is never a mesh: its INSERTs are baked (their segments are in the line buffer)
    const instanced = new Set([...s.blockInstanceEntities].map((e) => s.meta.entities[e].handle));
    expect(instanced.has('A1') || instanced.has('A2') || instanced.has('A3')).toBe(false);
    expect(instanced.has('D0') && instanced.has('E0')).toBe(true);
    for (const a of ['A1', 'A2', 'A3']) {
      const w = t.get(`${a}/wipeout`)!;
      expect(w, a).toHaveLength(1);
      expect(max(t.get(`${a}/ff0000`)), a).toBeLessThan(w[0]);
      expect(min(t.get(`${a}/00ff00`)), a).toBeGreaterThanOrEqual(w[0]);
    }
    // the instances after A3's wipeout draw over it, those before W2 are hidden under it
    expect(min(t.get('D3'))).toBeGreaterThanOrEqual(t.get('A3/wipeout')![0]);
    expect(max(t.get('E0'))).toBeLessThan(t.get('W2/wipeout')![0]);
  });

  it('orders model space seen through a paper viewport as in Model', () => {
    // the viewport shows model x 0…50 around (25, 0), at scale 2
    const dl = parseDxf(writeAsciiDxf({
      entities: [
        line('R1', 0, 0, 50, 0, 1), circle('C1', 25, 0, 3), wipeout('W1', 20, -5, 30, 5), line('G1', 25, -10, 25, 10, 3), circle('C2', 25, 0, 4),
        { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100], [20, 100], [40, 100], [41, 50], [68, 1], [69, 2], [12, 25], [22, 0], [45, 25]] },
      ],
    }));
    const s = compile(dl, 'Layout1');
    const t = tiersOf(s);
    const w = t.get('W1/wipeout')!;
    expect(w).toHaveLength(1);
    for (const h of ['R1', 'C1']) expect(max(t.get(h)), h).toBeLessThan(w[0]);
    for (const h of ['G1', 'C2']) expect(min(t.get(h)), h).toBeGreaterThanOrEqual(w[0]);
  });
});
