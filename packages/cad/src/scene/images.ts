/**
 * Pictures (IMAGE) and masks (WIPEOUT) of a scene. The picture files are not in the drawing: the scene only says
 * where each one goes and which file it names, and the viewer fetches the files itself after the first frame
 * (the server finds them in the drawing owner's drive). Kept apart from compile.ts, which only calls sceneImages.
 * Browser-safe.
 */
import earcut from 'earcut';
import type { ImageAdjust } from '../geometry/image-adjust.ts';
import type { ImageRef } from '../geometry/image-refs.ts';

export interface SceneImage {
  /** index into `meta.entities` */
  entity: number;
  /** index into `meta.layers`: the picture is shown when that layer is */
  layer: number;
  /**
   * the picture's four corners relative to the scene origin, x0 y0 … x3 y3: insertion point (the bottom-left of
   * the picture), +u, +u+v, +v, where u runs along the pixel rows and v up the columns (rotated, skewed or
   * mirrored as the drawing places it)
   */
  corners: number[];
  /** the clip boundary relative to the origin, when the drawing clips the picture (or the wipeout's outline; a white fill's mask: its outline then its islands' points, which `triangles` index) */
  clip?: number[];
  /** triangles of the painted area (`clip` when given, else `corners`), as vertex indices into that ring */
  triangles: number[];
  /** the file name exactly as the IMAGEDEF writes it (what the viewer asks the server for) */
  file?: string;
  /** its base name, for the "not found" list */
  name?: string;
  /** size in pixels as the IMAGEDEF says */
  width?: number;
  height?: number;
  /** a WIPEOUT: painted in the background colour, no picture */
  wipeout?: true;
  /** a wipeout's depth tier (scene/tiers.ts): it hides the primitives of lower tiers under it */
  tier?: number;
  adjust?: ImageAdjust;
}

/**
 * IMAGEADJUST as a linear map of each colour channel (0–1) plus an opacity: contrast scales about mid-grey
 * (0 flat grey, 50 unchanged, 100 doubled), brightness shifts by ±0.5 at its ends, fade lets the background
 * through (100 = invisible). One formula for the server-side renderers and the viewer's shader, so they agree.
 */
export function adjustLinear(a: ImageAdjust | undefined): { slope: number; intercept: number; opacity: number } {
  if (!a) return { slope: 1, intercept: 0, opacity: 1 };
  const slope = a.contrast / 50;
  return { slope, intercept: 0.5 - 0.5 * slope + (a.brightness - 50) / 100, opacity: 1 - a.fade / 100 };
}

/** Triangles of a ring: the rectangle of an unclipped picture needs no triangulator. */
function triangulate(ring: number[]): number[] {
  if (ring.length === 8) return [0, 1, 2, 0, 2, 3];
  if (ring.length < 6) return [];
  return earcut(ring);
}

/** A ring with islands as one ring of all their points (what `clip` then holds) and its triangles indexing it. */
function withHoles(ring: number[], holes: number[][]): { ring: number[]; triangles: number[] } {
  const all = ring.slice();
  const starts: number[] = [];
  for (const h of holes) {
    starts.push(all.length / 2);
    for (const v of h) all.push(v);
  }
  return { ring: all, triangles: earcut(all, starts) };
}

/**
 * The scene's list of pictures and wipeouts, in draw order, positions relative to the origin (ox, oy); `tiers`: the
 * depth tiers per `Flattened.images` (scene/tiers.ts), absent when the drawing has no wipeout.
 */
export function sceneImages(refs: readonly ImageRef[], layerIndex: (name: string) => number, ox: number, oy: number, tiers?: Uint8Array): SceneImage[] {
  const out: SceneImage[] = [];
  const rel = (pts: number[]) => pts.map((v, i) => (i % 2 ? v - oy : v - ox));
  for (const r of refs) {
    if (![...r.corners, ...(r.clip ?? [])].every(Number.isFinite)) continue;
    const corners = rel(r.corners);
    let clip = r.clip && r.clip.length >= 6 ? rel(r.clip) : undefined;
    let triangles: number[];
    // a white fill's mask keeps its islands unmasked (geometry/flatten.ts whiteMask)
    if (clip && r.holes?.length) ({ ring: clip, triangles } = withHoles(clip, r.holes.map(rel)));
    else triangles = triangulate(clip ?? corners);
    if (!triangles.length) continue;
    const s: SceneImage = { entity: r.entity, layer: layerIndex(r.layer), corners, triangles };
    if (clip) s.clip = clip;
    if (r.wipeout) s.wipeout = true;
    if (r.wipeout && tiers) s.tier = tiers[r.index];
    if (r.file) {
      s.file = r.file;
      s.name = r.name;
    }
    if (r.width && r.height) {
      s.width = r.width;
      s.height = r.height;
    }
    if (r.adjust) s.adjust = r.adjust;
    out.push(s);
  }
  return out;
}
