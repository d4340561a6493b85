import { Resvg } from '@resvg/resvg-js';
import type { Flattened } from '../geometry/flatten.ts';
import type { RenderOptions } from './prepare.ts';
import { renderSvg } from './svg.ts';

/**
 * PNG of flattened geometry, rasterised from our SVG by resvg (native, no browser), so thumbnails and
 * `cad render out.png` work on a server. No system fonts are loaded, so the output is the same on every
 * machine: text appears when the text engine's geometry is passed as `opts.text`.
 */
export function renderPng(f: Flattened, opts: RenderOptions = {}): Buffer {
  const svg = renderSvg(f, opts);
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: Math.max(1, Math.round(opts.width ?? 1600)) }, font: { loadSystemFonts: false } });
  return r.render().asPng();
}
