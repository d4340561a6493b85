import { CadError, type Drawing } from '../model/drawing.ts';
import type { Flattened, TextRun } from '../geometry/flatten.ts';
import type { Bounds, TextGeometry } from '../render/prepare.ts';
import { boundsOf, framed, prepare } from '../render/prepare.ts';
import type { RenderPictures } from '../render/pictures.ts';
import { defaultLayout, flattenLayout, layoutNames, MODEL, unplottedLayers } from '../geometry/layout.ts';
import { writePdf, type PdfPage, type RunGlyphs } from '../render/pdf.ts';
import { planPage, type PageChoice } from '../render/paper.ts';
import { parsePlotStyleTable, PlotStyleError, type ColorMode } from '../render/plot-style.ts';
import { applyNamedPlotStyles, hasNamedPlotStyles } from '../render/named-plot-styles.ts';
import { MAX_PICTURE_SIDE } from '../render/picture-size.ts';
import { TARGET_MIME, writableTargets, type ConvertTarget, type DxfVersion } from './targets.ts';
import type { PdfSourceOptions } from './source.ts';

export interface ConvertOptions extends PageChoice {
  /** DXF/DWG targets: the version written (default 2018 for DXF) */
  version?: DxfVersion;
  /** layouts drawn: 'all', 'current' (the default layout, also when absent), or names (any case); pictures draw the first */
  layouts?: 'all' | 'current' | string[];
  /** pictures: size in pixels (one given: the other follows the area's aspect; neither: `dpi` on the paper, else 1600 wide) */
  width?: number;
  height?: number;
  /** pictures: pixels per inch of the page the PDF would print (paper, scale, margins as for a PDF) */
  dpi?: number;
  /** pictures: white (default), black, or transparent (PNG only; JPEG and BMP get white) */
  background?: 'white' | 'black' | 'transparent';
  /** pictures: the drawing's extents (default) or a rectangle in drawing units (the viewer's current view) */
  area?: 'extents' | Bounds;
  /** JPEG quality 1–100 */
  quality?: number;
  /** PDF: colour (default), monochrome or grayscale */
  colorMode?: ColorMode;
  /**
   * PDF: a CTB or STB plot style table's bytes (the user's, from the drive), applied to every page: a CTB by colour, an
   * STB by the style each entity or layer names (its "Normal" style where the drawing names none)
   */
  plotStyleTable?: Uint8Array;
  /** PDF: layers as PDF layers (default true) */
  layers?: boolean;
  /** PDF: document title (default: the first layout's name) */
  title?: string;
  /** a PDF source (readConvertSource): pages, placement, calibration */
  pdf?: PdfSourceOptions;
}

/** What a conversion needs besides the drawing: its fonts' text geometry and its pictures, found by the caller. */
export interface ConvertSupport {
  /** text as geometry (pictures; PDF without `glyphs`) */
  text?: TextGeometry;
  /** a text's box as the text engine lays it out (extents) */
  textBox?: (run: TextRun) => Bounds;
  /** PDF: text as placed glyphs, blanks included (loadConvertText): TrueType text is written as real text */
  glyphs?: (run: TextRun) => RunGlyphs | null | undefined;
  /** called with each layout's flattening before it is drawn (the bundled fonts read the characters it needs) */
  prepareText?: (flat: Flattened) => Promise<void>;
  /** pictures of the IMAGE entities of one flattened layout (loadRenderPictures) */
  loadPictures?: (flat: Flattened) => Promise<RenderPictures | undefined>;
  /** pictures of the default layout's IMAGEs, when `loadPictures` is not given */
  pictures?: RenderPictures;
  /** progress 0–100 with a stage name, for the task panel */
  onProgress?: (percent: number, stage: string) => void;
}

export interface Converted {
  bytes: Buffer;
  /** file extension of the result, without the dot */
  ext: string;
  mime: string;
  /** the layouts drawn, in order (a PDF's pages) */
  layouts: string[];
}

/** The layouts a conversion draws, checked against the drawing (a name it lacks is the caller's error). */
export function chosenLayouts(d: Drawing, layouts: ConvertOptions['layouts']): string[] {
  const names = layoutNames(d);
  if (layouts === 'all') return names;
  if (!layouts?.length || layouts === 'current') return [defaultLayout(d)];
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
    // the DXF writer loads only for this target (a PDF or picture does not compile it)
    const { writeDxf } = await import('../dxf/writer/index.ts');
    const bytes = writeDxf(d, { version: o.version ?? '2018' });
    s.onProgress?.(100, 'done');
    return { bytes, ext: 'dxf', mime: TARGET_MIME.dxf, layouts: d.layouts.map((l) => l.name) };
  }
  const layouts = chosenLayouts(d, o.layouts);
  let bytes: Buffer;
  if (target === 'pdf') bytes = await convertPdf(d, layouts, o, s);
  else if (target === 'png' || target === 'jpg' || target === 'bmp') bytes = await convertPicture(d, layouts[0], target, o, s);
  else throw new CadError('cad.targetUnavailable', `no writer for ${target} yet`);
  s.onProgress?.(100, 'done');
  return { bytes, ext: target, mime: TARGET_MIME[target], layouts: target === 'pdf' ? layouts : layouts.slice(0, 1) };
}

/**
 * The drawing's extents on a layout, texts measured by the text engine when it is given (the 0.6 × height guess
 * misses MTEXT hanging below its point): its boxes when there are (cheap), else its geometry.
 */
function extentsOf(flat: Flattened, s: ConvertSupport): Bounds {
  if (s.textBox) {
    const b = boundsOf({ ...flat, texts: [] }) ?? { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (const t of flat.texts) {
      const r = s.textBox(t);
      if (![r.minX, r.minY, r.maxX, r.maxY].every(Number.isFinite)) continue;
      b.minX = Math.min(b.minX, r.minX);
      b.minY = Math.min(b.minY, r.minY);
      b.maxX = Math.max(b.maxX, r.maxX);
      b.maxY = Math.max(b.maxY, r.maxY);
    }
    if (Number.isFinite(b.minX)) return b;
  }
  if (s.text) return prepare(flat, { text: s.text }).bounds;
  return boundsOf(flat) ?? { minX: 0, minY: 0, maxX: 1, maxY: 1 };
}

/**
 * A layout flattened with exact curves, as plotted (a PDF or picture is a plot: no unplotted layers, which the viewer
 * shows as AutoCAD's screen does); `model`: model space flattened the same way, which paper layouts' viewports reuse.
 */
function flattened(d: Drawing, name: string, model?: Flattened): Flattened {
  const flat = flattenLayout(d, name, { curves: true, modelSpace: model, hiddenLayers: unplottedLayers(d) });
  if (!flat) throw new CadError('cad.layoutNotFound', `layout not found: ${name}`);
  return flat;
}

const layoutOf = (d: Drawing, name: string) => d.layouts.find((l) => l.name.toLowerCase() === name.toLowerCase());
const isModel = (name: string) => name.toLowerCase() === MODEL.toLowerCase();

async function picturesOf(flat: Flattened, s: ConvertSupport, first: boolean) {
  return s.loadPictures ? s.loadPictures(flat) : first ? s.pictures : undefined;
}

/** A PDF page per layout, each on its own paper (planPage), with the plot style table when one is given. */
async function convertPdf(d: Drawing, layouts: string[], o: ConvertOptions, s: ConvertSupport): Promise<Buffer> {
  let plotStyles;
  if (o.plotStyleTable) {
    try {
      plotStyles = parsePlotStyleTable(o.plotStyleTable);
    } catch (e) {
      if (e instanceof PlotStyleError) throw new CadError('cad.parseFailed', 'The plot style table could not be read.', e.message);
      throw e;
    }
  }
  // a named-plot-style drawing with an STB: each entity's own style, put on its geometry; the writer then only the colour mode
  const named = hasNamedPlotStyles(d, plotStyles);
  const pages: PdfPage[] = [];
  let model: Flattened | undefined;
  for (const [i, name] of layouts.entries()) {
    s.onProgress?.(5 + Math.round((60 * i) / layouts.length), 'flatten');
    // model space is flattened once: the Model page's, shown again through the paper layouts' viewports
    const raw = flattened(d, name, model);
    if (isModel(name)) model = raw;
    const flat = named ? applyNamedPlotStyles(d, raw, plotStyles!, false) : raw;
    await s.prepareText?.(flat);
    const content = extentsOf(flat, s);
    // pictures are per flattening: each page's own from the loader, else the caller's for the first page
    const pictures = await picturesOf(flat, s, i === 0);
    pages.push({ title: name, flat, plan: planPage(content, layoutOf(d, name), isModel(name), d.header.units, o), pictures });
  }
  s.onProgress?.(70, 'write');
  return writePdf(pages, { glyphs: s.glyphs, text: s.text, colorMode: o.colorMode, plotStyles: named ? undefined : plotStyles, layers: o.layers, title: o.title ?? layouts[0] });
}

/** One layout as a picture of the size asked for (or DPI on its paper), of its extents or a given area. */
async function convertPicture(d: Drawing, name: string, format: 'png' | 'jpg' | 'bmp', o: ConvertOptions, s: ConvertSupport): Promise<Buffer> {
  s.onProgress?.(5, 'flatten');
  const flat = flattened(d, name);
  const extents = extentsOf(flat, s);
  let area: Bounds = o.area && o.area !== 'extents' ? o.area : framed(extents);
  let width = o.width, height = o.height;
  if (width === undefined && height === undefined && o.dpi) {
    // the page a PDF would print, at that resolution: the picture shows what lies on the paper
    const plan = planPage(extents, layoutOf(d, name), isModel(name), d.header.units, o);
    width = Math.round((plan.width / 25.4) * o.dpi);
    height = Math.round((plan.height / 25.4) * o.dpi);
    area = { minX: -plan.x0 / plan.scale, minY: -plan.y0 / plan.scale, maxX: (plan.width - plan.x0) / plan.scale, maxY: (plan.height - plan.y0) / plan.scale };
  }
  const aw = Math.max(area.maxX - area.minX, 1e-9), ah = Math.max(area.maxY - area.minY, 1e-9);
  if (width === undefined && height === undefined) width = 1600;
  if (width === undefined) width = Math.max(1, Math.round((height! * aw) / ah));
  if (height === undefined) height = Math.max(1, Math.round((width * ah) / aw));
  for (const v of [width, height]) {
    if (!(Number.isInteger(v) && v >= 1 && v <= MAX_PICTURE_SIDE)) throw new CadError('cad.tooLarge', `picture of ${width} × ${height} px: each side must be 1–${MAX_PICTURE_SIDE} px`);
  }
  const pictures = await picturesOf(flat, s, true);
  s.onProgress?.(30, 'render');
  // the rasteriser (resvg, sharp: a third of a second to load) only for pictures, never for a PDF
  const { renderRaster } = await import('../render/raster.ts');
  return renderRaster(flat, { format, width, height, area, background: o.background ?? 'white', text: s.text, pictures, quality: o.quality });
}
