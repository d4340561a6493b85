import { createCanvas, Image, type SKRSContext2D } from '@napi-rs/canvas';
import type { Flattened } from '../geometry/flatten.ts';
import { pictureAffine } from './picture-batches.ts';
import { encodePng } from './png-encode.ts';
import { framed, hex, lineweightPx, prepare, type Batch, type RenderOptions } from './prepare.ts';

/**
 * PNG of flattened geometry, painted straight from the prepared batches by Skia (@napi-rs/canvas, native, no
 * browser), so thumbnails and `cad render out.png` work on a server. Until 2026-11 this went through our SVG
 * and resvg; building and re-parsing a 5 MB SVG string cost more than painting, for the same pixels (ink
 * within 1 px of resvg's on the floor plan, render.test.ts). Page, lineweights, round caps and joins, the
 * hairline edge of fills and the even-odd rule are the SVG's (svg.ts). No fonts are loaded, so the output is
 * the same on every machine: text appears when the text engine's geometry is passed as `opts.text`.
 */
export function renderPng(f: Flattened, opts: RenderOptions = {}): Buffer {
  const p = prepare(f, opts);
  const fr = framed(p.bounds);
  const width = Math.max(1, Math.round(opts.width ?? 1600));
  const height = Math.max(1, Math.round((width * fr.h) / fr.w));
  // the SVG's viewBox fitted to the picture (preserveAspectRatio xMidYMid meet), y up
  const s = Math.min(width / fr.w, height / fr.h);
  const ox = (width - fr.w * s) / 2 - fr.minX * s;
  const oy = (height - fr.h * s) / 2 + fr.maxY * s;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = hex(p.background);
  g.fillRect(0, 0, width, height);
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.setTransform(s, 0, 0, -s, ox, oy);
  for (const b of p.batches) paint(g, b, s);
  // the page is opaque, so Skia's premultiplied pixels are the plain ones
  return encodePng(canvas.data(), width, height);
}

function ring(g: SKRSContext2D, pts: readonly number[], close: boolean) {
  g.moveTo(pts[0], pts[1]);
  for (let i = 2; i + 1 < pts.length; i += 2) g.lineTo(pts[i], pts[i + 1]);
  if (close) g.closePath();
}

/** One batch on a page whose transform maps drawing units to pixels (`s` pixels per unit). */
function paint(g: SKRSContext2D, b: Batch, s: number) {
  if (b.kind === 'stroke') {
    // exact curves arrive tessellated at a quarter pixel (prepare), finer than antialiasing shows
    g.beginPath();
    for (const l of b.lines) ring(g, l.points, l.closed);
    g.strokeStyle = hex(b.color);
    g.lineWidth = lineweightPx(b.lineweight) / s;
    g.stroke();
  } else if (b.kind === 'fill') {
    g.beginPath();
    for (const r of b.rings) ring(g, r, true);
    const c = hex(b.color);
    g.fillStyle = c;
    g.fill('evenodd');
    // a hairline outline keeps areas thinner than a pixel visible (svg.ts: half a pixel)
    g.strokeStyle = c;
    g.lineWidth = 0.5 / s;
    g.stroke();
  } else if (b.kind === 'triangles' && b.outline) {
    // the glyphs' outlines cover what their triangles do, with a third of the edges: Skia's cost is in the edges
    g.beginPath();
    for (const r of b.outline) ring(g, r, true);
    g.fillStyle = hex(b.color);
    g.fill('nonzero');
  } else if (b.kind === 'triangles') {
    g.beginPath();
    const t = b.triangles;
    for (let i = 0; i + 5 < t.length; i += 6) {
      g.moveTo(t[i], t[i + 1]);
      g.lineTo(t[i + 2], t[i + 3]);
      g.lineTo(t[i + 4], t[i + 5]);
      g.closePath();
    }
    g.fillStyle = hex(b.color);
    g.fill('nonzero');
  } else {
    const img = new Image();
    img.src = b.picture.png;
    g.save();
    if (b.clip) {
      g.beginPath();
      ring(g, b.clip, true);
      g.clip();
    }
    const [a, bb, c, d, e, f] = pictureAffine(b);
    g.transform(a, bb, c, d, e, f);
    g.drawImage(img, 0, 0, b.picture.width, b.picture.height);
    g.restore();
  }
}
