import { boundsOf, defaultLayout, outlierFreeExtents, flattenLayout, imageRefs, isDwgR12, loadRenderPictures, parseDwgR12, parseDxf, renderPng, type Drawing, type Flattened } from '@cadcloud/cad';

/**
 * DXF bytes (or R10–R12 DWG bytes, which the engine reads itself) to a PNG that fits size×size, dark ink on a
 * light background: model space, or the sheet of a drawing made on its sheet (defaultLayout). Runs inside the
 * thumbnail worker thread (render-drawing.ts), never on the server's main thread: a huge drawing costs that
 * thread's heap and time, not the API's. Throws when there is nothing to draw (a blank image would only hide
 * the file-type icon).
 */
export async function drawingThumbnailPng(bytes: Uint8Array, size: number, pictureFiles?: Record<string, Uint8Array>): Promise<{ png: Buffer; polylines: number; texts: number; pictureNames: string[]; notDrawn: Record<string, number> }> {
  const drawing = isDwgR12(bytes) ? parseDwgR12(bytes) : parseDxf(bytes);
  const flatten = (d: Drawing): Flattened => flattenLayout(d, defaultLayout(d))!;
  let flat = flatten(drawing);
  if (!flat.polylines.length && !flat.texts.length && drawing.layers.some((l) => !l.on)) {
    // every visible layer is empty (some DWGs arrive with all layers off, e.g. the sample floor plan through
    // LibreDWG): a thumbnail of everything is more use than a blank one
    flat = flatten({ ...drawing, layers: drawing.layers.map((l) => ({ ...l, on: true })) });
  }
  // IMAGE pictures: the names are reported (the job looks them up in each owner's drive), the bytes painted when given
  const refs = imageRefs(drawing, flat);
  const pictureNames = [...new Set(refs.flatMap((r) => (r.name ? [r.name] : [])))];
  const pictures = pictureFiles ? (await loadRenderPictures(refs, async (name) => pictureFiles[name.toLowerCase()] ?? null, { maxSide: 1024 })).pictures : undefined;
  // what the viewer's first view frames (robust to a few far-away items), not every last point of the drawing
  const home = outlierFreeExtents(flat);
  const b = home ?? boundsOf(flat);
  if (!b || (!flat.polylines.length && !flat.texts.length)) throw new Error('the drawing has nothing to draw');
  const w = Math.max(b.maxX - b.minX, 1e-9);
  const h = Math.max(b.maxY - b.minY, 1e-9);
  // fit the longer side: a tall sheet gets the full height, not a 400 px width and a 2000 px height
  const width = h > w ? Math.max(8, Math.round((size * w) / h)) : size;
  let png = renderPng(flat, { width, background: 'light', pictures, view: home ?? undefined });
  // the renderer pads and measures text its own way: when the longer side misses `size`, scale once and render again
  const longer = Math.max(png.readUInt32BE(16), png.readUInt32BE(20));
  if (longer !== size) png = renderPng(flat, { width: Math.max(8, Math.floor((width * size) / longer)), background: 'light', pictures, view: home ?? undefined });
  // the same report as `cad info`, `cad render` and the viewer give for this layout (its flattening's)
  return { png, polylines: flat.polylines.length, texts: flat.texts.length, pictureNames, notDrawn: flat.skipped };
}
