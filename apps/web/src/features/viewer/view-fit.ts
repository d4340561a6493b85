import type { Scene, SceneMeta, SceneRect } from '@cadcloud/cad/scene';
import type { View } from './gl-renderer.ts';

/**
 * The view that shows `b` (drawing coordinates) whole in a w × h canvas, with a margin, as "zoom extents" does; by
 * default the drawing's content without far-away stray items (`home`, the frame its thumbnail shows too).
 */
export function fitView(meta: Pick<SceneMeta, 'bounds' | 'origin' | 'home'>, w: number, h: number, b: SceneRect = meta.home ?? meta.bounds): View {
  const bw = Math.max(b.maxX - b.minX, 1e-9), bh = Math.max(b.maxY - b.minY, 1e-9);
  return { cx: (b.minX + b.maxX) / 2 - meta.origin[0], cy: (b.minY + b.maxY) / 2 - meta.origin[1], ppu: Math.min(w / bw, h / bh) * 0.92 };
}

/**
 * Layers drawn: as the file has them (on and not frozen) unless the user chose otherwise for a layer (`choice`: true
 * shown, false hidden; a layer off or frozen in the file may be switched on, nothing is saved), less the ones the
 * page hides.
 */
export function openLayers(meta: Pick<SceneMeta, 'layers'>, hidden?: (i: number, name: string) => boolean, choice?: ReadonlyMap<number, boolean>): Set<number> {
  const v = new Set<number>();
  meta.layers.forEach((l, i) => (choice?.get(i) ?? (l.on && !l.frozen)) && !hidden?.(i, l.name) && v.add(i));
  return v;
}

/** The viewer's settings a first frame must honour, kept in localStorage (the viewer writes them). */
export const THEME_KEY = 'cadcloud.viewer.light';
export const LW_KEY = 'cadcloud.viewer.lineweights';

/** Nothing to draw (the sizes are known from the scene's head, before its batches arrive). */
export const isEmptyScene = (s: Scene) => !s.linePositions.length && !s.triPositions.length && !s.glyphInstances.length && !s.meta.images?.length;
