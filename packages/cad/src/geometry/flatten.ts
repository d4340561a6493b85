import type { Block, Drawing, Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import { DxfEntity, FieldIndex } from '../dxf/pair-store.ts';
import { aciToRgb, trueColorRgb, WHITE } from './aci.ts';
import { bulgeInterior, clipPattern, readHatch, ringArea } from './hatch.ts';
import { dashCurve, dashPolyline, polylineLength } from './linetype.ts';
import { fitPointCurve, tessellateNurbs } from './spline.ts';
import { generateDimension, namedArrow, type Annotation, type DimStylePairs } from './dimension.ts';
import { acisWireframe } from '../acis/index.ts';
import { gradientBands, readGradient } from './gradient.ts';
import { imageFrame, leaderGeometry, mlineElements, multiLeaderGeometry, rawColor } from './leader.ts';
import { blockInstancer, TEXT_SOURCES, type FlatBlocks } from './block-instances.ts';
import type { Curve2 } from './curve.ts';
import { imageAdjust, type ImageAdjust } from './image-adjust.ts';
import { expandedPairsBound, expansionBound, MAX_HATCH_WORK, MAX_SPLINE_DEGREE, primitivesBound, storedContent, type Deadline } from './content-budget.ts';

/** A 2D affine transform [a b c d e f]: x' = a x + c y + e, y' = b x + d y + f. */
export type Affine = [number, number, number, number, number, number];
/**
 * An affine whose array holds doubles whatever the values: a literal of whole numbers is an array of small integers to
 * V8, and code optimised for one kind of transform array was thrown back (deoptimised) on meeting the other, in every
 * function that reads transforms (a first build met both within the first few hundred entities)
 */
export function affine(a: number, b: number, c: number, d: number, e: number, f: number): Affine {
  const m: Affine = [0.5, 0, 0, 0, 0, 0];
  m[0] = a;
  m[1] = b;
  m[2] = c;
  m[3] = d;
  m[4] = e;
  m[5] = f;
  return m;
}

export const IDENTITY: Affine = affine(1, 0, 0, 1, 0, 0);

export function multiply(m: Affine, n: Affine): Affine {
  return affine(m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]);
}

/** The top-level entity a piece of geometry came from: what a click on it selects and the properties panel shows. */
export interface EntityRef {
  handle?: string;
  type: string;
  layer: string;
  /** resolved 0xRRGGBB */
  color: number;
  linetype?: string;
  /** lineweight in 1/100 mm as stored (-1 ByLayer, -2 ByBlock, -3 default) */
  lineweight?: number;
  /** an INSERT's block name (the properties panel names it) */
  block?: string;
}

export interface Polyline2 {
  /** x0 y0 x1 y1 … in drawing units, after block transforms */
  points: number[];
  closed: boolean;
  /** 0xRRGGBB */
  color: number;
  /** the layer the geometry is switched with: the top-level entity's layer unless the child is on its own layer */
  layer: string;
  /** a filled area (SOLID, solid HATCH, wide polyline): `points` is a closed ring */
  filled?: boolean;
  /** inner rings (islands) of a filled area, each x0 y0 x1 y1 …, filled with the even-odd rule */
  holes?: number[][];
  /** index into `Flattened.entities` */
  entity: number;
  /** resolved lineweight in 1/100 mm (0 = thinnest) */
  lineweight?: number;
  /**
   * `points` are separate segments x0 y0 x1 y1 x0 y0 … (4 numbers each, not joined, `closed` false): a pattern hatch's
   * lines, with `FlattenOptions.segmentLists`
   */
  segments?: boolean;
}

export interface TextRun {
  /** insertion point after transforms (the alignment point for aligned TEXT, the attachment point for MTEXT) */
  x: number;
  y: number;
  height: number;
  /** degrees, counter-clockwise */
  rotation: number;
  /** plain text, newlines for MTEXT paragraphs */
  text: string;
  color: number;
  layer: string;
  entity: number;
  kind: 'text' | 'mtext';
  /** the MTEXT string with its inline codes, for the text layout engine */
  raw?: string;
  /** text style name, resolved to `Drawing.textStyles` by the text layout */
  style: string;
  /** TEXT: 72 horizontal (0 left, 1 center, 2 right, 3 aligned, 4 middle, 5 fit) and 73 vertical (0 baseline … 3 top); MTEXT: 71 attachment 1–9 */
  halign: number;
  valign: number;
  attachment?: number;
  /** width factor × the block's x/y scale ratio */
  widthFactor: number;
  /** oblique angle in degrees */
  oblique: number;
  /** MTEXT reference column width (0 = no wrapping) */
  boxWidth?: number;
  /** true when a mirrored block transform flips the text */
  mirrored?: boolean;
  /** a frame around the laid-out text, this far outside it (multileader "frame text", MTEXT 90 bit 16; drawing units) */
  frame?: number;
  /**
   * where it is drawn in the polyline stream: after `Flattened.polylines[at - 1]`, before `polylines[at]` (as
   * `BlockInstance.at`). Set only in drawings with a WIPEOUT, the one thing whose look depends on draw order across
   * polylines, curves and texts (the scene's depth tiers, scene/tiers.ts); absent elsewhere, so nothing else changes.
   */
  at?: number;
}

/** An IMAGE or WIPEOUT placed in the drawing: the renderer draws the picture (or masks) inside `clip ?? corners`. */
export interface ImageFrame {
  /** index into `Flattened.entities` */
  entity: number;
  /** the four corners x0 y0 … x3 y3 after transforms: insertion, +u, +u+v, +v (u along the pixel rows) */
  corners: number[];
  /** the clip boundary ring after transforms, when the file clips the image */
  clip?: number[];
  /** the IMAGEDEF (340) naming the picture file; absent for WIPEOUT */
  imageDefHandle?: string;
  wipeout?: boolean;
  /** the layer it is switched with (as its frame polyline's) */
  layer: string;
  /** index in `polylines` of its frame: renderers paint the picture there, so draw order is kept */
  order: number;
  /** IMAGE adjustments (IMAGEADJUST), when they differ from the defaults: brightness 50, contrast 50, fade 0 (0–100 each) */
  adjust?: ImageAdjust;
  /**
   * islands of a mask (`wipeout` set by a white fill, see `pl`): they stay unmasked, as the fill leaves them unpainted
   */
  holes?: number[][];
}

export interface Flattened {
  polylines: Polyline2[];
  texts: TextRun[];
  entities: EntityRef[];
  /**
   * entity types met that the flattener does not draw (yet), by count, block children included. A `TYPE:part` key
   * counts a part of a drawn entity left out: `HATCH:pattern` (pattern too dense or undefined: outline drawn
   * instead), `MULTILEADER:block` (block content of a multileader whose block is not found), `INSERT:limit` (an INSERT not expanded because
   * the drawing already expanded `maxEntities` or made `maxPrimitives`, or an array cut at 100 × 100), `TYPE:limit`
   * (geometry past `maxPrimitives`, not drawn), `TYPE:simplified` (drawn simpler: a spline of a degree over
   * MAX_SPLINE_DEGREE as its control polygon; the scene compiler adds curves it baked coarser), `TYPE:invalid` (a piece
   * of geometry with damaged numbers). The bounds: content-budget.ts.
   */
  skipped: Record<string, number>;
  /**
   * top-level entities left out on purpose, by type: layer off, frozen or hidden, invisible (60 = 1 or an invisible
   * attribute), empty text, model-space VIEWPORT, LIGHT, an INSERT of an empty block, a pattern hatch whose lines all
   * miss its area, an XLINE/RAY outside the drawing
   */
  omitted?: Record<string, number>;
  /** how many of `omitted` are left out for their layer (off, frozen or hidden): the viewer says so when nothing else shows */
  layerOmitted?: number;
  /** IMAGE and WIPEOUT frames (their outline is also in `polylines`) */
  images?: ImageFrame[];
  /** block geometry drawn by instances (only with `FlattenOptions.blockInstances`), not in `polylines`: see block-instances.ts */
  blocks?: FlatBlocks;
  /** with `FlattenOptions.curves`: continuous circles, arcs, elliptical arcs and bulge arcs, exact (not in `polylines`) */
  curves?: Curve2[];
}

export interface FlattenOptions {
  tolerance?: number;
  hiddenLayers?: Set<string>;
  /** applied to every entity (a viewport's model-to-paper transform) */
  transform?: Affine;
  /** cut lines into their linetype's dashes (default true); a renderer that dashes on the screen turns it off */
  linetypes?: boolean;
  /** most segments one pattern hatch may make before only its outline is drawn (default 200 000) */
  hatchSegmentCap?: number;
  /**
   * entities (block children included) expanded before further INSERTs are only counted (default: 50 × the entities
   * the drawing stores, between 300 000 and 2 000 000; content-budget.ts)
   */
  maxEntities?: number;
  /**
   * output vertices, exact curves and text characters before further geometry is only counted as `TYPE:limit`
   * (default: 20 per group code the drawing stores, between 1 000 000 and 6 000 000; content-budget.ts)
   */
  maxPrimitives?: number;
  /** ends the flattening with `cad.tooComplex` once passed (the build's time budget) */
  deadline?: Deadline;
  /**
   * top-level INSERTs as instances of block meshes in `blocks` instead of polylines (the scene compiler's input; the
   * renderers that read `polylines` leave it off, `expandFlatBlocks` bakes them back)
   */
  blockInstances?: boolean;
  /**
   * circles, arcs, elliptical arcs and polyline bulge arcs drawn in a continuous linetype go to `curves` as exact
   * parametric arcs instead of polylines, for an output that tessellates them at its own resolution (the scene)
   */
  curves?: boolean;
  /**
   * a pattern hatch's lines as one polyline of separate segments (`Polyline2.segments`) instead of one polyline per
   * segment: a drawing's hatches make hundreds of thousands of them (the scene compiler reads these)
   */
  segmentLists?: boolean;
  /**
   * model space already flattened with these same options (flattenLayout's Model): a paper layout's viewports that
   * freeze no layer show it instead of flattening it again (a PDF of every layout flattened it twice)
   */
  modelSpace?: Flattened;
  /**
   * geometry on layers off or frozen in the file is kept, on its layer (the viewer hides those layers at first and
   * lets the user switch them on; nothing is saved). A frozen INSERT's children are switched with the INSERT's layer,
   * as freezing it hides them all. Off by default: the renderers draw what the plot shows.
   */
  keepHiddenLayers?: boolean;
}

const num = (e: Entity, code: number, def = 0) => {
  const v = pairValue(e, code);
  return v === undefined ? def : Number(v);
};

/** fields looked up by a scan each (callers without a FieldIndex) */
const byScan = { first: pairValue, num };

/** The linear scale of a transform (the square root of its area scale), 1 for a degenerate one. */
const scaleOf = (m: Affine) => Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2])) || 1;

/** Values an entity inherits from the INSERT that draws it: ByBlock colour, lineweight and linetype, and layer 0's stand-in. */
export interface Inherited {
  color: number;
  lw: number;
  lt: string;
  layer: string;
  /** with `keepHiddenLayers`: the frozen layer of an INSERT above, which all its geometry is switched with */
  gate?: string;
}

/** One entity being drawn: what its geometry is pushed with. */
interface Ctx {
  e: Entity;
  m: Affine;
  color: number;
  layer: string;
  ref: number;
  lineweight: number;
  lt: string;
  ltScale: number;
  /** a top-level entity (not a block's child) */
  top: boolean;
  gate?: string;
}

/** What an entity that draws through a block (INSERT, table, dimension, multileader) passes down to its children. */
const inheritedFrom = (c: Ctx): Inherited => ({ color: c.color, lw: c.lineweight, lt: c.lt, layer: c.layer, gate: c.gate });

const OCS_TYPES = new Set(['CIRCLE', 'ARC', 'LWPOLYLINE', 'POLYLINE', 'HATCH', 'INSERT', 'TEXT', 'ATTRIB', 'ATTDEF', 'SOLID', 'TRACE']);

/**
 * The 2D part of an entity's object coordinate system (210/220/230 extrusion, arbitrary axis algorithm): x and y of
 * the OCS axes seen from above, the elevation moved along the normal. Null for the WCS (extrusion 0,0,1).
 */
export function ocsAffine(e: Entity, f: { first(e: Entity, code: number): string | number | undefined; num(e: Entity, code: number, def?: number): number } = byScan): Affine | null {
  if (f.first(e, 230) === undefined) return null;
  let nx = f.num(e, 210), ny = f.num(e, 220), nz = f.num(e, 230, 1);
  if (Math.abs(nx) < 1e-12 && Math.abs(ny) < 1e-12 && nz > 0) return null;
  const l = Math.hypot(nx, ny, nz) || 1;
  nx /= l;
  ny /= l;
  nz /= l;
  // Ax = (Wy or Wz) × N, Ay = N × Ax
  let ax: [number, number, number] = Math.abs(nx) < 1 / 64 && Math.abs(ny) < 1 / 64 ? [nz, 0, -nx] : [-ny, nx, 0];
  const al = Math.hypot(...ax) || 1;
  ax = [ax[0] / al, ax[1] / al, ax[2] / al];
  const ay = [ny * ax[2] - nz * ax[1], nz * ax[0] - nx * ax[2], nx * ax[1] - ny * ax[0]];
  const z = f.num(e, e.type === 'LWPOLYLINE' ? 38 : 30);
  return [ax[0], ax[1], ay[0], ay[1], z * nx, z * ny];
}

/**
 * Model space flattened to coloured 2D polylines and text runs: curves tessellated to `tolerance` drawing
 * units, INSERTs expanded through their blocks (nested, arrays, mirrored), ByLayer/ByBlock colours, linetypes and
 * lineweights resolved, linetype dashes cut, hatches filled or patterned, annotations (dimensions, leaders,
 * multileaders, tables) drawn through their blocks or generated. Every top-level entity ends drawn, in `skipped`
 * (cannot be drawn) or in `omitted` (not drawn on purpose). The renderers' and the scene compiler's input.
 */
export function flattenModelSpace(d: Drawing, opts: FlattenOptions = {}): Flattened {
  return flattenEntities(d, d.entities.filter((e) => !e.paperSpace), opts);
}

/** Any list of entities (model space, a layout's block, a block preview) flattened the same way. */
export function flattenEntities(d: Drawing, entities: readonly Entity[], opts: FlattenOptions = {}): Flattened {
  const out: Flattened = { polylines: [], texts: [], entities: [], skipped: {}, omitted: {} };
  // each entity's fields read once, not a scan per field asked for
  const fields = new FieldIndex();
  const field = (e: Entity, code: number) => fields.first(e, code);
  const mtextChunks = (e: Entity) => {
    let s = '';
    const f = fields.use(e);
    for (let k = 0; k < f.count; k++) if (f.codeAt(k) === 3) s += String(f.valueAt(k));
    return s;
  };
  const num = (e: Entity, code: number, def = 0) => fields.num(e, code, def);
  /**
   * MTEXT's x axis as a rotation in degrees, and whether the text is mirrored. Its own direction comes first: 11/21
   * (a WCS vector), else 50 (degrees in its OCS). Both are read only before an AutoCAD 2018+ `101 Embedded Object`
   * section, whose 11 is the insertion point again (read as a direction it rotated labels); that section's 10 is a
   * direction, used only when the entity has none of its own. MTEXT has no OCS for its points, but its y axis is
   * extrusion × x axis: an extrusion of 0,0,−1 mirrors the text (as ezdxf's MText.ucs() and AutoCAD's plot show).
   */
  const mtextDirection = (e: Entity): [number, boolean] => {
    const f = fields.use(e);
    let dx: number | undefined, dy = 0, rot: number | undefined, ex: number | undefined, ey = 0, embedded = false;
    for (let k = 0; k < f.count; k++) {
      const code = f.codeAt(k);
      if (code === 101) embedded = true;
      else if (!embedded && code === 11) dx = Number(f.valueAt(k));
      else if (!embedded && code === 21) dy = Number(f.valueAt(k));
      else if (!embedded && code === 50) rot = Number(f.valueAt(k));
      else if (embedded && code === 10 && ex === undefined) ex = Number(f.valueAt(k));
      else if (embedded && code === 20) ey = Number(f.valueAt(k));
    }
    const flipped = num(e, 230, 1) < 0;
    if (dx !== undefined && (dx || dy)) return [(Math.atan2(dy, dx) * 180) / Math.PI, flipped];
    if (rot === undefined && ex !== undefined && (ex || ey)) return [(Math.atan2(ey, ex) * 180) / Math.PI, flipped];
    const ocs = ocsAffine(e, fields);
    if (!ocs) return [rot ?? 0, flipped];
    const a = ((rot ?? 0) * Math.PI) / 180;
    return [(Math.atan2(ocs[1] * Math.cos(a) + ocs[3] * Math.sin(a), ocs[0] * Math.cos(a) + ocs[2] * Math.sin(a)) * 180) / Math.PI, flipped];
  };
  const layers = new Map(d.layers.map((l) => [l.name, l]));
  const blocks = new Map(d.blocks.map((b) => [b.name, b]));
  const vars = d.header.vars;
  const styles = new Map(d.textStyles.map((t) => [t.name.toLowerCase(), t]));
  const { extMin, extMax } = d.header;
  const extOk = !!extMin && !!extMax && [extMin.x, extMin.y, extMax.x, extMax.y].every((v) => Number.isFinite(v) && Math.abs(v) < 1e15) && extMax.x >= extMin.x && extMax.y >= extMin.y;
  const ext = extOk ? Math.hypot(extMax!.x - extMin!.x, extMax!.y - extMin!.y) : 1000;
  const tol = opts.tolerance ?? Math.max(1e-6, (Number.isFinite(ext) && ext > 0 ? ext : 1000) / 4000);
  const margin = extOk ? Math.max(extMax!.x - extMin!.x, extMax!.y - extMin!.y, 1e-6) / 4 : 0;
  let infiniteBox = extOk ? [extMin!.x - margin, extMin!.y - margin, extMax!.x + margin, extMax!.y + margin] : null;
  if (infiniteBox && opts.transform) {
    // the box in the output's coordinates (a viewport's paper space)
    const t = opts.transform, b = infiniteBox;
    const xs = [b[0], b[2]].flatMap((x) => [b[1], b[3]].map((y) => t[0] * x + t[2] * y + t[4]));
    const ys = [b[0], b[2]].flatMap((x) => [b[1], b[3]].map((y) => t[1] * x + t[3] * y + t[5]));
    infiniteBox = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  const linetypes = new Map(d.linetypes.map((l) => [l.name.toUpperCase(), l.pattern]));
  const ltscale = Number(vars.$LTSCALE ?? 1) || 1;
  // $PSLTSCALE 1 (the default): dashes seen through a viewport keep their paper-space length
  const viewportLtScale = opts.transform && Number(vars.$PSLTSCALE ?? 1) !== 0 ? scaleOf(opts.transform) : 1;
  const hatchCap = opts.hatchSegmentCap ?? 200_000;
  // dashes and hatch pattern segments a whole drawing may make before lines stay continuous and patterns become
  // outlines (reported), so a huge drawing cannot explode
  let dashBudget = 2_000_000;
  let hatchBudget = 4_000_000;
  // boundary points framed and crossings found by all pattern hatches (hatch.ts clipPattern): past it, outlines
  const hatchWork = { work: MAX_HATCH_WORK };
  let emitted = 0;
  // output vertices and exact curves made so far: what the scene's size follows
  let primitives = 0;
  const content = storedContent(d);
  const maxPrimitives = opts.maxPrimitives ?? primitivesBound(content.pairs);
  const deadline = opts.deadline;
  let recordBlocks: Map<string, Block> | undefined;
  let lowerBlocks: Map<string, Block> | undefined;
  let styleHandles: Map<string, string> | undefined;
  let dimStyles: Map<string, DimStylePairs> | undefined;
  let orphanTables: Block[] | undefined;
  const maxEntities = opts.maxEntities ?? expansionBound(content.entities);
  // group codes of the entities emitted (a block's are read again for every INSERT cell)
  let expandedPairs = 0;
  const maxExpandedPairs = expandedPairsBound(content.pairs);
  const overExpanded = () => emitted > maxEntities || primitives > maxPrimitives || expandedPairs > maxExpandedPairs;
  let textPass = false;
  // texts and curves say where they are drawn among the polylines only when a wipeout may mask them
  const ordered = hasWipeouts(d) || mayFillWhite(d);
  const instancer = opts.blockInstances
    ? blockInstancer({
        out,
        maxEntities,
        fields,
        emitChildren: (b, mm, inh, ref) => {
          for (let i = 0; i < b.entities.length; i++) emit(b.entities[i], mm, inh, 1, ref);
        },
        textPass: (on) => (textPass = on),
        budget: {
          get dash() { return dashBudget; },
          set dash(v) { dashBudget = v; },
          get hatch() { return hatchBudget; },
          set hatch(v) { hatchBudget = v; },
          get emitted() { return emitted; },
          set emitted(v) { emitted = v; },
          get primitives() { return primitives; },
          set primitives(v) { primitives = v; },
        },
        maxPrimitives,
      }, blocks, entities)
    : null;

  const colorOf = (e: Entity, inh: Inherited, layerName: string): number => {
    // a true colour wins over the index beside it (the nearest index, for programs without true colours), black
    // (0) included: black hatches read as their fallback index drew dark red
    if (e.trueColor !== undefined && e.trueColor >= 0) return trueColorRgb(e.trueColor);
    if (e.color === 0) return inh.color;
    if (e.color === 256 || e.color === undefined) {
      const l = layers.get(layerName);
      return l?.trueColor !== undefined ? trueColorRgb(l.trueColor) : aciToRgb(Math.abs(l?.color ?? 7) || 7);
    }
    return aciToRgb(Math.abs(e.color));
  };

  const apply = (m: Affine, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  // apply's point pushed onto `out`: no [x, y] array (this runs per vertex of every polyline and arc)
  const pushApplied = (m: Affine, x: number, y: number, out: number[]) => {
    out.push(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
  };
  const applyAll = (m: Affine, pts: readonly number[]): number[] => {
    const r = new Array<number>(pts.length);
    for (let i = 0; i < pts.length; i += 2) {
      r[i] = m[0] * pts[i] + m[2] * pts[i + 1] + m[4];
      r[i + 1] = m[1] * pts[i] + m[3] * pts[i + 1] + m[5];
    }
    return r;
  };
  const segmentsFor = (r: number, sweep: number) => Math.min(512, Math.max(4, Math.ceil(Math.abs(sweep) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(r, tol)))))));

  function arcPoints(m: Affine, cx: number, cy: number, r: number, a0: number, a1: number, out2: number[]) {
    let sweep = a1 - a0;
    if (sweep <= 0) sweep += Math.PI * 2;
    const n = segmentsFor(r * Math.hypot(m[0], m[1]), sweep);
    for (let i = 0; i <= n; i++) {
      const a = a0 + (sweep * i) / n;
      pushApplied(m, cx + r * Math.cos(a), cy + r * Math.sin(a), out2);
    }
  }

  function bulgeSegment(m: Affine, x0: number, y0: number, x1: number, y1: number, bulge: number, pts: number[]) {
    if (bulge) {
      const local: number[] = [];
      bulgeInterior(x0, y0, x1, y1, bulge, tol / scaleOf(m), local);
      for (let i = 0; i < local.length; i += 2) pushApplied(m, local[i], local[i + 1], pts);
    }
    pushApplied(m, x1, y1, pts);
  }

  const lineweightOf = (e: Entity, inh: Inherited, layerName: string): number => {
    const lw = e.lineweight ?? -1;
    if (lw === -2) return inh.lw;
    if (lw === -1) {
      const l = layers.get(layerName)?.lineweight ?? -3;
      return l >= 0 ? l : 0;
    }
    return lw >= 0 ? lw : 0;
  };

  // each layer's linetype upper-cased once (most entities are ByLayer), not per entity
  const layerLinetypes = new Map<string, string>();
  for (const l of d.layers) layerLinetypes.set(l.name, (l.linetype ?? 'CONTINUOUS').toUpperCase());
  const linetypeOf = (e: Entity, inh: Inherited, layerName: string): string => {
    let n = e.linetype === undefined ? 'BYLAYER' : e.linetype.toUpperCase();
    if (n === 'BYLAYER') n = layerLinetypes.get(layerName) ?? 'CONTINUOUS';
    if (n === 'BYBLOCK') n = inh.lt;
    return n;
  };

  /** The scaled dash pattern of a linetype with its period, or null when it draws continuous (no pattern, dashes under the tolerance). */
  function scaledDashes(name: string, scale: number): { scaled: number[]; period: number } | null {
    if (opts.linetypes === false || name === 'CONTINUOUS' || name === 'BYBLOCK') return null;
    const pattern = linetypes.get(name);
    if (!pattern || pattern.length < 2 || !pattern.some((x) => x < 0)) return null;
    const scaled = pattern.map((x) => x * scale);
    let period = 0, smallest = Infinity;
    for (const x of scaled) {
      period += Math.abs(x);
      if (x !== 0) smallest = Math.min(smallest, Math.abs(x));
    }
    if (!(period > 0) || smallest < tol) return null;
    return { scaled, period };
  }

  /** The scaled dash pattern for a polyline, or null to draw it continuous (no pattern, dashes under the tolerance, too many). */
  function dashPattern(name: string, scale: number, points: readonly number[], closed: boolean): number[] | null {
    const dashes = scaledDashes(name, scale);
    if (!dashes) return null;
    const { scaled, period } = dashes;
    const periods = polylineLength(points, closed) / period;
    const pieces = periods * scaled.length;
    if (periods > 20_000 || pieces > dashBudget) return null;
    dashBudget -= pieces;
    return scaled;
  }

  function omit(e: Entity) {
    out.omitted![e.type] = (out.omitted![e.type] ?? 0) + 1;
  }

  function omitByLayer(e: Entity) {
    omit(e);
    out.layerOmitted = (out.layerOmitted ?? 0) + 1;
  }

  // `ref` is the top-level entity's index: geometry of a block's children is selected as its INSERT
  function emit(e: Entity, m: Affine, inh: Inherited, depth: number, ref: number) {
    if (textPass && !TEXT_SOURCES.has(e.type)) return;
    emitted++;
    // (entities made in code, e.g. a block preview's, may carry no pairs)
    // (counted from the reader's columns: `pairs` would build an array for every entity drawn)
    const codes = e instanceof DxfEntity ? e.pairCount : (e.pairs?.length ?? 1);
    expandedPairs += codes;
    deadline?.tick('flatten', codes);
    const top = depth === 0;
    // block children on layer 0 take the properties of the layer their INSERT is on
    const layerName = e.layer === '0' && depth > 0 ? inh.layer : e.layer;
    if (opts.hiddenLayers?.has(layerName)) return top ? omitByLayer(e) : undefined;
    const layer = layers.get(layerName);
    if (layer && (!layer.on || layer.frozen) && !opts.keepHiddenLayers) return top ? omitByLayer(e) : undefined;
    if (num(e, 60) === 1) return top ? omit(e) : undefined;
    const color = colorOf(e, inh, layerName);
    const lineweight = lineweightOf(e, inh, layerName);
    const lt = linetypeOf(e, inh, layerName);
    if (ref < 0) {
      ref = out.entities.length;
      out.entities.push({ handle: e.handle, type: e.type, layer: e.layer, color, linetype: e.linetype, lineweight: e.lineweight, ...(e.type === 'INSERT' ? { block: String(field(e, 2) ?? '') } : {}) });
    }
    const onLayer = inh.gate ?? layerName;
    const gate = inh.gate ?? (opts.keepHiddenLayers && layer?.frozen ? layerName : undefined);
    // attributes carry their own OCS: they are placed by the transform outside the INSERT's
    const outer = m;
    if (OCS_TYPES.has(e.type)) {
      const ocs = ocsAffine(e, fields);
      if (ocs) m = multiply(m, ocs);
    }
    const c: Ctx = { e, m, color, layer: onLayer, ref, lineweight, lt, ltScale: ltscale * num(e, 48, 1), top, gate };
    switch (e.type) {
      case 'LINE': {
        const pts: number[] = [];
        pushApplied(m, num(e, 10), num(e, 20), pts);
        pushApplied(m, num(e, 11), num(e, 21), pts);
        return stroke(c, pts);
      }
      case 'XLINE':
      case 'RAY': {
        // infinite lines are clipped to the drawing's extents grown by a quarter of their size on every side
        const [bx, by] = apply(m, num(e, 10), num(e, 20));
        const dx = m[0] * num(e, 11, 1) + m[2] * num(e, 21), dy = m[1] * num(e, 11, 1) + m[3] * num(e, 21);
        const seg = clipLine(bx, by, dx, dy, e.type === 'RAY' ? 0 : -Infinity, infiniteBox ?? [bx - 500, by - 500, bx + 500, by + 500]);
        return seg ? stroke(c, seg) : top ? omit(e) : undefined;
      }
      case 'POINT': {
        const [x, y] = apply(m, num(e, 10), num(e, 20));
        return pl(c, [x, y, x, y]);
      }
      case 'CIRCLE': {
        const r = num(e, 40);
        if (curve(c, num(e, 10), num(e, 20), r, 0, 0, r, 0, Math.PI * 2)) return;
        const pts: number[] = [];
        arcPoints(m, num(e, 10), num(e, 20), num(e, 40), 0, Math.PI * 2, pts);
        if (pts.length < 4) return skip(e);
        pts.length -= 2;
        return stroke(c, pts, true);
      }
      case 'ARC': {
        const r = num(e, 40), a0 = (num(e, 50) * Math.PI) / 180;
        let sweep = (num(e, 51) * Math.PI) / 180 - a0;
        if (sweep <= 0) sweep += Math.PI * 2;
        if (curve(c, num(e, 10), num(e, 20), r, 0, 0, r, a0, sweep)) return;
        const pts: number[] = [];
        arcPoints(m, num(e, 10), num(e, 20), num(e, 40), (num(e, 50) * Math.PI) / 180, (num(e, 51) * Math.PI) / 180, pts);
        return stroke(c, pts);
      }
      case 'ELLIPSE': {
        // the minor axis is N × major: an extrusion of (0, 0, −1) runs the ellipse the other way round
        const cx = num(e, 10), cy = num(e, 20), mx = num(e, 11), my = num(e, 21), ratio = num(e, 40, 1) * (num(e, 230, 1) < 0 ? -1 : 1);
        let t0 = num(e, 41), t1 = num(e, 42, Math.PI * 2);
        if (t1 <= t0) t1 += Math.PI * 2;
        if (curve(c, cx, cy, mx, my, -my * ratio, mx * ratio, t0, t1 - t0)) return;
        const major = Math.hypot(mx, my);
        const n = segmentsFor(major * Math.hypot(m[0], m[1]), t1 - t0);
        const pts: number[] = [];
        for (let i = 0; i <= n; i++) {
          const t = t0 + ((t1 - t0) * i) / n;
          const cos = Math.cos(t), sin = Math.sin(t);
          pts.push(...apply(m, cx + mx * cos - my * ratio * sin, cy + my * cos + mx * ratio * sin));
        }
        const full = Math.abs(t1 - t0 - Math.PI * 2) < 1e-9;
        if (pts.length < 4) return skip(e);
        if (full) pts.length -= 2;
        return stroke(c, pts, full);
      }
      case 'LWPOLYLINE': {
        const w = num(e, 43);
        const verts: Vertex[] = [];
        // read from the index (no `pairs` array built), by position: no pair tuple per vertex
        const f = fields.use(e);
        for (let k = 0; k < f.count; k++) {
          const code = f.codeAt(k), v = f.valueAt(k);
          if (code === 10) verts.push({ x: Number(v), y: 0, b: 0, sw: w, ew: w });
          else if (verts.length) {
            const last = verts[verts.length - 1];
            if (code === 20) last.y = Number(v);
            else if (code === 42) last.b = Number(v);
            else if (code === 40) last.sw = Number(v);
            else if (code === 41) last.ew = Number(v);
          }
        }
        const flags = num(e, 70);
        return polyFrom(c, verts, (flags & 1) === 1, (flags & 128) !== 0);
      }
      case 'POLYLINE': {
        const flags = num(e, 70);
        const all = (e.children ?? []).filter((v) => v.type === 'VERTEX');
        if (flags & 64) return polyface(c, all);
        if (flags & 16) return polygonMesh(c, all, flags);
        // spline-fit polylines draw their fitted vertices, not the frame (vertex flag 16)
        const verts = all.filter((v) => !(num(v, 70) & 16));
        if (flags & 8) return stroke(c, verts.flatMap((v) => apply(m, num(v, 10), num(v, 20))), (flags & 1) === 1);
        const sw = num(e, 40), ew = num(e, 41);
        return polyFrom(c, verts.map((v) => ({ x: num(v, 10), y: num(v, 20), b: num(v, 42), sw: num(v, 40, sw), ew: num(v, 41, ew) })), (flags & 1) === 1, (flags & 128) !== 0);
      }
      case 'SPLINE': {
        const knots: number[] = [], weights: number[] = [], ctrl: number[] = [], fit: number[] = [];
        let st: [number, number] | undefined, et: [number, number] | undefined;
        const p = e.pairs;
        const sub = p.findIndex((q) => q[0] === 100 && q[1] === 'AcDbSpline');
        for (let i = sub < 0 ? 0 : sub; i < p.length; i++) {
          const [code, v] = p[i];
          const y = p[i + 1]?.[0] === code + 10 ? Number(p[i + 1][1]) : 0;
          if (code === 40) knots.push(Number(v));
          else if (code === 41) weights.push(Number(v));
          else if (code === 10) ctrl.push(Number(v), y);
          else if (code === 11) fit.push(Number(v), y);
          else if (code === 12) st = [Number(v), y];
          else if (code === 13) et = [Number(v), y];
        }
        const local = tol / scaleOf(m);
        // a degree no CAD program writes costs degree² per point: its control polygon stands in (reported)
        if (ctrl.length >= 4 && num(e, 71, 3) > MAX_SPLINE_DEGREE) skip(e, 'SPLINE:simplified');
        const pts = ctrl.length >= 4 ? tessellateNurbs(num(e, 71, 3), knots, ctrl, weights.length ? weights : undefined, local) : fit.length >= 4 ? fitPointCurve(fit, local, st, et) : null;
        if (!pts) return skip(e);
        const closed = (num(e, 70) & 1) === 1;
        if (closed && pts.length > 4 && Math.hypot(pts[0] - pts[pts.length - 2], pts[1] - pts[pts.length - 1]) < local) pts.length -= 2;
        return stroke(c, applyAll(m, pts), closed);
      }
      case 'SOLID':
      case 'TRACE':
      case '3DFACE': {
        const p = [0, 1, 2, 3].map((i) => apply(m, num(e, 10 + i), num(e, 20 + i)));
        // SOLID and TRACE store their corners in Z order: the third and fourth swap
        if (e.type !== '3DFACE') return pl(c, [p[0], p[1], p[3], p[2]].flat(), true, true);
        const hidden = num(e, 70) & 15;
        if (!hidden) return stroke(c, p.flat(), true);
        // 3DFACE edges flagged invisible (70 bits 1, 2, 4, 8) are left out
        for (let i = 0; i < 4; i++) if (!(hidden & (1 << i))) stroke(c, [...p[i], ...p[(i + 1) % 4]]);
        return;
      }
      case 'ATTDEF':
      case 'TEXT':
      case 'ATTRIB':
      case 'MTEXT': {
        const mtext = e.type === 'MTEXT';
        const attr = e.type === 'ATTRIB' || e.type === 'ATTDEF';
        // invisible attributes (70 bit 1) never show; inside a block only constant ATTDEFs (bit 2) draw, with their value
        if (attr && num(e, 70) & 1 && !(e.type === 'ATTDEF' && top)) return top ? omit(e) : undefined;
        if (e.type === 'ATTDEF' && !top && !(num(e, 70) & 2)) return;
        // a long MTEXT comes as 250-character chunks in code 3, then the last part in code 1
        const raw = mtext ? mtextChunks(e) + String(field(e, 1) ?? '') : String(field(e, e.type === 'ATTDEF' && top ? 2 : 1) ?? '');
        const s = mtext ? plainMText(raw) : raw;
        if (!s) return top ? omit(e) : undefined;
        const valign = attr ? num(e, 74) : num(e, 73);
        // aligned TEXT is placed by its second alignment point (11/21)
        const aligned = !mtext && (num(e, 72) !== 0 || valign !== 0) && field(e, 11) !== undefined;
        let rotation = num(e, 50);
        let flipped: boolean | undefined;
        if (mtext) [rotation, flipped] = mtextDirection(e);
        const style = String(field(e, 7) ?? 'Standard');
        const st = styles.get(style.toLowerCase());
        const sx = Math.hypot(m[0], m[1]), sy = Math.hypot(m[2], m[3]);
        text(c, num(e, aligned ? 11 : 10), num(e, aligned ? 21 : 20), num(e, 40, 1), rotation, s, mtext ? 'mtext' : 'text', {
          raw: mtext ? raw : undefined, style, halign: mtext ? 0 : num(e, 72), valign: mtext ? 0 : valign, attachment: mtext ? num(e, 71, 1) : undefined,
          widthFactor: (mtext ? 1 : num(e, 41, st?.widthFactor || 1)) * (sy ? sx / sy : 1), oblique: mtext ? 0 : num(e, 51, st?.oblique ?? 0),
          boxWidth: mtext ? num(e, 41) * sx : undefined,
          ...(flipped !== undefined ? { mirrored: flipped !== m[0] * m[3] - m[1] * m[2] < 0 || undefined } : {}),
          // AutoCAD 2018+ text frame (90 bit 16): at the background border, (45 fill box scale − 1) heights out (as ezdxf)
          ...(mtext && num(e, 90) & 16 ? { frame: Math.max(0, num(e, 45, 1.5) - 1) * num(e, 40, 1) * sy } : {}),
        });
        return;
      }
      case 'INSERT': {
        const block = blocks.get(String(field(e, 2) ?? ''));
        if (!block || depth > 16) return skip(e);
        const inherit = inheritedFrom(c);
        // nested arrays can multiply without bound: past the budget an INSERT is counted instead of expanded
        if (overExpanded()) return skip(e, 'INSERT:limit');
        const before = { p: out.polylines.length + (out.curves?.length ?? 0), t: out.texts.length, s: skippedCount() };
        const sx = num(e, 41, 1), sy = num(e, 42, 1), rot = (num(e, 50) * Math.PI) / 180;
        const cols = Math.max(1, num(e, 70, 1)), rows = Math.max(1, num(e, 71, 1)), dc = num(e, 44), dr = num(e, 45);
        const cos = Math.cos(rot), sin = Math.sin(rot);
        // arrays beyond 100 × 100 are cut there, and the report says so
        if (rows > 100 || cols > 100) skip(e, 'INSERT:limit');
        const cells: Affine[] = [];
        for (let row = 0; row < rows && row < 100; row++) {
          for (let col = 0; col < cols && col < 100; col++) {
            const ox = col * dc, oy = row * dr;
            const tx = num(e, 10) + ox * cos - oy * sin;
            const ty = num(e, 20) + ox * sin + oy * cos;
            const local: Affine = multiply([cos, sin, -sin, cos, tx, ty], [sx, 0, 0, sy, -block.base.x * sx, -block.base.y * sy]);
            cells.push(multiply(m, local));
          }
        }
        // a top-level INSERT may be drawn as instances of its block's mesh (block-instances.ts); null: baked here
        // (not one on a frozen layer kept for the viewer: its children are switched with it, which a shared mesh cannot say)
        const instanced = top && instancer && !gate ? instancer.insert(e, block, cells, sx, sy, inherit, ref) : null;
        if (instanced === null) {
          for (let k = 0; k < cells.length; k++) {
            // an array of a heavy block passes the bounds within its cells: the rest are counted
            if (k > 0 && overExpanded()) {
              skip(e, 'INSERT:limit');
              break;
            }
            for (let j = 0; j < block.entities.length; j++) emit(block.entities[j], cells[k], inherit, depth + 1, ref);
          }
        }
        // attributes are in the INSERT's own coordinates (its OCS), not the block's
        for (const a of e.children ?? []) if (a.type === 'ATTRIB') emit(a, outer, inherit, depth + 1, ref);
        // an empty block (or one of ATTDEFs only) draws nothing, on purpose
        if (top && !instanced && out.polylines.length + (out.curves?.length ?? 0) === before.p && out.texts.length === before.t && skippedCount() === before.s) omit(e);
        return;
      }
      case 'ACAD_TABLE': {
        // a table draws through its anonymous block, placed at its insertion point along its direction (11/21)
        // LibreDWG gives R2010+ tables without their fields (no block name, no insertion point); the DWG reader places
        // them from their own graphics where it can (dwg-reader.ts). One still without a point is left out and
        // reported: drawn at the origin, it lands in the wrong place among the rest of the drawing
        if (field(e, 10) === undefined) return skip(e, 'ACAD_TABLE:position');
        const named = field(e, 2);
        const block = named !== undefined && String(named) !== '' ? blocks.get(String(named)) : orphanTableBlock();
        if (!block || depth > 16) return skip(e);
        const a = Math.atan2(num(e, 21), num(e, 11, 1)), cos = Math.cos(a), sin = Math.sin(a);
        const inherit = inheritedFrom(c);
        const mm = multiply(m, [cos, sin, -sin, cos, num(e, 10) - (block.base.x * cos - block.base.y * sin), num(e, 20) - (block.base.x * sin + block.base.y * cos)]);
        for (const child of block.entities) emit(child, mm, inherit, depth + 1, ref);
        return;
      }
      case 'DIMENSION':
      case 'ARC_DIMENSION':
      case 'LARGE_RADIAL_DIMENSION': {
        // a dimension draws through its anonymous block; a DIMENSION saved without it is generated from its points.
        // The block sits at the dimension's insertion point (12/22), as ezdxf places it: (0, 0) in most files, but
        // R12-era drawings keep the block where the dimension was first drawn and move only that point
        const block = blocks.get(String(field(e, 2) ?? ''));
        if (block && depth <= 16) {
          const at = e.type === 'DIMENSION' && (num(e, 12) || num(e, 22)) ? multiply(m, [1, 0, 0, 1, num(e, 12), num(e, 22)]) : m;
          const inherit = inheritedFrom(c);
          for (const child of block.entities) emit(child, at, inherit, depth + 1, ref);
          return;
        }
        return e.type === 'DIMENSION' ? annotation(c, generateDimension(e, vars, dimStyleOf(e)), depth) : skip(e);
      }
      case 'OLE2FRAME': {
        // the embedded object itself is not readable: its frame (10 upper left, 11 lower right) stands in
        const [x0, y0] = [num(e, 10), num(e, 20)], [x1, y1] = [num(e, 11), num(e, 21)];
        return pl(c, applyAll(m, [x0, y0, x1, y0, x1, y1, x0, y1]), true);
      }
      case 'LIGHT':
        // lights light renders, they are not drawn in 2D views or plots
        return top ? omit(e) : undefined;
      case 'LEADER':
        return annotation(c, leaderGeometry(e, vars, tol / scaleOf(m), dimStyleOf(e)), depth);
      case 'MULTILEADER':
      case 'MLEADER': {
        const ml = multiLeaderGeometry(e, tol / scaleOf(m), d.mleaderStyles);
        // the leader lines' colour and lineweight, the text's colour and style: the entity's or its MLEADERSTYLE's
        const lines = { ...c, color: mleaderColor(c, ml.lineColor), lineweight: ml.lineweight === undefined ? c.lineweight : lineweightOf({ lineweight: ml.lineweight } as Entity, inheritedFrom(c), c.layer) };
        annotation(lines, ml);
        if (ml.mtext) {
          const t = ml.mtext;
          const style = ml.textStyle ? textStyleByHandle(ml.textStyle) : undefined;
          text({ ...c, color: mleaderColor(c, ml.textColor) }, t.x, t.y, t.height, t.rotation, plainMText(t.raw), 'mtext', { raw: t.raw, attachment: t.attachment, boxWidth: t.width * Math.hypot(m[0], m[1]), widthFactor: 1, ...(style ? { style } : {}), ...(t.frame !== undefined ? { frame: t.frame * Math.hypot(m[0], m[1]) } : {}) });
        }
        let drewBlock = false;
        if (ml.hasBlock) {
          // the block content is placed like an INSERT; its block is known by its BLOCK_RECORD handle, which is the
          // owner (330) of the block's entities
          const b = ml.block && blockByRecord().get(ml.block.record);
          if (b && depth <= 16) {
            drewBlock = true;
            const { x, y, sx, sy, rotation } = ml.block!;
            const cos = Math.cos(rotation), sin = Math.sin(rotation);
            const mm = multiply(m, multiply([cos, sin, -sin, cos, x, y], [sx, 0, 0, sy, -b.base.x * sx, -b.base.y * sy]));
            const inherit = inheritedFrom(c);
            for (const child of b.entities) emit(child, mm, inherit, depth + 1, ref);
          } else skip(e, 'MULTILEADER:block');
        }
        if (!ml.lines.length && !ml.mtext && !drewBlock) return skip(e);
        return;
      }
      case 'MLINE': {
        const { elements, closed } = mlineElements(e);
        if (!elements.length) return skip(e);
        for (const el of elements) stroke(c, applyAll(m, el), closed);
        return;
      }
      case 'HATCH':
        return hatch(c);
      case 'MESH':
        return mesh(c);
      case 'REGION':
      case '3DSOLID':
      case 'BODY':
      case 'SURFACE':
      case 'PLANESURFACE':
      case 'EXTRUDEDSURFACE':
      case 'LOFTEDSURFACE':
      case 'REVOLVEDSURFACE':
      case 'SWEPTSURFACE':
      case 'NURBSURFACE': {
        // ACIS models as their edges seen from above (acis/): AutoCAD's 2D wireframe of them
        const edges = acisWireframe(e, d, tol / scaleOf(m));
        if (!edges) return skip(e);
        for (const edge of edges) stroke(c, applyAll(m, edge));
        return;
      }
      case 'IMAGE':
      case 'WIPEOUT': {
        const f = imageFrame(e);
        const corners = applyAll(m, f.corners);
        const clip = f.clip && applyAll(m, f.clip);
        (out.images ??= []).push({ entity: ref, corners, clip, imageDefHandle: e.type === 'IMAGE' ? field(e, 340)?.toString() : undefined, wipeout: e.type === 'WIPEOUT' || undefined, layer: c.layer, order: out.polylines.length, adjust: imageAdjust(e) });
        return pl(c, clip ?? corners, true);
      }
      case 'VIEWPORT':
        // drawn by the paper layout (its frame and the model inside), never by the entity list itself
        return top ? omit(e) : undefined;
      case 'SEQEND':
        return;
      default:
        // TOLERANCE, SHAPE, underlays, OLE objects …: counted, reported
        return skip(e);
    }

  }

  /**
   * With `opts.curves`, the arc P(t) = (cx, cy) + (ux, uy) cos t + (vx, vy) sin t in the entity's frame, mapped by
   * its transform, kept exact in `out.curves`; false (draw it as a polyline) when its linetype dashes it. A negative
   * sweep (clockwise) is stored as the same arc run forwards.
   */
  /**
   * With `opts.curves`: a circle, arc or elliptical arc as an exact curve, or in a dashed linetype as its dashes,
   * each an exact sub-curve (the pattern walked along the true arc length from the start parameter, as a baked
   * arc is walked from its first point), and its dots. Callers only pass positive sweeps when the linetype dashes.
   */
  function curve(c: Ctx, cx: number, cy: number, ux: number, uy: number, vx: number, vy: number, t0: number, sweep: number): boolean {
    if (!opts.curves) return false;
    if (sweep < 0) {
      t0 += sweep;
      sweep = -sweep;
    }
    sweep = Math.min(sweep, Math.PI * 2);
    // transformCurve of the arc written out: one object per curve, not a literal and its transformed copy
    const m = c.m;
    const g: Curve2 = {
      cx: m[0] * cx + m[2] * cy + m[4], cy: m[1] * cx + m[3] * cy + m[5], ux: m[0] * ux + m[2] * uy, uy: m[1] * ux + m[3] * uy, vx: m[0] * vx + m[2] * vy, vy: m[1] * vx + m[3] * vy,
      t0, sweep, color: c.color, layer: c.layer, entity: c.ref, lineweight: c.lineweight,
    };
    if (!finiteCurve(g)) {
      skip(c.e, `${c.e.type}:invalid`);
      return true;
    }
    if (primitives >= maxPrimitives) {
      skip(c.e, `${c.e.type}:limit`);
      return true;
    }
    // its dashes copy the draw position (each is the curve with another t0 and sweep); dots are polylines after it
    if (ordered) g.at = out.polylines.length;
    const dashes = scaledDashes(c.lt, (c.ltScale * scaleOf(c.m)) / viewportLtScale);
    const cut = dashes && dashCurve(g, dashes.scaled, dashes.period, dashBudget);
    if (!cut) {
      // continuous, or more dashes than the drawing's budget allows (as dashPattern: then drawn continuous)
      (out.curves ??= []).push(g);
      primitives++;
      return true;
    }
    dashBudget -= cut.pieces;
    primitives += cut.dashes.length + cut.dots.length / 2;
    if (cut.dashes.length) (out.curves ??= []).push(...cut.dashes);
    for (let i = 0; i < cut.dots.length; i += 2) pl(c, [cut.dots[i], cut.dots[i + 1], cut.dots[i], cut.dots[i + 1]]);
    return true;
  }

  function pl(c: Ctx, points: number[], closed = false, filled = false, holes?: number[][], color = c.color) {
    // damaged numbers (NaN, ±Infinity, an empty tessellation) never reach the renderers: counted instead
    let finite = points.length >= 2;
    for (let i = 0; finite && i < points.length; i++) finite = Number.isFinite(points[i]);
    if (!finite) return skip(c.e, `${c.e.type}:invalid`);
    if (primitives + (points.length >> 1) > maxPrimitives) return skip(c.e, `${c.e.type}:limit`);
    primitives += points.length >> 1;
    const p: Polyline2 = { points, closed, color, layer: c.layer, filled, entity: c.ref, lineweight: c.lineweight };
    if (holes?.length) p.holes = holes;
    if (filled && color === WHITE && points.length >= 6) whiteMask(c, points, holes);
    out.polylines.push(p);
  }

  /**
   * A white fill hides what lies under it (in the plot a white solid hatch is paper-white over earlier lines), whereas
   * a renderer that draws fills and lines in separate passes (the viewer) would let the lines show through: the fill
   * goes in as a wipeout just before itself, so every renderer masks it with the background by the same draw-order
   * rules (scene/tiers.ts), and then paints it white (visible on a dark screen).
   */
  function whiteMask(c: Ctx, ring: number[], holes?: number[][]) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i + 1 < ring.length; i += 2) {
      x0 = Math.min(x0, ring[i]);
      x1 = Math.max(x1, ring[i]);
      y0 = Math.min(y0, ring[i + 1]);
      y1 = Math.max(y1, ring[i + 1]);
    }
    const frame: ImageFrame = { entity: c.ref, corners: [x0, y0, x1, y0, x1, y1, x0, y1], clip: ring, wipeout: true, layer: c.layer, order: out.polylines.length };
    if (holes?.length) frame.holes = holes;
    (out.images ??= []).push(frame);
  }

  /** a line in the entity's linetype: cut into dashes, restarting the pattern at `restart` point indices */
  function stroke(c: Ctx, points: number[], closed = false, restart?: Set<number>) {
    const pattern = dashPattern(c.lt, (c.ltScale * scaleOf(c.m)) / viewportLtScale, points, closed);
    if (!pattern) return pl(c, points, closed);
    for (const piece of dashPolyline(points, closed, pattern, restart)) pl(c, piece);
  }

  function text(c: Ctx, x: number, y: number, height: number, rotation: number, s: string, kind: 'text' | 'mtext', extra: Partial<TextRun> = {}) {
    const m = c.m;
    const [px, py] = apply(m, x, y);
    const sx = Math.hypot(m[0], m[1]), sy = Math.hypot(m[2], m[3]);
    const det = m[0] * m[3] - m[1] * m[2];
    if (!Number.isFinite(px) || !Number.isFinite(py) || !Number.isFinite(height * sy)) return skip(c.e, `${c.e.type}:invalid`);
    // each character becomes a glyph placement or strokes: a block of long texts in an array multiplies them
    if (primitives + s.length > maxPrimitives) return skip(c.e, `${c.e.type}:limit`);
    primitives += s.length;
    const run: TextRun = {
      x: px, y: py, height: height * sy, rotation: rotation + (Math.atan2(m[1], m[0]) * 180) / Math.PI, text: s, color: c.color, layer: c.layer, entity: c.ref, kind,
      style: 'Standard', halign: 0, valign: 0, widthFactor: sy ? sx / sy : 1, oblique: 0, mirrored: det < 0 || undefined, ...extra,
    };
    if (ordered) run.at = out.polylines.length;
    out.texts.push(run);
  }

  /** The DIMSTYLE record a DIMENSION or LEADER names (3), else the drawing's current one ($DIMSTYLE). */
  function dimStyleOf(e: Entity): DimStylePairs | undefined {
    if (!dimStyles) dimStyles = new Map((d.dimStyles ?? []).map((s) => [s.name.toLowerCase(), s.pairs]));
    return dimStyles.get(String(field(e, 3) ?? vars.$DIMSTYLE ?? 'Standard').toLowerCase());
  }

  function annotation(c: Ctx, a: Annotation, depth = 0) {
    // DIMCLRD (lines, arrowheads), DIMCLRE (extension lines), DIMCLRT (text): ByBlock is the entity's own colour, as
    // for the entities of a dimension's block
    const coloured = (aci: number | undefined): Ctx => {
      if (aci === undefined || aci === 0) return c;
      const color = aci === 256 ? colorOf({ color: 256 } as Entity, inheritedFrom(c), c.layer) : aciToRgb(Math.abs(aci) || 7);
      return { ...c, color };
    };
    // extension lines first: the order the dimension's lines were always drawn in
    if (a.extensionLines?.length) {
      const ext = coloured(a.extensionColor);
      for (const l of a.extensionLines) pl(ext, applyAll(c.m, l));
    }
    const lines = coloured(a.color);
    for (const l of a.lines) pl(lines, applyAll(c.m, l));
    for (const s of a.solids) pl(lines, applyAll(c.m, s), true, true);
    for (const arrow of a.arrows ?? []) arrowBlock(lines, arrow, depth);
    const texts = coloured(a.textColor);
    for (const t of a.texts) text(texts, t.x, t.y, t.height, t.rotation, t.text, 'mtext', { raw: t.text, attachment: t.attachment, boxWidth: 0, widthFactor: 1 });
  }

  function hatch(c: Ctx) {
    const { e, m, color } = c;
    const sc = scaleOf(m);
    const h = readHatch(fields.use(e), tol / sc);
    if (!h.loops.length) return skip(e);
    if (h.solid || h.gradient) {
      let outer = 0;
      for (let i = 1; i < h.loops.length; i++) if (Math.abs(ringArea(h.loops[i])) > Math.abs(ringArea(h.loops[outer]))) outer = i;
      // a gradient as bands of solid colour in the hatch's own plane (geometry/gradient.ts), each drawn as a fill
      const g = h.gradient ? readGradient(e, color) : null;
      const bands = g ? gradientBands(g, h.loops[outer], h.loops.filter((_, i) => i !== outer)) : [];
      if (bands.length) {
        for (const b of bands) pl(c, applyAll(m, b.ring), true, true, b.holes.map((r) => applyAll(m, r)), b.color);
        return;
      }
      const fill = h.gradientColor === undefined ? color : h.gradientColor < 0 ? aciToRgb(-h.gradientColor) : trueColorRgb(h.gradientColor);
      const holes = h.loops.filter((_, i) => i !== outer).map((r) => applyAll(m, r));
      return pl(c, applyAll(m, h.loops[outer]), true, true, holes, fill);
    }
    // a pattern's work is checked against the deadline hatch by hatch (one may take tens of ms)
    deadline?.check('flatten');
    const segments = h.lines.length ? clipPattern(h.loops, h.lines, Math.min(hatchCap, hatchBudget), hatchWork) : null;
    if (segments) hatchBudget -= segments.length / 4;
    if (!segments) {
      // too dense or no pattern definition: the boundary stands in for the pattern, and the report says so
      out.skipped['HATCH:pattern'] = (out.skipped['HATCH:pattern'] ?? 0) + 1;
      for (const r of h.loops) pl(c, applyAll(m, r), true);
      return;
    }
    const made = segments.length;
    if (opts.segmentLists) {
      // one polyline for all of them, placed in the list itself (it is ours: no second array); a segment with damaged
      // numbers is counted and left out, as `pl` does
      let w = 0;
      for (let k = 0; k < made; k += 4) {
        const x0 = segments[k], y0 = segments[k + 1], x1 = segments[k + 2], y1 = segments[k + 3];
        const a = m[0] * x0 + m[2] * y0 + m[4], b = m[1] * x0 + m[3] * y0 + m[5], c2 = m[0] * x1 + m[2] * y1 + m[4], d2 = m[1] * x1 + m[3] * y1 + m[5];
        if (Number.isFinite(a) && Number.isFinite(b) && Number.isFinite(c2) && Number.isFinite(d2)) {
          segments[w++] = a;
          segments[w++] = b;
          segments[w++] = c2;
          segments[w++] = d2;
        } else skip(e, 'HATCH:invalid');
      }
      segments.length = w;
      if (primitives + (w >> 1) > maxPrimitives) return skip(e, 'HATCH:limit');
      primitives += w >> 1;
      if (w) out.polylines.push({ points: segments, closed: false, color, layer: c.layer, filled: false, entity: c.ref, lineweight: c.lineweight, segments: true });
    } else {
      // each segment placed straight from the flat list (x0 y0 x1 y1 …): no copy of it first
      for (let k = 0; k < segments.length; k += 4) {
        const x0 = segments[k], y0 = segments[k + 1], x1 = segments[k + 2], y1 = segments[k + 3];
        pl(c, [m[0] * x0 + m[2] * y0 + m[4], m[1] * x0 + m[3] * y0 + m[5], m[0] * x1 + m[2] * y1 + m[4], m[1] * x1 + m[3] * y1 + m[5]]);
      }
    }
    // a pattern whose lines all pass by a small area draws nothing, as in AutoCAD
    if (!made && c.top) omit(c.e);
  }

  function polyFrom(c: Ctx, verts: Vertex[], closed: boolean, continuousPattern: boolean) {
    const m = c.m;
    if (!verts.length) return;
    if (verts.some((v) => v.sw > 0 || v.ew > 0) && wide(c, verts, closed)) return;
    if (verts.some((v) => v.b) && bulgeCurves(c, verts, closed)) return;
    const pts: number[] = [];
    pushApplied(m, verts[0].x, verts[0].y, pts);
    // without 70 bit 128 the linetype pattern starts again at every vertex
    const restart = continuousPattern ? undefined : new Set<number>([0]);
    for (let i = 1; i < verts.length; i++) {
      bulgeSegment(m, verts[i - 1].x, verts[i - 1].y, verts[i].x, verts[i].y, verts[i - 1].b, pts);
      restart?.add(pts.length / 2 - 1);
    }
    if (closed && verts.length > 1) {
      const last = verts[verts.length - 1];
      bulgeSegment(m, last.x, last.y, verts[0].x, verts[0].y, last.b, pts);
      pts.length -= 2; // the closing point is implied by `closed`
    }
    stroke(c, pts, closed, restart);
  }

  /**
   * With `opts.curves` and a continuous linetype: the straight runs of a bulged polyline as polylines, its bulge arcs
   * as curves. False when the linetype dashes it (the whole polyline is then cut into dashes).
   */
  function bulgeCurves(c: Ctx, verts: Vertex[], closed: boolean): boolean {
    const m = c.m;
    if (!opts.curves || scaledDashes(c.lt, (c.ltScale * scaleOf(m)) / viewportLtScale)) return false;
    // the straight run so far, drawn at each arc and at the end (written out there: no closure per polyline)
    let run: number[] = [];
    const n = closed && verts.length > 1 ? verts.length : verts.length - 1;
    if (verts.length === 1) pl(c, apply(m, verts[0].x, verts[0].y));
    for (let i = 0; i < n; i++) {
      const a = verts[i], b = verts[(i + 1) % verts.length];
      const chord = Math.hypot(b.x - a.x, b.y - a.y);
      if (!a.b || !chord) {
        if (!run.length) pushApplied(m, a.x, a.y, run);
        pushApplied(m, b.x, b.y, run);
        continue;
      }
      if (run.length >= 4) pl(c, run);
      run = [];
      // the arc's centre and start angle, as bulgeInterior finds them
      const theta = 4 * Math.atan(a.b);
      const r = chord / (2 * Math.sin(theta / 2));
      const h = r * Math.cos(theta / 2);
      const cx = (a.x + b.x) / 2 - ((b.y - a.y) / chord) * h, cy = (a.y + b.y) / 2 + ((b.x - a.x) / chord) * h;
      const ar = Math.abs(r);
      curve(c, cx, cy, ar, 0, 0, ar, Math.atan2(a.y - cy, a.x - cx), theta);
    }
    if (run.length >= 4) pl(c, run);
    return true;
  }

  /**
   * A polyline with widths: each segment becomes a filled band (quad, or ring along an arc) whose width runs
   * from the segment's start width to its end width. Joints are not mitred. False when every width is under the
   * tolerance, so the caller draws a plain line.
   */
  function wide(c: Ctx, verts: Vertex[], closed: boolean): boolean {
    const m = c.m;
    const sc = scaleOf(m);
    if (verts.every((v) => Math.max(v.sw, v.ew) * sc < tol)) return false;
    const n = closed ? verts.length : verts.length - 1;
    let prevEnd: number[] | null = null, firstStart: number[] | null = null;
    for (let i = 0; i < n; i++) {
      const a = verts[i], b = verts[(i + 1) % verts.length];
      const line: number[] = [a.x, a.y];
      if (a.b) bulgeInterior(a.x, a.y, b.x, b.y, a.b, tol / sc, line);
      line.push(b.x, b.y);
      const count = line.length / 2;
      let total = 0;
      const along = [0];
      for (let k = 1; k < count; k++) along.push((total += Math.hypot(line[2 * k] - line[2 * k - 2], line[2 * k + 1] - line[2 * k - 1])));
      if (!(total > 0)) continue;
      const left: number[] = [], right: number[] = [];
      for (let k = 0; k < count; k++) {
        const k0 = Math.max(0, k - 1), k1 = Math.min(count - 1, k + 1);
        const tx = line[2 * k1] - line[2 * k0], ty = line[2 * k1 + 1] - line[2 * k0 + 1];
        const tl = Math.hypot(tx, ty) || 1;
        const half = (a.sw + (a.ew - a.sw) * (along[k] / total)) / 2;
        left.push(line[2 * k] - (ty / tl) * half, line[2 * k + 1] + (tx / tl) * half);
        right.push(line[2 * k] + (ty / tl) * half, line[2 * k + 1] - (tx / tl) * half);
      }
      const ring = [...left];
      for (let k = count - 1; k >= 0; k--) ring.push(right[2 * k], right[2 * k + 1]);
      pl(c, applyAll(m, ring), true, true);
      // a bevel fills the notch between this band and the previous one at their shared vertex
      const first = [left[0], left[1], right[0], right[1]];
      if (prevEnd && a.sw > 0) joint(a.x, a.y, prevEnd, first);
      prevEnd = a.ew > 0 || b.sw > 0 ? [left[2 * count - 2], left[2 * count - 1], right[2 * count - 2], right[2 * count - 1]] : null;
      if (i === 0) firstStart = first;
      if (closed && i === n - 1 && prevEnd && firstStart && verts[0].sw > 0) joint(b.x, b.y, prevEnd, firstStart);
    }
    return true;

    function joint(x: number, y: number, end: number[], start: number[]) {
      pl(c, applyAll(m, [x, y, end[0], end[1], start[0], start[1]]), true, true);
      pl(c, applyAll(m, [x, y, end[2], end[3], start[2], start[3]]), true, true);
    }
  }

  /** Polyface mesh: location vertices (flags 64 + 128), then face records (128) whose 71–74 index them from 1; a negative index hides the edge that starts there. */
  function polyface(c: Ctx, all: Entity[]) {
    const m = c.m;
    const locs: [number, number][] = [];
    const seen = new Set<string>();
    for (const v of all) {
      const f = num(v, 70);
      if (f & 64) {
        locs.push(apply(m, num(v, 10), num(v, 20)));
        continue;
      }
      const idx = [71, 72, 73, 74].map((code) => num(v, code)).filter((i) => i !== 0);
      for (let k = 0; k < idx.length; k++) {
        const a = idx[k], b = idx[(k + 1) % idx.length];
        if (a < 0) continue;
        const pa = locs[Math.abs(a) - 1], pb = locs[Math.abs(b) - 1];
        if (!pa || !pb) continue;
        const key = Math.abs(a) < Math.abs(b) ? `${Math.abs(a)}/${Math.abs(b)}` : `${Math.abs(b)}/${Math.abs(a)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        stroke(c, [...pa, ...pb]);
      }
    }
  }

  /** Polygon mesh: M × N vertices (71, 72), drawn as M lines of N points and N lines of M; 70 bits 1 and 32 close them. */
  function polygonMesh(c: Ctx, all: Entity[], flags: number) {
    const { e, m } = c;
    const M = num(e, 71), N = num(e, 72);
    const p = all.map((v) => apply(m, num(v, 10), num(v, 20)));
    if (M < 1 || N < 1 || p.length < M * N) return skip(e);
    for (let i = 0; i < M; i++) stroke(c, p.slice(i * N, i * N + N).flat(), (flags & 32) !== 0);
    for (let j = 0; j < N; j++) stroke(c, Array.from({ length: M }, (_, i) => p[i * N + j]).flat(), (flags & 1) !== 0);
  }

  /**
   * MESH (subdivision mesh) seen from above: its edge list (94), or the edges of its faces (93) when it has none;
   * the subdivision itself is not computed (level 0 cage).
   */
  function mesh(c: Ctx) {
    const { e, m } = c;
    const p = e.pairs;
    // the count follows the subclass marker (AcDbEntity may carry a 92 of its own: the proxy graphics size)
    const sub = p.findIndex((q) => q[0] === 100 && q[1] === 'AcDbSubDMesh');
    let i = p.findIndex((q, k) => q[0] === 92 && k > sub);
    if (i < 0) return skip(e);
    const nv = Number(p[i++][1]);
    const verts: [number, number][] = [];
    for (; i < p.length && verts.length < nv && p[i][0] === 10; i++) {
      verts.push(apply(m, Number(p[i][1]), p[i + 1]?.[0] === 20 ? Number(p[i + 1][1]) : 0));
      while (p[i + 1] && (p[i + 1][0] === 20 || p[i + 1][0] === 30)) i++;
    }
    const list = (code: number): number[] => {
      if (p[i]?.[0] !== code) return [];
      const n = Number(p[i++][1]) * (code === 94 ? 2 : 1);
      const r: number[] = [];
      while (r.length < n && p[i]?.[0] === 90) r.push(Number(p[i++][1]));
      return r;
    };
    const faces = list(93);
    let edges = list(94);
    if (!edges.length) {
      edges = [];
      // each face: its size, then that many vertex indices (a size running past the list ends it)
      for (let k = 0; k < faces.length; k += faces[k] + 1) {
        const size = faces[k];
        if (!(size > 0) || !Number.isInteger(size) || k + size >= faces.length) break;
        for (let j = 0; j < size; j++) edges.push(faces[k + 1 + j], faces[k + 1 + ((j + 1) % size)]);
      }
    }
    const seen = new Set<number>();
    for (let k = 0; k + 1 < edges.length; k += 2) {
      const a = edges[k], b = edges[k + 1];
      const key = Math.min(a, b) * 1e7 + Math.max(a, b);
      if (!verts[a] || !verts[b] || seen.has(key)) continue;
      seen.add(key);
      stroke(c, [...verts[a], ...verts[b]]);
    }
    if (!seen.size) skip(e);
  }

  /**
   * The next anonymous table block (*T…) that no INSERT, table or dimension names, for a table that comes without
   * its block name (LibreDWG's DXF of R2010+ DWG tables): the drawing's unnamed tables take them in block order.
   */
  function orphanTableBlock(): Block | undefined {
    if (!orphanTables) {
      const named = new Set<string>();
      const visit = (list: readonly Entity[]) => {
        for (const x of list) {
          const n = x.type === 'INSERT' || x.type === 'ACAD_TABLE' || x.type.endsWith('DIMENSION') ? fields.first(x, 2) : undefined;
          if (n !== undefined) named.add(String(n));
        }
      };
      visit(d.entities);
      for (const b of d.blocks) visit(b.entities);
      orphanTables = d.blocks.filter((b) => /^\*T\d*$/i.test(b.name) && !named.has(b.name));
    }
    return orphanTables.shift();
  }

  /**
   * An arrowhead drawn by its block (DIMLDRBLK, DIMBLK …): the drawing's block of that BLOCK_RECORD handle or name,
   * inserted at the tip, turned to point along the arrow and scaled by the arrow size (ezdxf does the same); AutoCAD's
   * named arrows the file holds no block for are drawn from their definitions, anything else as the closed filled arrow.
   */
  function arrowBlock(c: Ctx, a: NonNullable<Annotation['arrows']>[number], depth: number) {
    const b = blockByRecord().get(a.block) ?? blocks.get(a.block) ?? blocksByName().get(a.block.toLowerCase());
    if (b && b.entities.length && depth <= 16) {
      const cos = Math.cos(a.angle) * a.size, sin = Math.sin(a.angle) * a.size;
      const mm = multiply(c.m, [cos, sin, -sin, cos, a.x - (b.base.x * cos - b.base.y * sin), a.y - (b.base.x * sin + b.base.y * cos)]);
      const inherit = inheritedFrom(c);
      for (const child of b.entities) emit(child, mm, inherit, depth + 1, c.ref);
      return;
    }
    const shape: Annotation = { lines: [], solids: [], texts: [] };
    const name = b?.name ?? a.block;
    if (!namedArrow(name, a.x, a.y, a.angle, a.size, shape)) namedArrow('', a.x, a.y, a.angle, a.size, shape);
    for (const l of shape.lines) pl(c, applyAll(c.m, l));
    for (const s of shape.solids) pl(c, applyAll(c.m, s), true, true);
  }

  /** a MULTILEADER's raw colour (leader.ts rawColor) in 0xRRGGBB; ByBlock and unknown values: the entity's own */
  function mleaderColor(c: Ctx, raw: number | undefined): number {
    const v = raw === undefined ? undefined : rawColor(raw);
    if (!v) return c.color;
    if ('rgb' in v) return v.rgb;
    if (v.aci === 0) return c.color;
    return v.aci === 256 ? colorOf({ color: 256 } as Entity, inheritedFrom(c), c.layer) : aciToRgb(v.aci || 7);
  }

  /** a STYLE record's name by its handle (what MULTILEADERs and their styles name) */
  function textStyleByHandle(handle: string): string | undefined {
    return (styleHandles ??= new Map(d.textStyles.flatMap((t) => (t.handle ? [[t.handle.toUpperCase(), t.name] as const] : [])))).get(handle.toUpperCase());
  }

  function blocksByName() {
    if (!lowerBlocks) lowerBlocks = new Map(d.blocks.map((b) => [b.name.toLowerCase(), b]));
    return lowerBlocks;
  }

  function blockByRecord() {
    if (!recordBlocks) {
      recordBlocks = new Map();
      for (const b of d.blocks) {
        // (an empty block, e.g. an arrow block with no entities, is known by its record handle only)
        if (b.entities[0]?.owner) recordBlocks.set(b.entities[0].owner, b);
        if (b.recordHandle && !recordBlocks.has(b.recordHandle)) recordBlocks.set(b.recordHandle, b);
      }
    }
    return recordBlocks;
  }

  function skippedCount() {
    let n = 0;
    for (const k in out.skipped) n += out.skipped[k];
    return n;
  }

  function skip(e: Entity, key = e.type) {
    out.skipped[key] = (out.skipped[key] ?? 0) + 1;
  }

  const root: Inherited = { color: 0xffffff, lw: 0, lt: 'CONTINUOUS', layer: '0' };
  const start = opts.transform ?? IDENTITY;
  for (let i = 0; i < entities.length; i++) emit(entities[i], start, root, 0, -1);
  if (instancer) {
    // a budget that instances would have run out when baked: the baked drawing is the reference
    if (!instancer.consistent()) return flattenEntities(d, entities, { ...opts, blockInstances: false });
    const placed = instancer.result();
    if (placed) out.blocks = placed;
  }
  return out;
}

/** A WIPEOUT anywhere in the drawing (model, paper, blocks): only then do texts and curves record their draw position. */
function hasWipeouts(d: Drawing): boolean {
  const has = (list: readonly Entity[]) => {
    for (const e of list) if (e.type === 'WIPEOUT') return true;
    return false;
  };
  return has(d.entities) || d.blocks.some((b) => has(b.entities));
}

/**
 * A fill that may come out white (ACI 255, true-colour white, ByBlock, or ByLayer on a white layer): such a fill masks
 * like a wipeout (see `whiteMask`), so texts and curves must record their draw position too. Errs on the side of yes.
 */
function mayFillWhite(d: Drawing): boolean {
  const white = new Set(d.layers.filter((l) => (l.trueColor !== undefined ? trueColorRgb(l.trueColor) : aciToRgb(Math.abs(l.color) || 7)) === WHITE).map((l) => l.name));
  const isWhite = (e: Entity) => (e.trueColor !== undefined ? trueColorRgb(e.trueColor) === WHITE : e.color === 255 || ((e.color === 256 || e.color === undefined) && white.has(e.layer)));
  // a ByBlock fill is white only in a white INSERT
  let whiteInsert = false;
  const scan = (list: readonly Entity[], fill: boolean) => {
    for (const e of list) {
      if (e.type === 'INSERT' && isWhite(e)) whiteInsert = true;
      if (fill && (e.type === 'HATCH' || e.type === 'SOLID' || e.type === 'TRACE' || e.type === 'LWPOLYLINE' || e.type === 'POLYLINE') && (isWhite(e) || (whiteInsert && e.color === 0))) return true;
    }
    return false;
  };
  scan(d.entities, false);
  for (const b of d.blocks) scan(b.entities, false);
  return scan(d.entities, true) || d.blocks.some((b) => scan(b.entities, true));
}

/** Every number of the curve is finite (no array of them: this runs per circle and arc). */
function finiteCurve(g: Curve2): boolean {
  return Number.isFinite(g.cx) && Number.isFinite(g.cy) && Number.isFinite(g.ux) && Number.isFinite(g.uy) && Number.isFinite(g.vx) && Number.isFinite(g.vy) && Number.isFinite(g.t0) && Number.isFinite(g.sweep);
}

/** The part of the line (x, y) + t (dx, dy), t ≥ tMin, inside the box [minX minY maxX maxY] (Liang–Barsky), or null. */
export function clipLine(x: number, y: number, dx: number, dy: number, tMin: number, box: readonly number[]): number[] | null {
  let t0 = tMin, t1 = Infinity;
  const edges: [number, number][] = [[-dx, x - box[0]], [dx, box[2] - x], [-dy, y - box[1]], [dy, box[3] - y]];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
    } else if (p < 0) t0 = Math.max(t0, q / p);
    else t1 = Math.min(t1, q / p);
  }
  if (!(t1 > t0) || !Number.isFinite(t0) || !Number.isFinite(t1)) return null;
  return [x + dx * t0, y + dy * t0, x + dx * t1, y + dy * t1];
}

interface Vertex {
  x: number;
  y: number;
  /** bulge of the segment that starts here */
  b: number;
  /** start and end width of that segment */
  sw: number;
  ew: number;
}

/** MTEXT inline codes removed (the full MTEXT layout engine is a later step): \P newlines, {\f…;}, \H…; etc. */
export function plainMText(s: string): string {
  // a text without a backslash holds no code: only braces can go (the same result without seven passes)
  if (s.indexOf('\\') < 0) return s.indexOf('{') < 0 && s.indexOf('}') < 0 ? s : s.replace(/[{}]/g, '');
  return s
    .replace(/\\P/g, '\n')
    .replace(/\\[ACcFfHhpQqTtWw][^;]*;/g, '')
    .replace(/\\S([^^/#;]*)[\^/#]([^;]*);/g, '$1/$2')
    .replace(/\\[LlOoKk]/g, '')
    .replace(/[{}]/g, '')
    .replace(/\\~/g, ' ')
    .replace(/\\\\/g, '\\');
}
