import { CadError, type Drawing } from './model/drawing.ts';
import { flattenLayout, layoutNames, MODEL } from './geometry/layout.ts';
import { compileScene, type TextGeometryFn, type TextGlyphsFn } from './scene/compile.ts';
import { encodeScene } from './scene/binary.ts';
import type { SceneMeta } from './scene/scene.types.ts';
import { Deadline } from './geometry/content-budget.ts';

export { isDwgName, readDrawing } from './read.ts';

/** Text for the scene: the text engine when the caller has fonts, nothing otherwise (texts stay searchable). */
export interface SceneTextSupport {
  textGeometry: TextGeometryFn;
  /** placed glyphs (the text engine's textGlyphs): frequent glyphs are then drawn as instances, a much smaller scene */
  textGlyphs?: TextGlyphsFn;
  fonts?: SceneMeta['fonts'];
}

/**
 * One layout of a drawing as scene bytes (what the viewer downloads and the server caches). `layout`
 * defaults to Model; an unknown layout name fails with the spec's message. `budgetMs`: the most the flattening and
 * compiling may take; past it the build ends with `cad.tooComplex` (geometry/content-budget.ts) instead of running
 * on until the caller's timeout.
 */
export async function buildSceneBytes(d: Drawing, layout: string = MODEL, text?: (d: Drawing) => Promise<SceneTextSupport>, o: { batchBytes?: number; timings?: BuildTimings; budgetMs?: number } = {}): Promise<Uint8Array> {
  const deadline = Deadline.within(o.budgetMs, 'scene build');
  const lap = stopwatch(o.timings);
  const layouts = layoutNames(d);
  const name = layouts.find((n) => n.toLowerCase() === layout.toLowerCase());
  if (!name) throw new CadError('cad.parseFailed', 'Layout switch failed!', `no layout ${layout}`);
  // exact curves: the viewer tessellates them for the zoom it shows; blocks inserted often become instances of one
  // mesh (the compiler bakes the ones that do not pay)
  // layers off or frozen in the file are kept: the viewer shows them when its user switches them on
  const flat = flattenLayout(d, name, { curves: true, blockInstances: true, segmentLists: true, keepHiddenLayers: true, deadline });
  if (!flat) throw new CadError('cad.parseFailed', 'Layout switch failed!', `no layout ${layout}`);
  lap('flatten');
  const t = text ? await text(d) : undefined;
  lap('fonts');
  deadline?.check('fonts');
  const scene = compileScene(d, flat, { layout: name, layouts, textGeometry: t?.textGeometry, textGlyphs: t?.textGlyphs, fonts: t?.fonts, deadline });
  lap('compile');
  const bytes = encodeScene(scene, o);
  lap('encode');
  return bytes;
}

/** Milliseconds per phase of a scene build (the server reports them in its Server-Timing header). */
export type BuildTimings = Partial<Record<'flatten' | 'fonts' | 'compile' | 'encode', number>>;

function stopwatch(into?: BuildTimings) {
  let last = performance.now();
  return (phase: keyof BuildTimings) => {
    const now = performance.now();
    if (into) into[phase] = now - last;
    last = now;
  };
}
