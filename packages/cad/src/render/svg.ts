import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { curveEllipse, curvePoint, type CurveGeom } from '../geometry/curve.ts';
import { boundsOf, framed, hex, inkColor, lineweightPx, prepare, type Bounds, type RenderOptions } from './prepare.ts';
import { pictureAffine, type PictureBatch } from './picture-batches.ts';

export { boundsOf };
export type { RenderOptions, TextGeometry } from './prepare.ts';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Where a text run's insertion point sits on its box: SVG anchor and baseline from TEXT 72/73 or MTEXT 71. */
export function textAnchor(t: TextRun): { anchor: 'start' | 'middle' | 'end'; row: 'top' | 'middle' | 'baseline' } {
  if (t.kind === 'mtext') {
    const a = Math.min(9, Math.max(1, t.attachment ?? 1)) - 1;
    return { anchor: (['start', 'middle', 'end'] as const)[a % 3], row: (['top', 'middle', 'baseline'] as const)[Math.floor(a / 3)] };
  }
  const anchor = t.halign === 1 || t.halign === 4 ? 'middle' : t.halign === 2 ? 'end' : 'start';
  const row = t.halign === 4 || t.valign === 2 ? 'middle' : t.valign === 3 ? 'top' : 'baseline';
  return { anchor, row };
}

/**
 * SVG of flattened geometry, drawing units kept (y flipped by one transform), so the file stays a vector
 * drawing at any zoom. Consecutive polylines of one colour and lineweight share one `<path>`; filled areas
 * with islands use the even-odd rule. Lineweights are sized for `width` pixels (1/100 mm at 96 dpi, at
 * least one pixel), as CAD screens show them.
 */
export function renderSvg(f: Flattened, opts: RenderOptions = {}): string {
  const p = prepare(f, opts);
  const width = Math.max(1, Math.round(opts.width ?? 1600));
  const fr = opts.exactView && opts.height ? aspectView(p.bounds, width / opts.height) : framed(p.bounds);
  const height = opts.exactView && opts.height ? Math.max(1, Math.round(opts.height)) : Math.max(1, Math.round((width * fr.h) / fr.w));
  const unit = fr.w / width; // drawing units per pixel
  const digits = Math.min(10, Math.max(0, Math.ceil(-Math.log10(unit / 20))));
  const n = (v: number) => String(+v.toFixed(digits));
  const ring = (pts: readonly number[], close: boolean) => {
    let d = `M${n(pts[0])} ${n(pts[1])}`;
    for (let i = 2; i + 1 < pts.length; i += 2) d += `L${n(pts[i])} ${n(pts[i + 1])}`;
    return close ? `${d}Z` : d;
  };
  // an exact curve as elliptical arc commands (a closed one as two halves: an arc cannot end where it starts)
  const arc = (g: CurveGeom) => {
    const { rx, ry, rotation, ccw } = curveEllipse(g);
    const [x0, y0] = curvePoint(g, g.t0);
    const full = g.sweep >= Math.PI * 2 - 1e-12;
    const ends = full ? [g.t0 + Math.PI, g.t0 + 2 * Math.PI] : [g.t0 + g.sweep];
    const large = !full && g.sweep > Math.PI ? 1 : 0;
    let d = `M${n(x0)} ${n(y0)}`;
    for (const t of ends) {
      const [x, y] = curvePoint(g, t);
      d += `A${n(rx)} ${n(ry)} ${+((rotation * 180) / Math.PI).toFixed(6)} ${large} ${ccw ? 1 : 0} ${n(x)} ${n(y)}`;
    }
    return d;
  };
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${n(fr.minX)} ${n(-fr.maxY)} ${n(fr.w)} ${n(fr.h)}">`);
  if (!opts.transparent) out.push(`<rect x="${n(fr.minX)}" y="${n(-fr.maxY)}" width="${n(fr.w)}" height="${n(fr.h)}" fill="${hex(p.background)}"/>`);
  out.push(`<g transform="scale(1,-1)" stroke-linecap="round" stroke-linejoin="round">`);
  let pictures = 0;
  for (const b of p.batches) {
    if (b.kind === 'picture') {
      out.push(svgPicture(b, `pic${pictures++}`, (r) => ring(r, true)));
    } else if (b.kind === 'stroke') {
      const d = b.lines.map((l) => (l.curve ? arc(l.curve) : ring(l.points, l.closed))).join('');
      out.push(`<path d="${d}" fill="none" stroke="${hex(b.color)}" stroke-width="${n(lineweightPx(b.lineweight) * unit)}"/>`);
    } else if (b.kind === 'fill') {
      // a hairline outline keeps areas thinner than a pixel visible
      out.push(`<path d="${b.rings.map((r) => ring(r, true)).join('')}" fill="${hex(b.color)}" fill-rule="evenodd" stroke="${hex(b.color)}" stroke-width="${n(unit * 0.5)}"/>`);
    } else {
      let d = '';
      for (let i = 0; i + 5 < b.triangles.length; i += 6) d += ring(b.triangles.slice(i, i + 6), true);
      out.push(`<path d="${d}" fill="${hex(b.color)}"/>`);
    }
  }
  out.push('</g>');
  for (const t of p.texts) out.push(svgText(t, p.dark, n));
  out.push('</svg>');
  return out.join('\n');
}

/** A view grown on one side to the picture's aspect (width / height), keeping its centre. */
function aspectView(b: Bounds, aspect: number): Bounds & { w: number; h: number } {
  let w = Math.max(b.maxX - b.minX, 1e-9), h = Math.max(b.maxY - b.minY, 1e-9);
  if (w / h < aspect) w = h * aspect;
  else h = w / aspect;
  const cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2;
  return { minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2, w, h };
}

/**
 * A picture as an embedded PNG, placed by a matrix from its pixels to drawing units (full precision: the matrix
 * is multiplied by thousands of pixels), inside a group clipped by the drawing's clip boundary when there is one.
 */
function svgPicture(b: PictureBatch, id: string, ring: (pts: readonly number[]) => string): string {
  const m = pictureAffine(b).map((v) => String(+v.toPrecision(15))).join(' ');
  const img = `<image width="${b.picture.width}" height="${b.picture.height}" preserveAspectRatio="none" transform="matrix(${m})" href="data:image/png;base64,${b.picture.png.toString('base64')}"/>`;
  if (!b.clip) return img;
  return `<clipPath id="${id}"><path d="${ring(b.clip)}"/></clipPath><g clip-path="url(#${id})">${img}</g>`;
}

/** Placeholder text in the viewer's own font, until the text engine's geometry is passed in. */
function svgText(t: TextRun, dark: boolean, n: (v: number) => string): string {
  const { anchor, row } = textAnchor(t);
  const lines = t.text.split('\n');
  const x = n(t.x), y = n(-t.y);
  const lead = 1.4 * t.height;
  // the first baseline: below the insertion point for top-attached text, centred for middle
  const first = row === 'top' ? t.height : row === 'middle' ? t.height / 2 - ((lines.length - 1) * lead) / 2 : -(lines.length - 1) * lead;
  const tspans = lines.map((l, i) => `<tspan x="${x}" y="${n(-t.y + first + i * lead)}">${esc(l)}</tspan>`).join('');
  const rot = t.rotation ? ` transform="rotate(${n(-t.rotation)} ${x} ${y})"` : '';
  return `<text font-size="${n(t.height * 1.35)}" fill="${hex(inkColor(t.color, dark))}" font-family="sans-serif" text-anchor="${anchor}"${rot}>${tspans}</text>`;
}

export type { Bounds };
