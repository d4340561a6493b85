import { DxfOut, has, num, pt, rec, recs, str, type Rec } from './dxf-out.ts';

/**
 * DwgDatabase entities (LibreDWG's `convert`) written as DXF entities with the group codes our DXF reader and
 * flattener read for each type (geometry/flatten.ts, hatch.ts, leader.ts, layout.ts). Angles come in radians
 * and go out in degrees. A type without a mapper still goes out with its common codes, so the reader counts
 * it and reports it as not drawn: nothing the DWG holds disappears silently.
 */

export interface Where {
  /** the owning block record's handle (code 330): paper layouts find their entities by it */
  owner: string;
  /** entities of a paper layout carry 67 = 1 */
  paper: boolean;
  /** block record handle → block name (ACAD_TABLE names its block by record) */
  blockNames: Map<string, string>;
  /** R2000+: entities have a lineweight (R13/R14 entities are ByLayer, whatever LibreDWG reports) */
  lineweights: boolean;
}

/** DWG lineweight index (what LibreDWG hands out) → DXF 370 value in 1/100 mm; 29–31 are ByLayer/ByBlock/Default */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];
export function dxfLineweight(index: number): number {
  if (index === 30) return -2;
  if (index === 31 || index < 0) return -3;
  // 24–29 are no width of their own: ByLayer, as LibreDWG's own DXF writer has them
  return LINEWEIGHTS[index] ?? -1;
}

/** LibreDWG's converter names a few types apart from DXF */
const DXF_TYPE: Record<string, string> = { POLYLINE2D: 'POLYLINE', POLYLINE3D: 'POLYLINE', POLYLINE_PFACE: 'POLYLINE', POLYLINE_MESH: 'POLYLINE' };

export function writeEntity(o: DxfOut, e: Rec, at: Where): void {
  const type = str(e, 'type');
  const write = MAPPERS[type];
  common(o, DXF_TYPE[type] ?? type, e, at);
  if (write) write(o, e, at);
}

/** what every entity carries: type, handle, owner, space, layer, colour, linetype, lineweight, visibility */
function common(o: DxfOut, type: string, e: Rec, at: Where) {
  o.pair(0, type);
  if (has(e, 'handle')) o.pair(5, str(e, 'handle'));
  o.pair(330, at.owner).pair(100, 'AcDbEntity');
  if (at.paper) o.pair(67, 1);
  o.pair(8, str(e, 'layer', '0') || '0');
  const lt = str(e, 'lineType');
  if (lt && lt.toLowerCase() !== 'bylayer') o.pair(6, lt);
  o.pair(62, Math.trunc(num(e, 'colorIndex', 256)));
  if (has(e, 'color')) o.pair(420, Math.trunc(num(e, 'color')));
  o.pair(370, at.lineweights ? dxfLineweight(num(e, 'lineweight', 29)) : -1);
  o.unless(48, num(e, 'lineTypeScale', 1), 1);
  if (e.isVisible === false) o.pair(60, 1);
}

/** the extrusion (210/220/230) when it is not the default +Z: arcs, texts, inserts … lie in their OCS */
function extrusion(o: DxfOut, e: Rec, key = 'extrusionDirection') {
  const n = pt(e, key, { x: 0, y: 0, z: 1 });
  // +Z is the default, and a zero vector is LibreDWG's "not set" (LWPOLYLINE, POLYLINE3D): both are left out
  if (n.x === 0 && n.y === 0 && n.z >= 0) return;
  o.point(210, n);
}

type Mapper = (o: DxfOut, e: Rec, at: Where) => void;

const line: Mapper = (o, e) => {
  o.pair(100, 'AcDbLine').point(10, pt(e, 'startPoint')).point(11, pt(e, 'endPoint'));
  extrusion(o, e);
};

const ray: Mapper = (o, e) => {
  o.pair(100, str(e, 'type') === 'RAY' ? 'AcDbRay' : 'AcDbXline').point(10, pt(e, 'firstPoint')).point(11, pt(e, 'unitDirection'));
};

const point: Mapper = (o, e) => {
  o.pair(100, 'AcDbPoint').point(10, pt(e, 'position'));
  extrusion(o, e);
};

const circle: Mapper = (o, e) => {
  o.pair(100, 'AcDbCircle').point(10, pt(e, 'center')).pair(40, num(e, 'radius'));
  extrusion(o, e);
};

const arc: Mapper = (o, e, at) => {
  circle(o, e, at);
  o.pair(100, 'AcDbArc').angle(50, num(e, 'startAngle')).angle(51, num(e, 'endAngle'));
};

const ellipse: Mapper = (o, e) => {
  o.pair(100, 'AcDbEllipse').point(10, pt(e, 'center')).point(11, pt(e, 'majorAxisEndPoint'));
  extrusion(o, e);
  o.pair(40, num(e, 'axisRatio', 1)).pair(41, num(e, 'startAngle')).pair(42, num(e, 'endAngle', Math.PI * 2));
};

const lwpolyline: Mapper = (o, e) => {
  const vs = recs(e.vertices);
  o.pair(100, 'AcDbPolyline').pair(90, vs.length).pair(70, lwpolylineFlags(num(e, 'flag')));
  o.unless(43, num(e, 'constantWidth'), 0).unless(38, num(e, 'elevation'), 0);
  for (const v of vs) {
    o.pair(10, num(v, 'x')).pair(20, num(v, 'y'));
    if (num(v, 'startWidth') || num(v, 'endWidth')) o.pair(40, num(v, 'startWidth')).pair(41, num(v, 'endWidth'));
    o.unless(42, num(v, 'bulge'), 0);
  }
  extrusion(o, e);
};

/**
 * LibreDWG hands out the LWPOLYLINE flags as the DWG stores them, not as DXF's 70: closed is 512 there (1 in DXF),
 * linetype generation 256 (128 in DXF); the DWG's other bits only say which optional fields follow.
 */
export function lwpolylineFlags(dwg: number): number {
  return (dwg & 512 ? 1 : 0) | (dwg & 256 ? 128 : 0);
}

/** POLYLINE2D / POLYLINE3D / polyface: the header, then its VERTEX records and SEQEND, as DXF keeps them */
const polyline: Mapper = (o, e, at) => {
  const type = str(e, 'type');
  const is3d = type === 'POLYLINE3D';
  const face = type === 'POLYLINE_PFACE';
  const flag = Math.trunc(num(e, 'flag')) | (is3d ? 8 : 0) | (face ? 64 : 0);
  const marker = face ? 'AcDbPolyFaceMesh' : type === 'POLYLINE_MESH' ? 'AcDbPolygonMesh' : is3d ? 'AcDb3dPolyline' : 'AcDb2dPolyline';
  o.pair(100, marker).pair(66, 1);
  o.point(10, { x: 0, y: 0, z: num(e, 'elevation') }).pair(70, flag);
  o.unless(40, num(e, 'startWidth'), 0).unless(41, num(e, 'endWidth'), 0);
  if (face) o.pair(71, num(e, 'numberOfVertices')).pair(72, num(e, 'numberOfFaces'));
  if (type === 'POLYLINE_MESH') o.pair(71, num(e, 'meshMVertexCount')).pair(72, num(e, 'meshNVertexCount'));
  extrusion(o, e);
  const owner = { ...at, owner: str(e, 'handle') || at.owner };
  for (const v of recs(e.vertices)) {
    common(o, 'VERTEX', { ...v, layer: str(v, 'layer') || str(e, 'layer') }, owner);
    o.pair(100, 'AcDbVertex').point(10, { x: num(v, 'x'), y: num(v, 'y'), z: num(v, 'z') });
    o.unless(40, num(v, 'startWidth'), 0).unless(41, num(v, 'endWidth'), 0).unless(42, num(v, 'bulge'), 0);
    o.pair(70, Math.trunc(num(v, 'flag')) | (is3d ? 32 : 0));
    // polyface faces: 71–74 index the vertices (1-based, negative = invisible edge)
    for (let i = 0; i < 4; i++) if (has(v, `polyfaceIndex${i}`)) o.pair(71 + i, Math.trunc(num(v, `polyfaceIndex${i}`)));
  }
  common(o, 'SEQEND', { layer: str(e, 'layer') }, owner);
};

const spline: Mapper = (o, e) => {
  const knots = Array.isArray(e.knots) ? (e.knots as unknown[]).map(Number) : [];
  const ctrl = recs(e.controlPoints);
  const fit = recs(e.fitPoints);
  // `flag` is the DWG's spline flags (R2013 meaning); the child adds DXF's 70 from the closed/periodic/rational bits
  o.pair(100, 'AcDbSpline').pair(70, Math.trunc(num(e, 'dxfFlag', num(e, 'flag') & 8))).pair(71, Math.trunc(num(e, 'degree', 3)));
  o.pair(72, knots.length).pair(73, ctrl.length).pair(74, fit.length);
  if (fit.length && has(e, 'startTangent')) o.point(12, pt(e, 'startTangent'));
  if (fit.length && has(e, 'endTangent')) o.point(13, pt(e, 'endTangent'));
  for (const k of knots) o.pair(40, k);
  const weighted = ctrl.some((c) => has(c, 'weight') && num(c, 'weight', 1) !== 1);
  for (const c of ctrl) {
    o.point(10, { x: num(c, 'x'), y: num(c, 'y'), z: num(c, 'z') });
    if (weighted) o.pair(41, num(c, 'weight', 1));
  }
  for (const f of fit) o.point(11, { x: num(f, 'x'), y: num(f, 'y'), z: num(f, 'z') });
};

/** SOLID, TRACE (Z-order corners, 2D) and 3DFACE (with its invisible-edge flags) */
const corners: Mapper = (o, e) => {
  const face = str(e, 'type') === '3DFACE';
  o.pair(100, face ? 'AcDbFace' : 'AcDbTrace');
  for (let i = 0; i < 4; i++) o.point(10 + i, pt(e, `corner${i + 1}`, pt(e, 'corner3')));
  if (face) o.unless(70, Math.trunc(num(e, 'flag')), 0);
  else extrusion(o, e);
};

/** the TEXT part shared by TEXT, ATTRIB and ATTDEF (LibreDWG nests it in `text` for the attribute types) */
function textBody(o: DxfOut, t: Rec, value: string) {
  o.pair(100, 'AcDbText').point(10, pt(t, 'startPoint')).pair(40, num(t, 'textHeight', 1)).pair(1, value);
  o.unless(50, num(t, 'rotation') * (180 / Math.PI), 0).unless(41, num(t, 'xScale', 1), 1).unless(51, num(t, 'obliqueAngle') * (180 / Math.PI), 0);
  o.pair(7, str(t, 'styleName', 'Standard') || 'Standard');
  o.unless(71, Math.trunc(num(t, 'generationFlag')), 0).unless(72, Math.trunc(num(t, 'halign')), 0);
  // aligned texts are placed by their second point (11/21), which DXF writes only for them
  if (num(t, 'halign') || num(t, 'valign')) o.point(11, pt(t, 'endPoint'));
  extrusion(o, t);
}

const text: Mapper = (o, e) => {
  textBody(o, e, str(e, 'text'));
  o.pair(100, 'AcDbText').unless(73, Math.trunc(num(e, 'valign')), 0);
};

const attribute: Mapper = (o, e) => {
  const t = rec(e.text);
  const def = str(e, 'type') === 'ATTDEF';
  // ATTDEF's 1 is its default value (LibreDWG keeps it in text.text), 3 its prompt, 2 its tag
  textBody(o, t, str(t, 'text'));
  o.pair(100, def ? 'AcDbAttributeDefinition' : 'AcDbAttribute');
  if (def) o.pair(3, str(e, 'prompt'));
  o.pair(2, str(e, 'tag')).pair(70, Math.trunc(num(e, 'flags'))).unless(74, Math.trunc(num(t, 'valign')), 0);
};

const mtext: Mapper = (o, e) => {
  o.pair(100, 'AcDbMText').point(10, pt(e, 'insertionPoint')).pair(40, num(e, 'textHeight', 1)).pair(41, num(e, 'rectWidth'));
  o.pair(71, Math.trunc(num(e, 'attachmentPoint', 1))).pair(72, Math.trunc(num(e, 'drawingDirection', 1)));
  // long texts go as 250-character chunks in 3, the rest in 1
  const s = str(e, 'text');
  let i = 0;
  for (; s.length - i > 250; i += 250) o.pair(3, s.slice(i, i + 250));
  o.pair(1, s.slice(i)).pair(7, str(e, 'styleName', 'Standard') || 'Standard');
  extrusion(o, e);
  // the direction vector is what LibreDWG reads from the DWG (the rotation it reports is 0)
  o.point(11, pt(e, 'direction', { x: 1, y: 0, z: 0 }));
  o.unless(44, num(e, 'lineSpacing', 1), 1);
};

const insert: Mapper = (o, e) => {
  const attribs = recs(e.attribs);
  o.pair(100, 'AcDbBlockReference');
  if (attribs.length) o.pair(66, 1);
  o.pair(2, str(e, 'name')).point(10, pt(e, 'insertionPoint'));
  o.unless(41, num(e, 'xScale', 1), 1).unless(42, num(e, 'yScale', 1), 1).unless(43, num(e, 'zScale', 1), 1);
  o.unless(50, num(e, 'rotation') * (180 / Math.PI), 0);
  o.unless(70, Math.trunc(num(e, 'columnCount')), 0).unless(71, Math.trunc(num(e, 'rowCount')), 0);
  o.unless(44, num(e, 'columnSpacing'), 0).unless(45, num(e, 'rowSpacing'), 0);
  extrusion(o, e);
};

/** an INSERT's attributes follow it, then a SEQEND (the reader hangs them under the INSERT) */
export function writeInsertChildren(o: DxfOut, e: Rec, at: Where) {
  const attribs = recs(e.attribs);
  if (!attribs.length) return;
  const owner = { ...at, owner: str(e, 'handle') || at.owner };
  for (const a of attribs) writeEntity(o, a, owner);
  common(o, 'SEQEND', { layer: str(e, 'layer') }, owner);
}

/** dimensions draw through their anonymous *D block (code 2); the points let one without a block be generated */
const dimension: Mapper = (o, e) => {
  o.pair(100, 'AcDbDimension').pair(2, str(e, 'name')).point(10, pt(e, 'definitionPoint')).point(11, pt(e, 'textPoint'));
  const ins = pt(e, 'insertionPoint');
  if (ins.x || ins.y) o.point(12, ins);
  o.pair(70, Math.trunc(num(e, 'dimensionType'))).pair(71, Math.trunc(num(e, 'attachmentPoint', 5)));
  if (str(e, 'text')) o.pair(1, str(e, 'text'));
  if (has(e, 'measurement')) o.pair(42, num(e, 'measurement'));
  o.unless(53, num(e, 'textRotation') * (180 / Math.PI), 0).pair(3, str(e, 'styleName', 'Standard'));
  extrusion(o, e);
  const sub = str(e, 'subclassMarker');
  if (sub) o.pair(100, sub);
  if (has(e, 'subDefinitionPoint1')) o.point(13, pt(e, 'subDefinitionPoint1'));
  if (has(e, 'subDefinitionPoint2')) o.point(14, pt(e, 'subDefinitionPoint2'));
  if (has(e, 'centerPoint')) o.point(15, pt(e, 'centerPoint'));
  if (has(e, 'arcPoint')) o.point(16, pt(e, 'arcPoint'));
  if (has(e, 'leaderLength')) o.pair(40, num(e, 'leaderLength'));
  if (has(e, 'rotationAngle')) o.angle(50, num(e, 'rotationAngle'));
  if (has(e, 'obliqueAngle')) o.angle(52, num(e, 'obliqueAngle'));
};

/** HATCH: boundary paths (polyline or edges), style, pattern definition lines, seed points */
const hatch: Mapper = (o, e) => {
  o.pair(100, 'AcDbHatch').point(10, { x: 0, y: 0, z: 0 });
  extrusion(o, e);
  const solid = num(e, 'solidFill') === 1;
  o.pair(2, str(e, 'patternName') || (solid ? 'SOLID' : '')).pair(70, solid ? 1 : 0).pair(71, Math.trunc(num(e, 'associativity')));
  const paths = recs(e.boundaryPaths);
  o.pair(91, paths.length);
  for (const p of paths) hatchPath(o, p);
  o.pair(75, Math.trunc(num(e, 'hatchStyle'))).pair(76, Math.trunc(num(e, 'patternType', 1)));
  if (!solid) {
    o.angle(52, num(e, 'patternAngle')).pair(41, num(e, 'patternScale', 1)).pair(77, 0);
    const lines = recs(e.definitionLines);
    o.pair(78, lines.length);
    for (const l of lines) {
      const dashes = Array.isArray(l.dashLengths) ? (l.dashLengths as unknown[]).map(Number) : [];
      const base = pt(l, 'base'), offset = pt(l, 'offset');
      o.angle(53, num(l, 'angle')).pair(43, base.x).pair(44, base.y).pair(45, offset.x).pair(46, offset.y).pair(79, dashes.length);
      for (const d of dashes) o.pair(49, d);
    }
  }
  const seeds = recs(e.seedPoints);
  o.pair(98, seeds.length);
  for (const s of seeds) o.pair(10, num(s, 'x')).pair(20, num(s, 'y'));
  if (num(e, 'gradientFlag') === 1) gradient(o, e);
};

/** a gradient fill: 450 on, its colours (63 index and/or 421 rgb each), angle, shift, tint, and its name */
function gradient(o: DxfOut, e: Rec) {
  const colors = recs(e.gradientColors);
  o.pair(450, 1).pair(451, 0).pair(452, Math.trunc(num(e, 'gradientColorFlag'))).pair(453, colors.length);
  o.angle(460, num(e, 'gradientRotation')).pair(461, num(e, 'gradientDefinition')).pair(462, num(e, 'colorTint'));
  for (const c of colors) {
    o.pair(463, num(c, 'reservedData'));
    const index = Math.trunc(num(c, 'colorIndex'));
    if (index >= 1 && index <= 255) o.pair(63, index);
    o.pair(421, num(c, 'rgb') & 0xffffff);
  }
  o.pair(470, str(e, 'gradientName'));
}

function hatchPath(o: DxfOut, p: Rec) {
  const flag = Math.trunc(num(p, 'boundaryPathTypeFlag'));
  o.pair(92, flag);
  if (flag & 2) {
    const vs = recs(p.vertices);
    const bulges = vs.some((v) => num(v, 'bulge') !== 0);
    o.pair(72, bulges ? 1 : 0).pair(73, p.isClosed === false ? 0 : 1).pair(93, vs.length);
    for (const v of vs) {
      o.pair(10, num(v, 'x')).pair(20, num(v, 'y'));
      if (bulges) o.pair(42, num(v, 'bulge'));
    }
  } else {
    const edges = recs(p.edges);
    o.pair(93, edges.length);
    for (const ed of edges) hatchEdge(o, ed);
  }
  o.pair(97, 0);
}

function hatchEdge(o: DxfOut, ed: Rec) {
  const type = Math.trunc(num(ed, 'type', 1));
  o.pair(72, type);
  if (type === 1) o.point(10, pt(ed, 'start'), false).point(11, pt(ed, 'end'), false);
  else if (type === 2 || type === 3) {
    o.point(10, pt(ed, 'center'), false);
    if (type === 3) o.point(11, pt(ed, 'end'), false).pair(40, num(ed, 'lengthOfMinorAxis'));
    else o.pair(40, num(ed, 'radius'));
    o.angle(50, num(ed, 'startAngle')).angle(51, num(ed, 'endAngle')).pair(73, ed.isCCW === false ? 0 : 1);
  } else if (type === 4) {
    const knots = Array.isArray(ed.knots) ? (ed.knots as unknown[]).map(Number) : [];
    const ctrl = recs(ed.controlPoints);
    const weighted = ctrl.some((c) => has(c, 'weight'));
    o.pair(94, Math.trunc(num(ed, 'degree', 3))).pair(73, weighted ? 1 : 0).pair(74, ed.isPeriodic ? 1 : 0).pair(95, knots.length).pair(96, ctrl.length);
    for (const k of knots) o.pair(40, k);
    for (const c of ctrl) {
      o.pair(10, num(c, 'x')).pair(20, num(c, 'y'));
      if (weighted) o.pair(42, num(c, 'weight', 1));
    }
  }
}

/** WIPEOUT and IMAGE: the frame (origin, pixel vectors, size) and the clip boundary, as leader.ts imageFrame reads it */
const image: Mapper = (o, e) => {
  o.pair(100, str(e, 'type') === 'WIPEOUT' ? 'AcDbWipeout' : 'AcDbRasterImage').pair(90, 0);
  o.point(10, pt(e, 'position')).point(11, pt(e, 'uPixel')).point(12, pt(e, 'vPixel')).point(13, pt(e, 'imageSize'), false);
  o.pair(70, Math.trunc(num(e, 'flags'))).pair(280, Math.trunc(num(e, 'clipping'))).pair(281, Math.trunc(num(e, 'brightness', 50)));
  o.pair(282, Math.trunc(num(e, 'contrast', 50))).pair(283, Math.trunc(num(e, 'fade')));
  if (has(e, 'imageDefHandle') && str(e, 'imageDefHandle') !== '0') o.pair(340, str(e, 'imageDefHandle'));
  const bp = recs(e.clippingBoundaryPath);
  o.pair(71, Math.trunc(num(e, 'clippingBoundaryType', 1))).pair(91, bp.length);
  for (const p of bp) o.pair(14, num(p, 'x')).pair(24, num(p, 'y'));
};

/** paper-space viewport: frame (10, 40, 41), the model view (12/22 centre, 45 height, 51 twist), status (68/69) */
const viewport: Mapper = (o, e) => {
  o.pair(100, 'AcDbViewport').point(10, pt(e, 'viewportCenter')).pair(40, num(e, 'width')).pair(41, num(e, 'height'));
  o.pair(68, Math.trunc(num(e, 'status'))).pair(69, Math.trunc(num(e, 'viewportId')));
  o.point(12, pt(e, 'displayCenter'), false).point(17, pt(e, 'targetPoint')).point(16, pt(e, 'viewDirection', { x: 0, y: 0, z: 1 }));
  o.pair(45, num(e, 'viewHeight')).angle(51, num(e, 'viewTwistAngle')).pair(90, Math.trunc(num(e, 'statusBitFlags')));
};

/** MLINE: vertices with their direction, miter and per-element segment parameters (leader.ts mlineElements) */
const mline: Mapper = (o, e) => {
  const vs = recs(e.vertices);
  const n = Math.trunc(num(e, 'numberOfLines'));
  o.pair(100, 'AcDbMline').pair(2, str(e, 'mlineStyle', 'STANDARD') || 'STANDARD').pair(40, num(e, 'scale', 1));
  o.pair(70, Math.trunc(num(e, 'justification'))).pair(71, Math.trunc(num(e, 'flags'))).pair(72, vs.length).pair(73, n);
  o.point(10, pt(e, 'startPoint'));
  extrusion(o, e);
  for (const v of vs) {
    o.point(11, pt(v, 'vertex')).point(12, pt(v, 'vertexDirection')).point(13, pt(v, 'miterDirection'));
    for (const l of recs(v.lines)) {
      const seg = Array.isArray(l.segmentParams) ? (l.segmentParams as unknown[]).map(Number) : [];
      const fill = Array.isArray(l.areaFillParams) ? (l.areaFillParams as unknown[]).map(Number) : [];
      o.pair(74, seg.length);
      for (const s of seg) o.pair(41, s);
      o.pair(75, fill.length);
      for (const f of fill) o.pair(42, f);
    }
  }
};

/** TOLERANCE: placed text only (our flattener counts it as not drawn); DXF writes its line breaks as ^J */
const tolerance: Mapper = (o, e) => {
  o.pair(100, 'AcDbFcf').pair(3, str(e, 'styleName')).point(10, pt(e, 'insertionPoint')).pair(1, str(e, 'text').replace(/\r?\n/g, '^J'));
  extrusion(o, e);
  o.point(11, pt(e, 'xAxisDirection', { x: 1, y: 0, z: 0 }));
};

/**
 * ACAD_TABLE draws through its anonymous *T block, named here from the block record LibreDWG gives. For R2010+ tables
 * LibreDWG gives no block record and no insertion point: the point and direction are then the ones the reader took
 * from the table's own graphics (`placement`, dwg-database.child-lib.mjs), and the block is the *T block whose record
 * handle LibreDWG hands out in the table style's place (in every R2010+ sample, the table's own *T block). A table with
 * neither is written without 10, and is reported, not drawn, by the flattener.
 */
const table: Mapper = (o, e, at) => {
  const guess = at.blockNames.get(str(e, 'tableStyleId'));
  const block = at.blockNames.get(str(e, 'blockRecordHandle')) ?? (guess && /^\*T\d*$/i.test(guess) ? guess : '');
  o.pair(100, 'AcDbBlockReference').pair(2, block);
  const placed = rec(e.placement);
  const known = has(placed, 'insertionPoint') || str(e, 'blockRecordHandle') !== '';
  if (known) o.point(10, has(placed, 'insertionPoint') ? pt(placed, 'insertionPoint') : pt(e, 'startPoint'));
  const d = has(placed, 'direction') ? pt(placed, 'direction') : pt(e, 'directionVector', { x: 1, y: 0, z: 0 });
  // LibreDWG 0.13.3 decodes this vector wrongly for some R2004 tables; a table without a clean direction runs along +X
  o.pair(100, 'AcDbTable').point(11, Number.isFinite(d.x) && Math.abs(d.z) < 1e-6 && Math.abs(Math.hypot(d.x, d.y) - 1) < 1e-6 ? d : { x: 1, y: 0, z: 0 });
};

/**
 * MULTILEADER: the leader lines of its context (302 LEADER{ / 304 LEADER_LINE{ …), its arrow size and the text
 * anchor; the text itself only when LibreDWG decoded it as readable text (it garbles some R2004 ones).
 */
const multileader: Mapper = (o, e) => {
  o.pair(100, 'AcDbMLeader').pair(300, 'CONTEXT_DATA{').pair(41, num(e, 'textHeight', 1)).pair(140, num(e, 'arrowheadSize'));
  const content = str(e, 'textContent');
  const readable = e.hasMText === true && content !== '' && !/[^\x20-\x7e\u00a0-\u024f\\{};]/.test(content);
  o.pair(290, readable ? 1 : 0);
  if (readable) o.pair(304, content).point(12, pt(e, 'textAnchor')).point(13, pt(e, 'textDirection', { x: 1, y: 0, z: 0 })).pair(43, num(e, 'textWidth')).pair(171, Math.trunc(num(e, 'textAttachmentPoint', 1)));
  o.pair(296, e.hasBlock === true ? 1 : 0);
  for (const s of recs(e.leaderSections)) {
    o.pair(302, 'LEADER{');
    if (s.lastLeaderLinePointSet !== false) o.point(10, pt(s, 'lastLeaderLinePoint'));
    if (s.doglegVectorSet !== false) o.point(11, pt(s, 'doglegVector'));
    o.pair(40, num(s, 'doglegLength'));
    for (const l of recs(s.leaderLines)) {
      o.pair(304, 'LEADER_LINE{');
      for (const v of recs(l.vertices)) o.point(10, { x: num(v, 'x'), y: num(v, 'y'), z: num(v, 'z') });
      o.pair(305, '}');
    }
    o.pair(303, '}');
  }
  o.pair(301, '}').pair(170, Math.trunc(num(e, 'leaderLineType', 1))).pair(291, e.doglegEnabled === false ? 0 : 1).pair(42, num(e, 'arrowheadSize'));
};

/** LEADER: its vertices, arrowhead and spline flags, and its DSTYLE overrides (the arrow size) from ACAD xdata */
const leader: Mapper = (o, e) => {
  const vs = recs(e.vertices);
  o.pair(100, 'AcDbLeader').pair(3, str(e, 'styleName', 'Standard') || 'Standard').pair(71, e.isArrowheadEnabled === false ? 0 : 1).pair(72, e.isSpline === true ? 1 : 0);
  o.pair(73, Math.trunc(num(e, 'leaderCreationFlag', 3))).pair(74, e.isHooklineSameDirection === true ? 1 : 0).pair(75, e.isHooklineExists === true ? 1 : 0);
  o.pair(40, num(e, 'textHeight')).pair(41, num(e, 'textWidth')).pair(76, vs.length);
  for (const v of vs) o.point(10, { x: num(v, 'x'), y: num(v, 'y'), z: num(v, 'z') });
  acadXdata(o, e);
};

/** the ACAD application's xdata (dimension style overrides of leaders and dimensions), as LibreDWG lists it */
function acadXdata(o: DxfOut, e: Rec) {
  const acad = recs(e.xdata).find((x) => str(x, 'appName') === 'ACAD');
  if (!acad) return;
  o.pair(1001, 'ACAD');
  for (const v of recs(acad.value)) {
    const code = Math.trunc(num(v, 'code'));
    const value = v.value;
    if (typeof value === 'number' || typeof value === 'string') o.pair(code, value);
    else if (value && typeof value === 'object') o.point(code, pt(v, 'value'));
  }
}

/**
 * REGION, 3DSOLID and BODY: the ACIS SAT text (which the child reads for version 1 data), one record per line, stored
 * as DXF does: every character but the space as 159 − its code, a literal ^ as "^ ", lines over 255 characters
 * continued in code 3. Binary (SAB) data is not written: the entity is counted and reported as not drawn.
 */
const modeler: Mapper = (o, e) => {
  o.pair(100, 'AcDbModelerGeometry').pair(70, 1);
  const sat = str(e, 'satText');
  if (!sat) return;
  for (const line of sat.split(/\r?\n/)) {
    if (!line) continue;
    const coded = [...line].map((c) => (c === ' ' ? ' ' : String.fromCharCode(159 - c.charCodeAt(0)))).join('').replaceAll('^', '^ ');
    o.pair(1, coded.slice(0, 255));
    for (let i = 255; i < coded.length; i += 255) o.pair(3, coded.slice(i, i + 255));
  }
};

/** MESH (subdivision mesh, read by the child): vertices (92, 10…) and the face list (93, 90…); its edges follow from the faces */
const mesh: Mapper = (o, e) => {
  const vs = recs(e.vertices);
  const faces = Array.isArray(e.faces) ? (e.faces as unknown[]).map(Number) : [];
  o.pair(100, 'AcDbSubDMesh').pair(71, 2).pair(72, 0).pair(91, Math.trunc(num(e, 'level'))).pair(92, vs.length);
  for (const v of vs) o.point(10, { x: num(v, 'x'), y: num(v, 'y'), z: num(v, 'z') });
  o.pair(93, faces.length);
  for (const f of faces) o.pair(90, f);
  o.pair(94, 0).pair(95, 0).pair(90, 0);
};

/** OLE2FRAME: its frame (10 upper left, 11 lower right), which the flattener draws in place of the embedded object */
const oleFrame: Mapper = (o, e) => {
  o.pair(100, 'AcDbOle2Frame').pair(70, Math.trunc(num(e, 'oleVersion', 2))).pair(3, str(e, 'oleClient'));
  o.point(10, pt(e, 'leftUpPoint')).point(11, pt(e, 'rightDownPoint')).pair(71, Math.trunc(num(e, 'oleObjectType'))).pair(72, Math.trunc(num(e, 'tileModeDescriptor')));
};

/** ARC_DIMENSION (which LibreDWG's converter leaves out; the child adds it with its block name): drawn by its *D block */
const dimensionBlock: Mapper = (o, e) => {
  o.pair(100, 'AcDbDimension').pair(2, str(e, 'name'));
};

const MAPPERS: Record<string, Mapper> = {
  LINE: line, XLINE: ray, RAY: ray, POINT: point, CIRCLE: circle, ARC: arc, ELLIPSE: ellipse, LWPOLYLINE: lwpolyline,
  POLYLINE2D: polyline, POLYLINE3D: polyline, POLYLINE_PFACE: polyline, POLYLINE_MESH: polyline, SPLINE: spline, SOLID: corners, TRACE: corners, '3DFACE': corners,
  TEXT: text, ATTRIB: attribute, ATTDEF: attribute, MTEXT: mtext, INSERT: insert, DIMENSION: dimension, HATCH: hatch, WIPEOUT: image,
  IMAGE: image, VIEWPORT: viewport, MLINE: mline, TOLERANCE: tolerance, ACAD_TABLE: table, MULTILEADER: multileader,
  ARC_DIMENSION: dimensionBlock, LARGE_RADIAL_DIMENSION: dimensionBlock, LEADER: leader, OLE2FRAME: oleFrame, MESH: mesh, REGION: modeler, '3DSOLID': modeler, BODY: modeler,
};
