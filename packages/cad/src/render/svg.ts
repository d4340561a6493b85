import type { Flattened } from '../geometry/flatten.ts';

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function boundsOf(f: Flattened): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of f.polylines) {
    for (let i = 0; i < p.points.length; i += 2) {
      const x = p.points[i], y = p.points[i + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  for (const t of f.texts) {
    minX = Math.min(minX, t.x);
    maxX = Math.max(maxX, t.x + t.height * t.text.length * 0.6);
    minY = Math.min(minY, t.y);
    maxY = Math.max(maxY, t.y + t.height);
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}

/**
 * SVG of flattened geometry, drawing units kept (y flipped by one transform), so the file stays a vector
 * drawing at any zoom. White entities become black on the light background, as CAD viewers do.
 */
export function renderSvg(f: Flattened, opts: { width?: number; background?: 'dark' | 'light' } = {}): string {
  const b = boundsOf(f) ?? { minX: 0, minY: 0, maxX: 1, maxY: 1 };
  const w = Math.max(b.maxX - b.minX, 1e-9);
  const h = Math.max(b.maxY - b.minY, 1e-9);
  const pad = Math.max(w, h) * 0.02;
  const width = opts.width ?? 1600;
  const height = Math.max(1, Math.round((width * (h + 2 * pad)) / (w + 2 * pad)));
  const dark = opts.background === 'dark';
  const ink = (c: number) => (!dark && c === 0xffffff ? '#000000' : hex(c));
  const stroke = (Math.max(w, h) / width) * 1;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${b.minX - pad} ${-(b.maxY + pad)} ${w + 2 * pad} ${h + 2 * pad}">`);
  out.push(`<rect x="${b.minX - pad}" y="${-(b.maxY + pad)}" width="${w + 2 * pad}" height="${h + 2 * pad}" fill="${dark ? '#212830' : '#ffffff'}"/>`);
  out.push(`<g transform="scale(1,-1)" fill="none" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round">`);
  for (const p of f.polylines) {
    const pts: string[] = [];
    for (let i = 0; i < p.points.length; i += 2) pts.push(`${+p.points[i].toFixed(6)},${+p.points[i + 1].toFixed(6)}`);
    const tag = p.closed ? 'polygon' : 'polyline';
    out.push(`<${tag} points="${pts.join(' ')}" stroke="${ink(p.color)}"${p.filled ? ` fill="${ink(p.color)}"` : ''}/>`);
  }
  out.push('</g>');
  for (const t of f.texts) {
    out.push(`<text x="${t.x}" y="${-t.y}" font-size="${t.height}" fill="${ink(t.color)}" font-family="sans-serif"${t.rotation ? ` transform="rotate(${-t.rotation} ${t.x} ${-t.y})"` : ''}>${esc(t.text.split('\n')[0])}</text>`);
  }
  out.push('</svg>');
  return out.join('\n');
}
