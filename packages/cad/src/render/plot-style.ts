import { inflateSync } from 'node:zlib';
import { aciToRgb } from '../geometry/aci.ts';

/**
 * Plot style tables: AutoCAD's CTB (colour-dependent, one style per ACI 1–255) and STB (named styles) files. Both are
 * a 60-byte header ("PIAFILEVERSION_2.0,CTBVER1,compress\r\npmzlibcodec", then Adler-32, plain and compressed sizes)
 * and a zlib stream of text: `key=value` lines and `name{ … }` groups, a NUL at the end.
 */
export interface PlotStyle {
  name: string;
  /** 0xRRGGBB, or undefined for "use object colour" */
  color?: number;
  /** lineweight in mm, or undefined for "use object lineweight" */
  lineweight?: number;
  /** screening 0–100 (100 = full ink) */
  screen: number;
  grayscale: boolean;
}

export interface PlotStyleTable {
  kind: 'ctb' | 'stb';
  description: string;
  /** CTB: index 1–255 by ACI (index 0 unused); STB: in file order, "Normal" first */
  styles: PlotStyle[];
}

export class PlotStyleError extends Error {}

type Group = { [key: string]: string | Group };

/** Parses a CTB or STB file (its kind from its content: a CTB has `aci_table_available=TRUE`). */
export function parsePlotStyleTable(bytes: Uint8Array): PlotStyleTable {
  const head = Buffer.from(bytes.subarray(0, 60)).toString('latin1');
  if (!head.startsWith('PIAFILEVERSION_2.0')) throw new PlotStyleError('not a plot style table (CTB/STB)');
  let text: string;
  try {
    text = inflateSync(bytes.subarray(60)).toString('utf8');
  } catch {
    throw new PlotStyleError('plot style table: compressed data damaged');
  }
  const root = parseGroups(text.replace(/\0+$/, ''));
  const table = root.custom_lineweight_table;
  const weights = typeof table === 'object' ? table : {};
  const styles: PlotStyle[] = [];
  const groups = root.plot_style;
  if (typeof groups !== 'object') throw new PlotStyleError('plot style table without plot_style');
  for (const [index, g] of Object.entries(groups)) {
    if (typeof g !== 'object') continue;
    styles[Number(index)] = styleOf(g, weights);
  }
  const ctb = String(root.aci_table_available ?? '').toUpperCase() === 'TRUE';
  // CTB styles 0–254 are ACI 1–255
  return { kind: ctb ? 'ctb' : 'stb', description: String(root.description ?? '').replace(/^"/, ''), styles: ctb ? [undefined as unknown as PlotStyle, ...styles] : styles.filter(Boolean) };
}

function styleOf(g: Group, weights: Group): PlotStyle {
  const str = (k: string) => (typeof g[k] === 'string' ? (g[k] as string) : undefined);
  const color = Number(str('mode_color') ?? str('color') ?? -1);
  // -1 and 0xC3FFFFFF (-1006632961) mean "object colour"; otherwise the low 24 bits are the RGB
  const objectColor = color === -1 || color === -1006632961 || !Number.isFinite(color);
  const lwIndex = Number(str('lineweight') ?? 255);
  const lw = weights[String(lwIndex)];
  // 255 (or an index past the table) is "use object lineweight"
  const lineweight = lwIndex !== 255 && typeof lw === 'string' && Number.isFinite(Number(lw)) ? Number(lw) : undefined;
  return {
    name: (str('name') ?? '').replace(/^"/, ''),
    ...(objectColor ? {} : { color: color & 0xffffff }),
    ...(lineweight !== undefined ? { lineweight } : {}),
    screen: Math.min(100, Math.max(0, Number(str('screen') ?? 100))),
    grayscale: (Number(str('color_policy') ?? 0) & 2) !== 0,
  };
}

/** The text form: `key=value` lines, `key{` opening a group, `}` closing it. Values keep their text ("Color_1 stays quoted). */
function parseGroups(text: string): Group {
  const root: Group = {};
  const stack: Group[] = [root];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const top = stack[stack.length - 1];
    if (line === '}') {
      if (stack.length > 1) stack.pop();
    } else if (line.endsWith('{')) {
      const g: Group = {};
      top[line.slice(0, -1).trim()] = g;
      stack.push(g);
    } else {
      const eq = line.indexOf('=');
      if (eq > 0) top[line.slice(0, eq).trim()] = line.slice(eq + 1);
    }
  }
  return root;
}

/** RGB → ACI for the exact ACI colours (a CTB names its styles by ACI; true colours that match none keep their own). */
let aciByRgb: Map<number, number> | undefined;
function aciOf(rgb: number): number | undefined {
  if (!aciByRgb) {
    aciByRgb = new Map();
    // later indices never replace earlier ones: ACI 7 (white/black) wins over 255's white
    for (let i = 255; i >= 1; i--) aciByRgb.set(aciToRgb(i), i);
  }
  return aciByRgb.get(rgb);
}

/** How colours are printed: as drawn, all black (monochrome), or luminance greys. */
export type ColorMode = 'color' | 'monochrome' | 'grayscale';

/** A pen: the colour and lineweight (1/100 mm) a line is printed with. */
export interface Pen {
  color: number;
  lineweight: number;
}

const grey = (c: number) => {
  const y = Math.round(0.299 * ((c >> 16) & 255) + 0.587 * ((c >> 8) & 255) + 0.114 * (c & 255));
  return (y << 16) | (y << 8) | y;
};
const screened = (c: number, screen: number) => {
  if (screen >= 100) return c;
  const f = screen / 100;
  const ch = (s: number) => Math.round(255 - (255 - ((c >> s) & 255)) * f);
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
};

/** The pen a style makes of a line's colour and lineweight (1/100 mm): its colour and lineweight when it sets them, greys, screening. */
export function styledPen(color: number, lineweight: number, style: PlotStyle): Pen {
  let c = color, lw = lineweight;
  if (style.color !== undefined) c = style.color;
  if (style.lineweight !== undefined) lw = Math.round(style.lineweight * 100);
  if (style.grayscale) c = grey(c);
  return { color: screened(c, style.screen), lineweight: lw };
}

/** An STB's "Normal" style (the first when none is so named): what applies where no named style is assigned. */
export function normalStyle(table: PlotStyleTable): PlotStyle | undefined {
  return table.styles.find((s) => s.name.toLowerCase() === 'normal') ?? table.styles[0];
}

/**
 * The pen a line of `color` (as drawn on paper: ACI 7 already black) and `lineweight` prints with:
 * the plot style table's style for its ACI (CTB) or the "Normal" style (STB: a named-plot-style drawing has its
 * styles applied per entity and layer before, named-plot-styles.ts, and passes no table here), then the colour mode.
 */
export function penFor(color: number, lineweight: number, mode: ColorMode, table?: PlotStyleTable): Pen {
  let c = color, lw = lineweight;
  if (table) {
    // ACI 7 is drawn black on paper, but the CTB's style 7 is still what applies to it
    const aci = color === 0x000000 ? 7 : aciOf(color);
    const style = table.kind === 'ctb' ? (aci !== undefined ? table.styles[aci] : undefined) : normalStyle(table);
    if (style) ({ color: c, lineweight: lw } = styledPen(c, lw, style));
  }
  if (mode === 'monochrome') c = c === 0xffffff ? c : 0x000000;
  else if (mode === 'grayscale') c = grey(c);
  return { color: c, lineweight: lw };
}
