import { CadError, type Drawing } from '../model/drawing.ts';
import type { TextGeometry } from '../render/prepare.ts';
import type { RenderPictures } from '../render/pictures.ts';
import { defaultLayout, flattenLayout, layoutNames } from '../geometry/layout.ts';
import { renderPdf, type PaperSize } from '../render/pdf.ts';
import { renderPng } from '../render/png.ts';
import { writeDxf } from '../dxf/writer/index.ts';
import { TARGET_MIME, writableTargets, type ConvertTarget, type DxfVersion } from './targets.ts';

export interface ConvertOptions {
  /** DXF/DWG targets: the version written (default 2018 for DXF) */
  version?: DxfVersion;
  /** layouts drawn: 'all', the default layout when absent, or names (any case) */
  layouts?: 'all' | string[];
  /** pictures: output width in pixels (height follows the aspect unless given) */
  width?: number;
  height?: number;
  /** PDF: paper of layouts that have none */
  paper?: 'fit' | PaperSize;
  background?: 'white' | 'black' | 'transparent';
}

/** What a conversion needs besides the drawing: its fonts' text geometry and its pictures, found by the caller. */
export interface ConvertSupport {
  text?: TextGeometry;
  pictures?: RenderPictures;
  /** progress 0–100 with a stage name, for the task panel */
  onProgress?: (percent: number, stage: string) => void;
}

export interface Converted {
  bytes: Buffer;
  /** file extension of the result, without the dot */
  ext: string;
  mime: string;
}

/** The layouts a conversion draws, checked against the drawing (a name it lacks is the caller's error). */
export function chosenLayouts(d: Drawing, layouts: ConvertOptions['layouts']): string[] {
  const names = layoutNames(d);
  if (layouts === 'all') return names;
  if (!layouts?.length) return [defaultLayout(d)];
  return layouts.map((want) => {
    const found = names.find((n) => n.toLowerCase() === want.toLowerCase());
    if (!found) throw new CadError('cad.layoutNotFound', `layout not found: ${want} (layouts: ${names.join(', ')})`);
    return found;
  });
}

/**
 * One drawing converted to one target: the same code behind `npm run cad -- convert` and the server's
 * conversion jobs. Throws CadError with a reason the caller shows; never returns a partial result.
 */
export async function convertDrawing(d: Drawing, target: ConvertTarget, o: ConvertOptions = {}, s: ConvertSupport = {}): Promise<Converted> {
  if (!writableTargets().includes(target)) throw new CadError('cad.targetUnavailable', `no writer for ${target} in this build`);
  // save as another DXF version: the whole drawing, every layout, not a picture of one
  if (target === 'dxf') {
    s.onProgress?.(5, 'write');
    const bytes = writeDxf(d, { version: o.version ?? '2018' });
    s.onProgress?.(100, 'done');
    return { bytes, ext: 'dxf', mime: TARGET_MIME.dxf };
  }
  const layouts = chosenLayouts(d, o.layouts);
  s.onProgress?.(5, 'flatten');
  const flat = flattenLayout(d, layouts[0], { curves: true });
  if (!flat) throw new CadError('cad.layoutNotFound', `layout not found: ${layouts[0]}`);
  const background = o.background === 'black' ? ('dark' as const) : ('light' as const);
  let bytes: Buffer;
  if (target === 'pdf') bytes = await renderPdf(flat, { background, text: s.text, pictures: s.pictures, paper: o.paper });
  else if (target === 'png') bytes = renderPng(flat, { width: o.width, background, text: s.text, pictures: s.pictures });
  else throw new CadError('cad.targetUnavailable', `no writer for ${target} yet`);
  s.onProgress?.(100, 'done');
  return { bytes, ext: target, mime: TARGET_MIME[target] };
}
