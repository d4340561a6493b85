import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { parseDxf } from '../dxf/reader.ts';
import { flattenModelSpace } from '../geometry/flatten.ts';
import { imageRefs } from '../geometry/image-refs.ts';
import { flattenLayout } from '../geometry/layout.ts';
import { compileScene } from '../scene/compile.ts';
import { decodeScene, encodeScene } from '../scene/binary.ts';
import { fixtureImage, writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';
import { rasterisePdf } from '../fidelity/pdf-raster.ts';
import { boundsOf, framed } from './prepare.ts';
import { loadRenderPictures, pictureToPng } from './pictures.ts';
import { renderPng } from './png.ts';
import { renderPdf } from './pdf.ts';

/**
 * A 40 × 20 picture made here: top 5 rows green, below them the left half red and the right half blue, so a
 * pixel check tells left from right and top from bottom, whatever the IMAGE does to it.
 */
async function testPicture(format: 'png' | 'tiff' = 'png'): Promise<Buffer> {
  const w = 40, h = 20, px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px.set(y < 5 ? [0, 255, 0] : x < 20 ? [255, 0, 0] : [0, 0, 255], (y * w + x) * 3);
  const img = sharp(px, { raw: { width: w, height: h, channels: 3 } });
  return format === 'png' ? img.png().toBuffer() : img.tiff().toBuffer();
}

// 1 mm wide (about 4 px): its middle is black, not an anti-aliased grey
const line = (x0: number, y0: number, x1: number, y1: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [370, 100], [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]] });

/** A 100 × 100 frame (so the page is known) and pictures placed four ways, a wipeout over a line, a picture not in the folder. */
function drawing(): Uint8Array {
  const A = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'C:\\plans\\photo.PNG', pixels: [40, 20], insert: [10, 60], u: [0.5, 0], v: [0, 0.5], layer: 'Pics' });
  // turned 90° counter-clockwise and scaled unevenly: rows run up 1 unit a pixel, columns left 0.5
  const B = fixtureImage({ handle: 'B1', defHandle: 'D1', file: 'C:\\plans\\photo.PNG', pixels: [40, 20], insert: [80, 10], u: [0, 1], v: [-0.5, 0] });
  // clipped to the triangle below its top-left → bottom-right diagonal (pixel coordinates from the top-left pixel's centre)
  const C = fixtureImage({ handle: 'C1', defHandle: 'D1', file: 'C:\\plans\\photo.PNG', pixels: [40, 20], insert: [10, 10], u: [0.5, 0], v: [0, 0.5], clip: [[-0.5, -0.5], [-0.5, 19.5], [39.5, 19.5]] });
  const D = fixtureImage({ handle: 'E1', defHandle: 'D2', file: '.\\nothere.png', pixels: [10, 10], insert: [40, 30], u: [1, 0], v: [0, 1] });
  const wipeout: FixtureEntity = { type: 'WIPEOUT', pairs: [[8, '0'], [100, 'AcDbWipeout'], [10, 50], [20, 75], [30, 0], [11, 10], [21, 0], [31, 0], [12, 0], [22, 10], [32, 0], [13, 1], [23, 1], [280, 1], [71, 1], [91, 2], [14, -0.5], [24, -0.5], [14, 0.5], [24, 0.5]] };
  return writeAsciiDxf({
    layers: ['0', 'Pics'],
    entities: [
      { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 4], [70, 1], [10, 0], [20, 0], [10, 100], [20, 0], [10, 100], [20, 100], [10, 0], [20, 100]] },
      A.entity, B.entity, C.entity, D.entity,
      line(40, 80, 90, 80), wipeout,
    ],
    objects: [A.def, D.def],
  });
}

const lookupFrom = (files: Record<string, Buffer>) => async (name: string) => files[name.toLowerCase()] ?? null;

type Img = { data: Uint8Array | Uint8ClampedArray; width: number; height: number };
const rgb = (img: Img, x: number, y: number) => {
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
};
const RED = [255, 0, 0], BLUE = [0, 0, 255], GREEN = [0, 255, 0], WHITE = [255, 255, 255], BLACK = [0, 0, 0];
const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]) <= 40);

/** Drawing point → pixel of a render of the 0..100 frame (the renderers add a 2 % margin: -2..102). */
function spots(toPx: (x: number, y: number) => [number, number]) {
  const at: [string, number, number, number[]][] = [
    ['A left half', 15, 62, RED], ['A right half', 25, 62, BLUE], ['A top rows', 15, 69.5, GREEN], ['A top rows, right', 28, 69.5, GREEN], ['right of A', 35, 65, WHITE],
    // B: pixel rows run up, so its left half is below; its top rows are on the +v side (smaller x)
    ['B left half', 77, 20, RED], ['B right half', 77, 42, BLUE], ['B top rows', 70.6, 20, GREEN], ['B top rows, far', 70.6, 45, GREEN], ['left of B', 68, 30, WHITE],
    ['C inside the clip', 12, 12, RED], ['C right part inside', 26, 11, BLUE], ['C outside the clip', 28, 18, WHITE],
    ['inside the missing picture', 45, 35, WHITE],
    ['the line outside the wipeout', 45, 80, BLACK], ['the line under the wipeout', 55, 80, WHITE],
  ];
  return at.map(([what, x, y, want]) => ({ what, px: toPx(x, y), want }));
}

describe('IMAGE pictures', () => {
  it('reads IMAGEDEF objects and resolves each IMAGE to its file name, base name and pixel size', () => {
    const d = parseDxf(drawing());
    expect(d.imageDefs).toEqual({ D1: { file: 'C:\\plans\\photo.PNG', width: 40, height: 20 }, D2: { file: '.\\nothere.png', width: 10, height: 10 } });
    const refs = imageRefs(d, flattenModelSpace(d));
    expect(refs.map((r) => [r.name ?? 'wipeout', r.layer, r.wipeout ?? false])).toEqual([['photo.PNG', 'Pics', false], ['photo.PNG', '0', false], ['photo.PNG', '0', false], ['nothere.png', '0', false], ['wipeout', '0', true]]);
    expect(refs[0]).toMatchObject({ file: 'C:\\plans\\photo.PNG', width: 40, height: 20, corners: [10, 60, 30, 60, 30, 70, 10, 70] });
    expect(refs[1].corners).toEqual([80, 10, 80, 50, 70, 50, 70, 10]);
    expect(refs[2].clip).toEqual([10, 70 - 50, 10, 10, 30, 10]);
  });

  it('lists pictures and wipeouts in the scene meta: layer, corners from the origin, clip triangles, file as written', () => {
    const d = parseDxf(drawing());
    const scene = decodeScene(encodeScene(compileScene(d, flattenModelSpace(d), { layout: 'Model', layouts: ['Model'] })));
    const [ox, oy] = scene.meta.origin;
    const images = scene.meta.images!;
    expect(images).toHaveLength(5);
    expect(scene.meta.layers[images[0].layer].name).toBe('Pics');
    expect(images[0]).toMatchObject({ file: 'C:\\plans\\photo.PNG', name: 'photo.PNG', width: 40, height: 20, triangles: [0, 1, 2, 0, 2, 3] });
    expect(images[0].corners).toEqual([10 - ox, 60 - oy, 30 - ox, 60 - oy, 30 - ox, 70 - oy, 10 - ox, 70 - oy]);
    expect(images[2].clip).toHaveLength(6);
    expect(images[2].triangles).toHaveLength(3);
    expect(images[4]).toMatchObject({ wipeout: true });
    expect(images[4].file).toBeUndefined();
    expect(scene.meta.entities[images[1].entity].type).toBe('IMAGE');
  });

  it('paints the picture into PNG: straight, rotated and scaled unevenly, clipped; wipeouts mask; a missing one keeps its frame', async () => {
    const d = parseDxf(drawing());
    const flat = flattenModelSpace(d);
    const { pictures, missing } = await loadRenderPictures(imageRefs(d, flat), lookupFrom({ 'photo.png': await testPicture() }));
    expect(missing).toEqual(['nothere.png']);
    expect([...pictures.keys()]).toEqual([0, 1, 2]);
    const width = 520;
    const img = await sharp(renderPng(flat, { width, pictures, background: 'light' })).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const fr = framed(boundsOf(flat)!);
    const k = width / fr.w;
    const bad = spots((x, y) => [(x - fr.minX) * k, (fr.maxY - y) * k]).filter((s) => !near(rgb({ data: img.data, width: img.info.width, height: img.info.height }, ...s.px), s.want));
    expect(bad.map((s) => s.what)).toEqual([]);
    // without pictures only the frames are drawn: inside A is the background
    const none = await sharp(renderPng(flat, { width, background: 'light' })).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(rgb({ data: none.data, width: none.info.width, height: none.info.height }, (15 - fr.minX) * k, (fr.maxY - 62) * k)).toEqual(WHITE);
  });

  it('paints the same into a PDF (placed by its own matrix and clip)', async () => {
    const d = parseDxf(drawing());
    const flat = flattenModelSpace(d);
    const { pictures } = await loadRenderPictures(imageRefs(d, flat), lookupFrom({ 'photo.png': await testPicture() }));
    const pdf = await renderPdf(flat, { pictures, background: 'light' });
    const width = 800;
    const page = await rasterisePdf(pdf, width);
    // the page of a square drawing is an A3 long side square, 10 mm margins (see pdf.ts)
    const fr = framed(boundsOf(flat)!);
    const pageW = 420 * (72 / 25.4), m = 10 * (72 / 25.4), s = (pageW - 2 * m) / fr.w, k = width / pageW;
    const bad = spots((x, y) => [(m + (x - fr.minX) * s) * k, (m + (fr.maxY - y) * s) * k]).filter((sp) => !near(rgb(page, ...sp.px), sp.want));
    expect(bad.map((sp) => sp.what)).toEqual([]);
  });

  it('a wipeout hides a text drawn before it and not one drawn after it, in PNG and PDF (texts were drawn last)', async () => {
    // a text is a 3 × 6 block of triangles from the text callback (the renderers' interface to the text engine)
    const text = (x: number): FixtureEntity => ({ type: 'TEXT', pairs: [[8, '0'], [10, x], [20, 77], [30, 0], [40, 6], [1, 'T']] });
    const wipeout: FixtureEntity = { type: 'WIPEOUT', pairs: [[8, '0'], [100, 'AcDbWipeout'], [10, 50], [20, 75], [30, 0], [11, 10], [21, 0], [31, 0], [12, 0], [22, 10], [32, 0], [13, 1], [23, 1], [280, 1], [71, 1], [91, 2], [14, -0.5], [24, -0.5], [14, 0.5], [24, 0.5]] };
    const frame: FixtureEntity = { type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 4], [70, 1], [10, 0], [20, 0], [10, 100], [20, 0], [10, 100], [20, 100], [10, 0], [20, 100]] };
    const flat = flattenModelSpace(parseDxf(writeAsciiDxf({ layers: ['0'], entities: [frame, text(51), wipeout, text(56)] })));
    const block = (run: { x: number; y: number }) => {
      const [x0, y0, x1, y1] = [run.x, run.y, run.x + 3, run.y + 6];
      return { strokes: [], triangles: [x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1] };
    };
    const fr = framed(boundsOf(flat)!);
    const want: [string, number, number, number[]][] = [['the text before the wipeout', 52.5, 80, WHITE], ['the text after the wipeout', 57.5, 80, BLACK]];
    const width = 520, k = width / fr.w;
    const png = await sharp(renderPng(flat, { width, background: 'light', text: block })).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const fromPng = want.filter(([, x, y, c]) => !near(rgb({ data: png.data, width: png.info.width, height: png.info.height }, (x - fr.minX) * k, (fr.maxY - y) * k), c));
    expect(fromPng.map(([what]) => what)).toEqual([]);
    const pageWidth = 800;
    const page = await rasterisePdf(await renderPdf(flat, { background: 'light', text: block }), pageWidth);
    const pageW = 420 * (72 / 25.4), m = 10 * (72 / 25.4), s = (pageW - 2 * m) / fr.w, kp = pageWidth / pageW;
    const fromPdf = want.filter(([, x, y, c]) => !near(rgb(page, (m + (x - fr.minX) * s) * kp, (m + (fr.maxY - y) * s) * kp), c));
    expect(fromPdf.map(([what]) => what)).toEqual([]);
  });

  it('shows model-space pictures through a paper viewport, moved, scaled and cut to the viewport', () => {
    const inside = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'p.png', pixels: [40, 20], insert: [0, 0], u: [1, 0], v: [0, 1] });
    const across = fixtureImage({ handle: 'A2', defHandle: 'D1', file: 'p.png', pixels: [40, 20], insert: [-40, 0], u: [1, 0], v: [0, 1] });
    const d = parseDxf(writeAsciiDxf({
      entities: [inside.entity, across.entity,
        // paper: a viewport centred at 150,100, 200 × 150, looking at model 50,35 with a view height of 120 (scale 1.25)
        { type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 150], [20, 100], [40, 200], [41, 150], [68, 1], [69, 2], [12, 50], [22, 35], [45, 120]] }],
      objects: [inside.def],
    }));
    const paper = flattenLayout(d, 'Layout1')!;
    const [a, b] = paper.images!;
    expect(a.corners).toEqual([87.5, 56.25, 137.5, 56.25, 137.5, 81.25, 87.5, 81.25]);
    expect(a.entity).toBeGreaterThanOrEqual(1);
    // the second one starts left of the viewport (x 37.5): its painted area begins at the viewport's edge, x 50
    expect(Math.min(...b.clip!.filter((_, i) => i % 2 === 0))).toBe(50);
    expect(imageRefs(d, paper).map((r) => r.name)).toEqual(['p.png', 'p.png']);
  });

  it('reads TIFF and BMP pictures, scales big ones down, applies brightness / contrast / fade', async () => {
    const tif = await pictureToPng(await testPicture('tiff'));
    expect([tif.width, tif.height]).toEqual([40, 20]);
    const small = await pictureToPng(await testPicture(), { maxSide: 10 });
    expect([small.width, small.height]).toEqual([10, 5]);
    // contrast 0 is flat mid-grey; fade 100 is transparent
    const flatGrey = await sharp((await pictureToPng(await testPicture(), { adjust: { brightness: 50, contrast: 0, fade: 0 } })).png).raw().toBuffer();
    expect([...flatGrey.subarray(0, 4)].map((v) => Math.round(v / 10))).toEqual([13, 13, 13, 26]);
    const faded = await sharp((await pictureToPng(await testPicture(), { adjust: { brightness: 50, contrast: 50, fade: 100 } })).png).raw().toBuffer();
    expect(faded[3]).toBe(0);
    // a 2 × 1 24-bit BMP: blue, red (BGR rows padded to 4 bytes, bottom-up)
    const bmp = Buffer.alloc(54 + 8);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(bmp.length, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(2, 18);
    bmp.writeInt32LE(1, 22);
    bmp.writeUInt16LE(1, 26);
    bmp.writeUInt16LE(24, 28);
    bmp.set([255, 0, 0, 0, 0, 255], 54);
    const fromBmp = await sharp((await pictureToPng(bmp)).png).raw().toBuffer();
    expect([...fromBmp]).toEqual([0, 0, 255, 255, 255, 0, 0, 255]);
  });
});
