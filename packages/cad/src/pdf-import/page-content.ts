/** What one PDF page draws, in page points (origin at the page's lower left corner, y up), before it becomes entities. */

export type Pt = [number, number];

export type Segment = { kind: 'L'; to: Pt } | { kind: 'C'; c1: Pt; c2: Pt; to: Pt };

export interface Subpath {
  start: Pt;
  segs: Segment[];
  closed: boolean;
}

/** One painted path: stroked, filled or both, with the graphics state it was painted in. */
export interface Shape {
  subpaths: Subpath[];
  stroke: boolean;
  fill: boolean;
  /** #rrggbb */
  strokeColor: string;
  fillColor: string;
  /** line width on the page (points); 0 = the thinnest line the device draws */
  lineWidth: number;
  /** dash array on the page (points), null when solid */
  dash: number[] | null;
  /** the optional-content group (PDF layer) it lies in */
  layer: string | null;
}

/** One run of glyphs shown by one text operator, placed on the page. */
export interface GlyphRun {
  text: string;
  /** baseline start and end (after the last glyph's advance), page points */
  x: number;
  y: number;
  endX: number;
  endY: number;
  /** em size on the page (points) and the baseline's angle (radians) */
  size: number;
  angle: number;
  /** horizontal scale against the vertical one (Tz, or a stretched text matrix) */
  widthFactor: number;
  font: string;
  bold: boolean;
  italic: boolean;
  color: string;
  layer: string | null;
  /** render mode 3: text nobody sees (searchable text laid over SHX strokes) */
  invisible: boolean;
}

export interface PageContent {
  /** page size in points */
  width: number;
  height: number;
  shapes: Shape[];
  runs: GlyphRun[];
  /** pictures painted (a scanned page has these and nothing else) */
  images: number;
}
