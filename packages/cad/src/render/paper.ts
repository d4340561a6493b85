import type { Layout } from '../model/drawing.ts';
import type { Bounds } from './prepare.ts';

/** Paper sizes by name, short side × long side in mm: ISO A (spec section 9's PDF export) and ANSI A–E. */
export const PAPER_SIZES = {
  A0: [841, 1189],
  A1: [594, 841],
  A2: [420, 594],
  A3: [297, 420],
  A4: [210, 297],
  'ANSI A': [215.9, 279.4],
  'ANSI B': [279.4, 431.8],
  'ANSI C': [431.8, 558.8],
  'ANSI D': [558.8, 863.6],
  'ANSI E': [863.6, 1117.6],
} as const;
export type PaperName = keyof typeof PAPER_SIZES;

/** Millimetres per drawing unit for $INSUNITS (0, unitless, is taken as millimetres). */
const UNIT_MM: Record<number, number> = { 1: 25.4, 2: 304.8, 3: 1609344, 4: 1, 5: 10, 6: 1000, 7: 1e6, 8: 2.54e-5, 9: 0.0254, 10: 914.4, 11: 1e-7, 12: 1e-6, 13: 1e-3, 14: 100, 15: 1e4, 16: 1e5, 17: 1e12, 18: 1.495978707e14, 19: 9.4607304725808e18, 20: 3.0856775814913673e19 };
export const unitMm = (insunits: number) => UNIT_MM[insunits] ?? 1;

/** A page asked for where the layout has no page setup of its own (model space, or a layout without one). */
export interface PageChoice {
  /** 'fit' (default): a page of the drawing's aspect, its long side A3's; a named size; or a custom size in mm */
  paper?: 'fit' | PaperName | { width: number; height: number };
  /** 'auto' (default): landscape when the drawing is wider than tall */
  orientation?: 'auto' | 'portrait' | 'landscape';
  /** 'fit' (default), or N of a 1:N scale: 1 mm on paper shows N mm of the drawing (in the drawing's units) */
  scale?: 'fit' | number;
  /** margin on every side, mm (default 10) */
  margin?: number;
  /** use a paper layout's own page setup when it has one (default true) */
  layoutSetup?: boolean;
}

/** Where a layout goes on its page: page size and a drawing → page map, all in mm with y up from the page's lower left. */
export interface PagePlan {
  width: number;
  height: number;
  /** mm per drawing unit */
  scale: number;
  /** page position (mm) of the drawing's origin */
  x0: number;
  y0: number;
  /** the printable area (mm): nothing is drawn outside it */
  clip: Bounds;
  /** where the plan came from, for the report */
  from: 'layout' | 'choice';
}

/**
 * The page of one layout. A paper layout with a page setup prints as AutoCAD plots it: its paper (turned by its plot
 * rotation), its margins, its plot origin and its scale (paper units per drawing unit, inches when the setup says so);
 * plotted by layout limits it keeps the layout's own origin, by extents or window it is fitted or scaled into the
 * printable area. A paper layout with limits but no setup (LibreDWG's DWG layouts) gets a page its limits' size at 1:1.
 * Everything else takes the caller's choice.
 */
export function planPage(content: Bounds, layout: Layout | undefined, isModel: boolean, insunits: number, choice: PageChoice = {}): PagePlan {
  const plot = layout?.plot;
  if (!isModel && choice.layoutSetup !== false && plot) {
    const turned = plot.rotation === 1 || plot.rotation === 3;
    const width = turned ? plot.paperHeight : plot.paperWidth, height = turned ? plot.paperWidth : plot.paperHeight;
    const [l, b, r, t] = plot.margins;
    // margins follow the paper as it turns: [left, bottom, right, top] of the sheet as the layout shows it
    const [ml, mb, mr, mt] = plot.rotation === 1 ? [t, l, b, r] : plot.rotation === 3 ? [b, r, t, l] : plot.rotation === 2 ? [r, t, l, b] : [l, b, r, t];
    const clip = { minX: ml, minY: mb, maxX: width - mr, maxY: height - mt };
    const unit = plot.paperUnits === 0 ? 25.4 : 1;
    const setScale = (plot.scaleNumerator / plot.scaleDenominator) * unit;
    if (plot.plotType === 5 || plot.plotType === 2 || !plot.fit) {
      // the layout's paper-space origin sits on the printable area's corner, moved by the plot origin
      return { width, height, scale: setScale, x0: ml + plot.originX, y0: mb + plot.originY, clip, from: 'layout' };
    }
    const area = plot.plotType === 4 && plot.window ? { minX: plot.window[0], minY: plot.window[1], maxX: plot.window[2], maxY: plot.window[3] } : content;
    return { ...fitInto(area, clip, 'fit'), width, height, clip, from: 'layout' };
  }
  if (!isModel && choice.layoutSetup !== false && layout?.limits && !choice.paper) {
    const lim = layout.limits;
    const width = lim.maxX - lim.minX, height = lim.maxY - lim.minY;
    // limits of a few units are inches (AutoCAD's imperial default sheet is 12 × 9)
    const unit = Math.max(width, height) < 50 ? 25.4 : 1;
    return { width: width * unit, height: height * unit, scale: unit, x0: -lim.minX * unit, y0: -lim.minY * unit, clip: { minX: 0, minY: 0, maxX: width * unit, maxY: height * unit }, from: 'layout' };
  }
  const margin = choice.margin ?? 10;
  const w = Math.max(content.maxX - content.minX, 1e-9), h = Math.max(content.maxY - content.minY, 1e-9);
  const wide = choice.orientation === 'landscape' || (choice.orientation !== 'portrait' && w >= h);
  let width: number, height: number;
  const paper = choice.paper ?? 'fit';
  if (paper === 'fit') {
    const long = PAPER_SIZES.A3[1];
    if (typeof choice.scale === 'number') {
      // a 1:N page as big as the drawing needs
      const k = unitMm(insunits) / choice.scale;
      [width, height] = [w * k + 2 * margin, h * k + 2 * margin];
    } else if (wide) [width, height] = [long, Math.max(2 * margin + 1, ((long - 2 * margin) * h) / w + 2 * margin)];
    else [width, height] = [Math.max(2 * margin + 1, ((long - 2 * margin) * w) / h + 2 * margin), long];
  } else {
    const [short, long] = typeof paper === 'object' ? [Math.min(paper.width, paper.height), Math.max(paper.width, paper.height)] : PAPER_SIZES[paper];
    // a custom paper keeps its own orientation unless one is asked for
    if (typeof paper === 'object' && (choice.orientation ?? 'auto') === 'auto') [width, height] = [paper.width, paper.height];
    else [width, height] = wide ? [long, short] : [short, long];
  }
  const clip = { minX: margin, minY: margin, maxX: width - margin, maxY: height - margin };
  const scale = typeof choice.scale === 'number' ? unitMm(insunits) / choice.scale : 'fit';
  return { ...fitInto(content, clip, scale), width, height, clip, from: 'choice' };
}

/** A drawing area centred in a page area, scaled to fit it or at a given mm per unit. */
function fitInto(area: Bounds, into: Bounds, scale: 'fit' | number): { scale: number; x0: number; y0: number } {
  const w = Math.max(area.maxX - area.minX, 1e-9), h = Math.max(area.maxY - area.minY, 1e-9);
  const k = scale === 'fit' ? Math.min((into.maxX - into.minX) / w, (into.maxY - into.minY) / h) : scale;
  const cx = (into.minX + into.maxX) / 2, cy = (into.minY + into.maxY) / 2;
  return { scale: k, x0: cx - ((area.minX + area.maxX) / 2) * k, y0: cy - ((area.minY + area.maxY) / 2) * k };
}

/** A paper asked for by name (any case, 'a3', 'ansi-b', 'ANSI B') or as WxH in mm ('500x300'); undefined when not one. */
export function parsePaper(s: string): PageChoice['paper'] | undefined {
  if (s.toLowerCase() === 'fit') return 'fit';
  const custom = /^(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)(?:mm)?$/i.exec(s.trim());
  if (custom) return { width: Number(custom[1]), height: Number(custom[2]) };
  const want = s.trim().toUpperCase().replace(/[-_ ]+/, ' ');
  return (Object.keys(PAPER_SIZES) as PaperName[]).find((n) => n === want);
}
