/**
 * The compare overlay: one scene the viewer draws like any drawing (no renderer change). B's entities are drawn
 * in the colour of their state (unchanged dim grey, added green, modified orange) and A's removed entities in
 * red, A's old geometry of modified entities in a faint red. Each state is its own scene layer, in drawing order
 * (unchanged at the bottom, then A's, then B's changes), so "only A" / "only B" / "both" is a layer switch, and
 * the entity list still names each entity's own layer, type and handle for the properties panel.
 */
import type { Drawing } from '../model/drawing.ts';
import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { layoutNames } from '../geometry/layout.ts';
import { compileScene, type TextGeometryFn } from '../scene/compile.ts';
import { encodeScene } from '../scene/binary.ts';
import type { Scene, SceneMeta } from '../scene/scene.types.ts';
import { compareDetailed, type CompareDetail, type CompareOptions, type DrawingComparison } from './compare.ts';

export const COMPARE_COLOURS = {
  unchanged: 0x8c8c8c,
  removed: 0xff4d4f,
  before: 0x8a3a3c,
  modified: 0xfa8c16,
  added: 0x52c41a,
} as const;

/** Scene layer names of the overlay, bottom to top; the web page switches them for "only A", "only B". */
export const COMPARE_LAYERS = {
  unchanged: 'compare:unchanged',
  removed: 'compare:removed',
  before: 'compare:before',
  modified: 'compare:modified',
  added: 'compare:added',
} as const;

export type CompareLayer = keyof typeof COMPARE_LAYERS;
const ORDER: CompareLayer[] = ['unchanged', 'removed', 'before', 'modified', 'added'];

/** B's geometry and A's removed / old geometry, recoloured, on the state layers. Entities: B's, then A's. */
export function overlayFlattened(c: CompareDetail): Flattened {
  const base = c.flatB.entities.length;
  const out: Flattened = { polylines: [], texts: [], entities: [...c.flatB.entities, ...c.flatA.entities], skipped: { ...c.flatB.skipped } };
  const stateOfB = (i: number): CompareLayer | null => {
    const s = c.stateB[i];
    if (s === undefined) return null;
    if (s === -1) return 'unchanged';
    return c.changes[s].kind === 'added' ? 'added' : 'modified';
  };
  const stateOfA = (i: number): CompareLayer | null => {
    const s = c.stateA[i];
    if (s === undefined || s < 0) return null;
    return c.changes[s].kind === 'removed' ? 'removed' : 'before';
  };
  const put = (f: Flattened, state: (i: number) => CompareLayer | null, offset: number) => {
    for (const p of f.polylines) {
      const s = state(p.entity);
      if (s) out.polylines.push({ ...p, color: COMPARE_COLOURS[s], layer: COMPARE_LAYERS[s], entity: p.entity + offset });
    }
    for (const t of f.texts) {
      const s = state(t.entity);
      if (s) out.texts.push({ ...t, color: COMPARE_COLOURS[s], layer: COMPARE_LAYERS[s], entity: t.entity + offset });
    }
  };
  put(c.flatA, stateOfA, base);
  put(c.flatB, stateOfB, 0);
  return out;
}

export interface CompareSceneText {
  /** text geometry of A's and of B's texts (each drawing has its own styles and fonts) */
  a: TextGeometryFn;
  b: TextGeometryFn;
  fonts?: SceneMeta['fonts'];
}

/** The overlay as a scene; text through each side's own text engine when given. */
export function compileCompareScene(a: Drawing, b: Drawing, c: CompareDetail, text?: CompareSceneText): Scene {
  const flat = overlayFlattened(c);
  const base = c.flatB.entities.length;
  const layers = ORDER.map((k) => ({ name: COMPARE_LAYERS[k], color: 7, trueColor: COMPARE_COLOURS[k], linetype: 'CONTINUOUS', lineweight: -3, on: true, frozen: false, locked: false }));
  // the state's colour for the whole text: inline MTEXT colours (\C) are dropped
  const textGeometry = text
    ? (run: TextRun) => {
        const g = run.entity >= base ? text.a(run) : text.b(run);
        return { strokes: g.strokes, triangles: g.triangles };
      }
    : undefined;
  const layouts = layoutNames(b).filter((n) => layoutNames(a).some((m) => m.toLowerCase() === n.toLowerCase()));
  return compileScene({ ...b, layers }, flat, { layout: c.layout, layouts, textGeometry, fonts: text?.fonts });
}

export interface CompareBuild extends DrawingComparison {
  scene: Uint8Array;
}

/** Both drawings compared and the overlay scene encoded: what the server caches per pair of files. */
export async function buildCompare(a: Drawing, b: Drawing, o: CompareOptions = {}, text?: (a: Drawing, b: Drawing) => Promise<CompareSceneText>): Promise<CompareBuild> {
  const c = compareDetailed(a, b, o);
  const t = text ? await text(a, b) : undefined;
  const scene = encodeScene(compileCompareScene(a, b, c, t));
  return { layout: c.layout, changes: c.changes, counts: c.counts, scene };
}
