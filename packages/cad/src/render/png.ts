import { Resvg } from '@resvg/resvg-js';
import type { Flattened } from '../geometry/flatten.ts';
import { renderSvg } from './svg.ts';

/**
 * PNG of flattened geometry, rasterised from our SVG by resvg (native, no browser), so thumbnails and
 * `cad render out.png` work on a server. System fonts are not loaded: text is drawn as geometry.
 */
export function renderPng(f: Flattened, opts: { width?: number; background?: 'dark' | 'light' } = {}): Buffer {
  const svg = renderSvg(f, opts);
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: opts.width ?? 1600 }, font: { loadSystemFonts: false } });
  return r.render().asPng();
}
