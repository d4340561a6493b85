import type { Drawing } from '../model/drawing.ts';
import type { Flattened, ImageFrame } from './flatten.ts';
import { clipPolygonToRect, type Rect } from './viewport-clip.ts';

/**
 * An IMAGE or WIPEOUT of a flattened layout with what the renderers need to paint it: for an IMAGE the picture
 * file its IMAGEDEF names (the picture itself lives outside the drawing, so it is looked up by name) and its size
 * in pixels. Browser-safe: plain data, used by the scene compiler and by the server-side renderers alike.
 */
export interface ImageRef extends ImageFrame {
  /** index into `Flattened.images` */
  index: number;
  /** the file name as written in the IMAGEDEF (a full or relative path, Windows or not); absent for WIPEOUT or a missing IMAGEDEF */
  file?: string;
  /** its last path part, which is what a drive or a folder is searched for */
  name?: string;
  /** size in pixels, as the IMAGEDEF says (informative: the picture always spans `corners`, whatever its size) */
  width?: number;
  height?: number;
}

/** The last part of a path written on any system: `C:\plans\site.JPG`, `.\image.jpg`, `../x/y.png` → the file name. */
export function pictureBaseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').trim();
}

/** Each image of `flat` resolved against the drawing's IMAGEDEFs (handles compare case-insensitively: files write them either way). */
export function imageRefs(d: Drawing, flat: Flattened): ImageRef[] {
  const frames = flat.images ?? [];
  if (!frames.length) return [];
  const defs = new Map(Object.entries(d.imageDefs ?? {}).map(([h, def]) => [h.toUpperCase(), def]));
  return frames.map((f, index) => {
    const ref: ImageRef = { ...f, index };
    if (f.wipeout) return ref;
    const def = f.imageDefHandle ? defs.get(f.imageDefHandle.toUpperCase()) : undefined;
    if (def?.file) {
      ref.file = def.file;
      ref.name = pictureBaseName(def.file);
    }
    if (def && def.width > 0 && def.height > 0) {
      ref.width = def.width;
      ref.height = def.height;
    }
    return ref;
  });
}

/**
 * Model-space pictures seen through a paper viewport: moved into paper space by `tx`, the painted area cut to the
 * viewport's rectangle (a picture wholly outside is dropped). `orderOf` maps a model draw position to the paper's, so
 * a picture or wipeout stays between the model lines it was drawn between.
 */
export function viewportImages(frames: readonly ImageFrame[], tx: (x: number, y: number) => [number, number], rect: Rect, entityBase: number, orderOf: (order: number) => number): ImageFrame[] {
  const out: ImageFrame[] = [];
  const move = (pts: number[]) => {
    const r = new Array<number>(pts.length);
    for (let i = 0; i + 1 < pts.length; i += 2) [r[i], r[i + 1]] = tx(pts[i], pts[i + 1]);
    return r;
  };
  for (const f of frames) {
    const corners = move(f.corners);
    const clip = clipPolygonToRect(move(f.clip ?? f.corners), rect);
    if (clip.length < 6) continue;
    const moved: ImageFrame = { ...f, entity: f.entity + entityBase, corners, clip, order: orderOf(f.order) };
    if (f.holes) moved.holes = f.holes.map((h) => clipPolygonToRect(move(h), rect)).filter((h) => h.length >= 6);
    out.push(moved);
  }
  return out;
}
