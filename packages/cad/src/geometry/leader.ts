import type { Entity, Pair } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import { arrowHead, dimVars, type Annotation, type DimStylePairs } from './dimension.ts';
import { fitPointCurve } from './spline.ts';

/**
 * LEADER: its vertices (straight or as a spline through them) and the arrowhead of its dimension style (group 3 names
 * it, `style` is its record): DIMLDRBLK's block (left in `arrows` for the caller) at DIMASZ × DIMSCALE. DIMTSZ's
 * ticks are for dimensions only.
 */
export function leaderGeometry(e: Entity, vars: Record<string, string | number>, tol: number, style?: DimStylePairs): Annotation {
  const out: Annotation = { lines: [], solids: [], texts: [] };
  const pts: number[] = [];
  const sub = e.pairs.findIndex((p) => p[0] === 100 && p[1] === 'AcDbLeader');
  for (let i = sub < 0 ? 0 : sub; i < e.pairs.length; i++) {
    const [c, val] = e.pairs[i];
    if (c === 10) pts.push(Number(val), e.pairs[i + 1]?.[0] === 20 ? Number(e.pairs[i + 1][1]) : 0);
  }
  if (pts.length < 4) return out;
  const spline = Number(pairValue(e, 72) ?? 0) === 1;
  out.lines.push(spline && pts.length >= 6 ? fitPointCurve(pts, tol) : pts);
  const v = dimVars(e, vars, style);
  // AutoCAD leaves the arrow off when the first segment is shorter than two arrows
  if (Number(pairValue(e, 71) ?? 1) !== 0 && Math.hypot(pts[2] - pts[0], pts[3] - pts[1]) >= 2 * v.asz) arrowHead(pts[0], pts[1], pts[0] - pts[2], pts[1] - pts[3], v, out, v.ldrblk, false);
  out.color = v.clrd;
  return out;
}

interface Branch {
  last?: [number, number];
  dog?: [number, number];
  dogLen: number;
  lines: number[][];
}

export interface MLeader extends Annotation {
  /** the leader lines' and arrowheads' colour and the text's, as raw colour values (`rawColor`); absent: the entity's */
  lineColor?: number;
  textColor?: number;
  /** the leader lines' lineweight (1/100 mm; -1 ByLayer, -2 ByBlock, -3 default) */
  lineweight?: number;
  /** the text's STYLE record handle */
  textStyle?: string;
  /** the MTEXT content (inline codes kept), its location, height, rotation (degrees), attachment and width */
  mtext?: { raw: string; x: number; y: number; height: number; rotation: number; attachment: number; width: number; frame?: number };
  hasBlock: boolean;
  /** block content: its BLOCK_RECORD handle (341), position (15), scale (16/26) and rotation (46, radians) */
  block?: { record: string; x: number; y: number; sx: number; sy: number; rotation: number };
}

/**
 * MULTILEADER from its context data: every LEADER{ … LEADER_LINE{ vertices } } branch ends at the branch's last
 * leader point, then the dogleg runs along the dogleg vector; the arrowhead sits at each line's first vertex.
 */
/**
 * A MULTILEADER's properties: its group code on the entity and in its MLEADERSTYLE. The entity's value is drawn where it
 * has one, the style's where it has none: its override flags (90) are not consulted, as ezdxf 0.18 does not
 * (render/mleader.py, IGNORE_OVERRIDE_FLAGS: "AutoCAD and BricsCAD always use values stored in the MULTILEADER entity,
 * even if the override flag isn't set"); AutoCAD keeps the entity's copies of the style's values up to date itself.
 */
const ML_PROPERTIES = {
  leaderType: { entity: 170, style: 173 },
  lineColor: { entity: 91, style: 91 },
  lineweight: { entity: 171, style: 92 },
  dogleg: { entity: 291, style: 291 },
  arrowBlock: { entity: 342, style: 341 },
  arrowSize: { entity: 42, style: 44 },
  textStyle: { entity: 343, style: 342 },
  textColor: { entity: 92, style: 93 },
  frame: { entity: 292, style: 292 },
} as const;
/** MLEADERSTYLE's text height: the context's (final, scaled) is drawn, this only where the context has none */
const STYLE_TEXT_HEIGHT = 45;

/** A MULTILEADER's raw colour (0xC3 << 24 | ACI, 0xC2 << 24 | RGB, 0xC1 << 24 ByBlock, 0xC0 << 24 ByLayer) as ACI 0–256 or RGB. */
export function rawColor(v: number): { aci: number } | { rgb: number } | undefined {
  const kind = (v >>> 24) & 0xff;
  if (kind === 0xc0) return { aci: 256 };
  if (kind === 0xc1) return { aci: 0 };
  if (kind === 0xc2) return { rgb: v & 0xffffff };
  if (kind === 0xc3) return { aci: v & 0xff };
  return undefined;
}

/**
 * `styles`: the drawing's MLEADERSTYLEs by handle; the one the entity names (its 340 after the context data: inside
 * it, 340 is the text's style) gives the properties the entity does not override.
 */
export function multiLeaderGeometry(e: Entity, tol: number, styles?: Record<string, readonly Pair[]>): MLeader {
  const out: MLeader = { lines: [], solids: [], texts: [], hasBlock: false };
  const p = e.pairs;
  let depth = 0; // 1 context, 2 leader, 3 leader line
  let branch: Branch | null = null;
  let line: number[] | null = null;
  const branches: Branch[] = [];
  let textHeight = 0, arrow = 0, text = '', tx = 0, ty = 0, dirX = 1, dirY = 0, rot = 0, attach = 1, width = 0, hasText = false, landingGap = 0;
  let after = -1;
  const block = { record: '', x: 0, y: 0, sx: 1, sy: 1, rotation: 0 };
  for (let i = 0; i < p.length; i++) {
    const [c, val] = p[i];
    const num = Number(val);
    const next = p[i + 1];
    if (c === 300 && val === 'CONTEXT_DATA{') depth = 1;
    else if (c === 302 && val === 'LEADER{' && depth === 1) {
      depth = 2;
      branch = { dogLen: 0, lines: [] };
    } else if (c === 304 && val === 'LEADER_LINE{' && depth === 2) {
      depth = 3;
      line = [];
    } else if (c === 305 && depth === 3) {
      if (line && branch) branch.lines.push(line);
      depth = 2;
    } else if (c === 303 && depth === 2) {
      if (branch) branches.push(branch);
      depth = 1;
    } else if (c === 301 && depth === 1) {
      depth = 0;
      after = i + 1;
      break;
    } else if (depth === 3 && c === 10) line!.push(num, next?.[0] === 20 ? Number(next[1]) : 0);
    else if (depth === 2 && c === 10) branch!.last = [num, next?.[0] === 20 ? Number(next[1]) : 0];
    else if (depth === 2 && c === 11) branch!.dog = [num, next?.[0] === 21 ? Number(next[1]) : 0];
    else if (depth === 2 && c === 40) branch!.dogLen = num;
    else if (depth === 1) {
      if (c === 41) textHeight = num;
      else if (c === 140) arrow = num;
      else if (c === 290) hasText = num === 1;
      else if (c === 145) landingGap = num;
      else if (c === 304) text = String(val);
      else if (c === 12) [tx, ty] = [num, next?.[0] === 22 ? Number(next[1]) : 0];
      else if (c === 13) [dirX, dirY] = [num, next?.[0] === 23 ? Number(next[1]) : 0];
      else if (c === 42) rot = num;
      else if (c === 43) width = num;
      else if (c === 171) attach = num;
      else if (c === 296) out.hasBlock = num === 1;
      else if (c === 341) block.record = String(val);
      else if (c === 15) [block.x, block.y] = [num, next?.[0] === 25 ? Number(next[1]) : 0];
      else if (c === 16) [block.sx, block.sy] = [num || 1, next?.[0] === 26 ? Number(next[1]) || 1 : num || 1];
      else if (c === 46) block.rotation = num;
    }
  }
  // entity-level properties after the context (inside it the same codes mean other things: 292 is the background
  // fill there): 340 its MLEADERSTYLE, 170 line type (0 invisible, 2 spline), 91 line colour, 171 lineweight, 291
  // dogleg on, 342 arrowhead block, 42 arrow size, 343 text style, 92 text colour, 292 frame text
  const own = new Map<number, string | number>();
  for (let i = Math.max(after, 0); after >= 0 && i < p.length; i++) if (!own.has(p[i][0])) own.set(p[i][0], p[i][1]);
  const style = own.has(340) ? styles?.[String(own.get(340))] : undefined;
  const styled = new Map<number, string | number>();
  for (const [c, val] of style ?? []) if (!styled.has(c)) styled.set(c, val);
  const prop = (k: keyof typeof ML_PROPERTIES): string | number | undefined => own.get(ML_PROPERTIES[k].entity) ?? styled.get(ML_PROPERTIES[k].style);
  const lineType = Number(prop('leaderType') ?? 1), dogleg = Number(prop('dogleg') ?? 1) === 1, frame = Number(prop('frame') ?? 0) === 1;
  // the context's sizes are the final ones; the style's stand in where the context has none
  if (!arrow) arrow = Number(prop('arrowSize') ?? 0) || 0;
  if (!(textHeight > 0)) textHeight = Number(styled.get(STYLE_TEXT_HEIGHT) ?? 1) || 1;
  const arrowBlock = prop('arrowBlock');
  const arrowRecord = arrowBlock !== undefined && String(arrowBlock) !== '0' && String(arrowBlock) !== '' ? String(arrowBlock) : undefined;
  for (const [k, key] of [['lineColor', 'lineColor'], ['textColor', 'textColor'], ['lineweight', 'lineweight']] as const) {
    const v = prop(k);
    if (v !== undefined && Number.isFinite(Number(v))) out[key] = Number(v);
  }
  const ts = prop('textStyle');
  if (ts !== undefined && String(ts) !== '0') out.textStyle = String(ts);
  const v = { asz: arrow, tsz: 0, txt: 0, exo: 0, exe: 0, gap: 0, dec: 0, zin: 0, lfac: 1 };
  for (const b of branches) {
    for (const l of b.lines) {
      const pts = b.last ? [...l, ...b.last] : l;
      if (pts.length < 4 || lineType === 0) continue;
      out.lines.push(lineType === 2 && pts.length >= 6 ? fitPointCurve(pts, tol) : pts);
      if (arrow > 0) arrowHead(pts[0], pts[1], pts[0] - pts[2], pts[1] - pts[3], v, out, arrowRecord);
    }
    if (dogleg && b.last && b.dog && b.dogLen > 0 && lineType !== 0) out.lines.push([b.last[0], b.last[1], b.last[0] + b.dog[0] * b.dogLen, b.last[1] + b.dog[1] * b.dogLen]);
  }
  if (out.hasBlock && block.record) out.block = block;
  if (hasText && text) {
    const rotation = rot ? (rot * 180) / Math.PI : (Math.atan2(dirY, dirX) * 180) / Math.PI;
    out.mtext = { raw: text, x: tx, y: ty, height: textHeight, rotation, attachment: attach || 1, width };
    // AutoCAD frames the text at the landing gap (ezdxf 0.18 draws no frame at all)
    if (frame) out.mtext.frame = Math.max(0, landingGap);
  }
  return out;
}

/**
 * MLINE: each element is offset from the vertex along the vertex's miter direction (13) by the first of its element
 * parameters (41), which the file stores already scaled; the style itself is not needed.
 */
export function mlineElements(e: Entity): { elements: number[][]; closed: boolean } {
  const p = e.pairs;
  // a style has at most 16 elements; a damaged count must not allocate or loop without end
  const nElements = Math.max(0, Math.min(16, Math.trunc(Number(pairValue(e, 73) ?? 0)) || 0));
  const closed = (Number(pairValue(e, 71) ?? 0) & 2) !== 0;
  const elements: number[][] = Array.from({ length: nElements }, () => []);
  const sub = p.findIndex((q) => q[0] === 100 && q[1] === 'AcDbMline');
  for (let i = sub < 0 ? 0 : sub; i < p.length; i++) {
    if (p[i][0] !== 11) continue;
    const vx = Number(p[i][1]), vy = Number(p[i + 1]?.[0] === 21 ? p[i + 1][1] : 0);
    let j = i + 1;
    let mx = 0, my = 0;
    for (; j < p.length && p[j][0] !== 11; j++) {
      if (p[j][0] === 13) {
        mx = Number(p[j][1]);
        my = Number(p[j + 1]?.[0] === 23 ? p[j + 1][1] : 0);
      }
      if (p[j][0] === 74) break;
    }
    // per element: 74 count, 41 × count, 75 count, 42 × count
    for (let el = 0; el < nElements && j < p.length && p[j][0] === 74; el++) {
      const n = Math.max(0, Math.trunc(Number(p[j++][1])) || 0);
      const offset = n > 0 && p[j]?.[0] === 41 ? Number(p[j][1]) : 0;
      while (p[j]?.[0] === 41) j++;
      if (p[j]?.[0] === 75) for (j++; p[j]?.[0] === 42; ) j++;
      elements[el].push(vx + mx * offset, vy + my * offset);
    }
    i = j - 1;
  }
  return { elements: elements.filter((el) => el.length >= 4), closed };
}

/** IMAGE and WIPEOUT: the clip boundary (14/24 in pixels from the top-left pixel) or the whole frame, as a WCS ring. */
export function imageFrame(e: Entity): { corners: number[]; clip?: number[] } {
  const n = (c: number, d = 0) => Number(pairValue(e, c) ?? d);
  const ox = n(10), oy = n(20), ux = n(11, 1), uy = n(21), vx = n(12), vy = n(22, 1), w = n(13, 1), h = n(23, 1);
  const at = (px: number, py: number) => [ox + ux * px + vx * py, oy + uy * px + vy * py];
  const corners = [...at(0, 0), ...at(w, 0), ...at(w, h), ...at(0, h)];
  const bp: number[] = [];
  for (let i = 0; i < e.pairs.length; i++) if (e.pairs[i][0] === 14) bp.push(Number(e.pairs[i][1]), e.pairs[i + 1]?.[0] === 24 ? Number(e.pairs[i + 1][1]) : 0);
  // an IMAGE whose clipping is switched off (280 = 0) keeps its boundary in the file but shows the whole picture
  if (bp.length < 4 || (e.type === 'IMAGE' && n(280, 1) === 0)) return { corners };
  // two vertices are the opposite corners of a rectangle
  const pts = bp.length === 4 ? [bp[0], bp[1], bp[2], bp[1], bp[2], bp[3], bp[0], bp[3]] : bp;
  const clip: number[] = [];
  // the boundary's 0/0 is the top-left corner of the image, one half pixel off the insertion point's pixel centre
  for (let i = 0; i < pts.length; i += 2) clip.push(...at(pts[i] + 0.5, h - pts[i + 1] - 0.5));
  if (clip.length >= 6 && clip[0] === clip[clip.length - 2] && clip[1] === clip[clip.length - 1]) clip.length -= 2;
  return { corners, clip };
}
