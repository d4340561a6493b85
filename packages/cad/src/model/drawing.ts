/**
 * The drawing model every reader produces and every renderer consumes. This first layer keeps each entity's
 * common properties typed and its own group codes in order (`pairs`), so nothing a file holds is lost while
 * the per-type geometry decoders grow; `counts` and `unsupported` say exactly what was read.
 */
export interface Point3 {
  x: number;
  y: number;
  z: number;
}

export interface DrawingHeader {
  /** $ACADVER, e.g. AC1015 (2000), AC1032 (2018); AC1009 for R12 */
  version: string;
  /** $INSUNITS (0 unitless, 1 inch, 4 mm, 6 m …) */
  units: number;
  extMin?: Point3;
  extMax?: Point3;
  /** $DWGCODEPAGE, e.g. ANSI_1252, ANSI_936 */
  codePage: string;
  /** every header variable as read: name → first value */
  vars: Record<string, string | number>;
  /** every header variable with all its groups (a point's 10/20/30), in file order: what a writer re-emits */
  groups?: [name: string, pairs: Pair[]][];
}

export interface Layer {
  name: string;
  /** ACI colour; negative means the layer is off */
  color: number;
  trueColor?: number;
  linetype: string;
  lineweight: number;
  on: boolean;
  frozen: boolean;
  locked: boolean;
  /** the LAYER record's handle (5): what a viewport's frozen-layer list (341) names */
  handle?: string;
  /** false when the layer is not plotted (290 = 0) */
  plot?: boolean;
  /** the handle (390) of its named plot style (an ACDBPLACEHOLDER, named in `Drawing.plotStyleNames`) */
  plotStyle?: string;
}

export interface TextStyle {
  name: string;
  /** primary font file (SHX or TTF) */
  font: string;
  bigFont: string;
  widthFactor: number;
  oblique: number;
  /** the STYLE record's handle (5): what MULTILEADER and MTEXT styles point to */
  handle?: string;
  /** STYLE flags (70): 1 a shape file (SHAPE entities), 4 vertical text */
  flags?: number;
  /** text height fixed by the style (40; 0 = not fixed) */
  height?: number;
  /** TrueType styles: the bold / italic face (STYLE XDATA ACAD 1071 flags) */
  bold?: boolean;
  italic?: boolean;
}

export interface Linetype {
  name: string;
  description: string;
  /** dash lengths: positive dash, negative gap, 0 dot */
  pattern: number[];
  /** the LTYPE record's handle (5) */
  handle?: string;
}

/** A DIMSTYLE record: its name and handle typed, its dimension variables as group codes in file order. */
export interface DimStyle {
  name: string;
  handle?: string;
  pairs: Pair[];
}

export type Pair = readonly [code: number, value: string | number];

export interface Entity {
  type: string;
  handle?: string;
  layer: string;
  /** ACI colour: 256 ByLayer, 0 ByBlock */
  color: number;
  trueColor?: number;
  linetype?: string;
  lineweight?: number;
  /** true when the entity lies in paper space (code 67) */
  paperSpace: boolean;
  owner?: string;
  /** the entity's group codes, in file order */
  pairs: Pair[];
  /** VERTEX of a POLYLINE, ATTRIB of an INSERT */
  children?: Entity[];
}

export interface Block {
  name: string;
  handle?: string;
  /** the BLOCK_RECORD's handle (the BLOCK's 330): what its entities' owner and a layout's block record name */
  recordHandle?: string;
  /** BLOCK flags (70): 1 anonymous, 2 has attributes, 4 xref, 8 overlay … */
  flags?: number;
  base: Point3;
  entities: Entity[];
}

export interface Layout {
  name: string;
  tabOrder: number;
  /** handle of the block record the layout draws */
  blockRecord?: string;
  /** the layout's page setup (its LAYOUT object's AcDbPlotSettings), when the file keeps one */
  plot?: PlotSettings;
  /** the layout's limits (AcDbLayout 10/20, 11/21) in paper units: the sheet as drawn in the layout */
  limits?: { minX: number; minY: number; maxX: number; maxY: number };
  /** the LAYOUT record's group codes (plot settings: paper, plot area, scale), in file order */
  pairs?: Pair[];
}

/** A layout's page setup as DXF's AcDbPlotSettings stores it (lengths in mm whatever the paper units). */
export interface PlotSettings {
  /** paper size name (4), e.g. ISO_A3_(420.00_x_297.00_MM) */
  paperName: string;
  /** paper width and height (44, 45), mm */
  paperWidth: number;
  paperHeight: number;
  /** unprintable margins left, bottom, right, top (40–43), mm */
  margins: [number, number, number, number];
  /** plot origin from the printable area's corner (46, 47), mm */
  originX: number;
  originY: number;
  /** 72: 0 inches, 1 mm, 2 pixels */
  paperUnits: number;
  /** 73: 0 none, 1 90° counter-clockwise, 2 upside down, 3 90° clockwise */
  rotation: number;
  /** 74: 0 last display, 1 extents, 2 limits, 3 view, 4 window, 5 layout */
  plotType: number;
  /** plot window corners (48/49, 140/141) for plot type 4 */
  window?: [number, number, number, number];
  /** custom scale: paper units (142) per drawing units (143) */
  scaleNumerator: number;
  scaleDenominator: number;
  /** 70 bit 16 with 75 = 0: scaled to fit */
  fit: boolean;
  /** 70 bit 4: centred on the printable area */
  centered: boolean;
  /** the plot style table named by the setup (7), e.g. monochrome.ctb */
  styleSheet: string;
}

/** An IMAGEDEF object: the picture file an IMAGE shows (the IMAGE's 340 is its handle). */
export interface ImageDef {
  /** the file name as written in the drawing (1), often a full or relative Windows path */
  file: string;
  /** size in pixels (10/20) */
  width: number;
  height: number;
}

export interface Drawing {
  format: 'dxf' | 'dwg';
  binary: boolean;
  header: DrawingHeader;
  layers: Layer[];
  linetypes: Linetype[];
  textStyles: TextStyle[];
  blocks: Block[];
  layouts: Layout[];
  /** DIMSTYLE table records (absent when the file has none) */
  dimStyles?: DimStyle[];
  /** entities of the ENTITIES section (model and paper space) */
  entities: Entity[];
  /** every entity record read, by type, from ENTITIES and BLOCKS (children included) */
  counts: Record<string, number>;
  /** records of types no decoder understands yet, by type: counted and kept in `pairs`, never dropped */
  unsupported: Record<string, number>;
  /** ACIS data in binary (SAB) form by the handle of its REGION, 3DSOLID, BODY or surface (ACDSDATA, AutoCAD 2013 on) */
  acisData?: Record<string, Uint8Array>;
  /** the CLASSES section's records (2000 on), each its group codes: what a writer needs for the classes it re-emits */
  classes?: Pair[][];
  /** IMAGEDEF objects by handle (absent when the drawing has none) */
  imageDefs?: Record<string, ImageDef>;
  /** MLEADERSTYLE objects by handle, their group codes in file order (absent when the drawing has none) */
  mleaderStyles?: Record<string, Pair[]>;
  /**
   * a named-plot-style drawing's style names by the handle of their ACDBPLACEHOLDER (the ACAD_PLOTSTYLENAME
   * dictionary): what a layer's and an entity's 390 point at (absent in colour-dependent drawings)
   */
  plotStyleNames?: Record<string, string>;
}

export class CadError extends Error {
  constructor(
    readonly code: 'cad.parseFailed' | 'cad.tooLarge' | 'cad.tooComplex' | 'cad.layoutNotFound' | 'cad.targetUnavailable',
    message = 'The drawing analysis failed!',
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CadError';
  }
}
