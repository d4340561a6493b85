import type { Flattened } from '../geometry/flatten.ts';
import type { RenderPictures, RenderPicture } from './pictures.ts';

/** A picture painted into the quad `corners` (insertion, +u, +u+v, +v), cut to `clip` when the drawing clips it. */
export interface PictureBatch {
  kind: 'picture';
  /** the layer of the IMAGE or WIPEOUT */
  layer?: string;
  corners: number[];
  clip?: number[];
  picture: RenderPicture;
}

/**
 * The flattened images as draw batches, handed out in draw order: `upTo(i)` gives those that come before the
 * polyline `i` (each image's frame polyline), so a later line covers a picture and a picture or a wipeout
 * covers what was drawn before it, as in CAD. A WIPEOUT is an area filled with the background colour; an
 * IMAGE whose picture was not found paints nothing (its frame stays).
 */
export function pictureBatcher(f: Flattened, pictures: RenderPictures | undefined, background: number) {
  const list = (f.images ?? []).map((im, index) => ({ im, index })).sort((a, b) => a.im.order - b.im.order);
  let k = 0;
  return {
    upTo(order: number): (PictureBatch | { kind: 'fill'; color: number; rings: number[][]; layer?: string })[] {
      const out: (PictureBatch | { kind: 'fill'; color: number; rings: number[][]; layer?: string })[] = [];
      for (; k < list.length && list[k].im.order <= order; k++) {
        const { im, index } = list[k];
        const area = im.clip ?? im.corners;
        if (area.length < 6 || !area.every(Number.isFinite)) continue;
        if (im.wipeout) out.push({ kind: 'fill', color: background, rings: [area, ...(im.holes ?? []).filter((h) => h.length >= 6)], layer: im.layer });
        else {
          const picture = pictures?.get(index);
          if (picture && im.corners.every(Number.isFinite)) out.push({ kind: 'picture', corners: im.corners, clip: im.clip, picture, layer: im.layer });
        }
      }
      return out;
    },
  };
}

/**
 * The affine map from picture pixels (x right, y down from the top-left pixel corner) to drawing units:
 * [a b c d e f] with X = a px + c py + e, Y = b px + d py + f. The top-left is the +v corner; u spans the width.
 */
export function pictureAffine(b: PictureBatch): [number, number, number, number, number, number] {
  const [x0, y0, x1, y1, , , x3, y3] = b.corners;
  const { width: w, height: h } = b.picture;
  return [(x1 - x0) / w, (y1 - y0) / w, -(x3 - x0) / h, -(y3 - y0) / h, x3, y3];
}
