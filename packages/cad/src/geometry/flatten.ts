import type { Drawing, Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import { aciToRgb } from './aci.ts';

/** A 2D affine transform [a b c d e f]: x' = a x + c y + e, y' = b x + d y + f. */
export type Affine = [number, number, number, number, number, number];
export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

export function multiply(m: Affine, n: Affine): Affine {
  return [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];
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
}

export interface Flattened {
  polylines: Polyline2[];
  texts: TextRun[];
  entities: EntityRef[];
  /** entity types met that the flattener does not draw yet, by count */
  skipped: Record<string, number>;
}

export interface FlattenOptions {
  tolerance?: number;
  hiddenLayers?: Set<string>;
  /** applied to every entity (a viewport's model-to-paper transform) */
  transform?: Affine;
}

const num = (e: Entity, code: number, def = 0) => {
  const v = pairValue(e, code);
  return v === undefined ? def : Number(v);
};

/**
 * Model space flattened to coloured 2D polylines and text runs: curves tessellated to `tolerance` drawing
 * units, INSERTs expanded through their blocks (nested, arrays, mirrored), ByLayer/ByBlock colours resolved.
 * The first renderer input; the WebGL scene compiler will batch the same output.
 */
export function flattenModelSpace(d: Drawing, opts: FlattenOptions = {}): Flattened {
  return flattenEntities(d, d.entities.filter((e) => !e.paperSpace), opts);
}

/** Any list of entities (model space, a layout's block, a block preview) flattened the same way. */
export function flattenEntities(d: Drawing, entities: readonly Entity[], opts: FlattenOptions = {}): Flattened {
  const out: Flattened = { polylines: [], texts: [], entities: [], skipped: {} };
  const layers = new Map(d.layers.map((l) => [l.name, l]));
  const blocks = new Map(d.blocks.map((b) => [b.name, b]));
  const ext = d.header.extMax && d.header.extMin ? Math.hypot(d.header.extMax.x - d.header.extMin.x, d.header.extMax.y - d.header.extMin.y) : 1000;
  const tol = opts.tolerance ?? Math.max(1e-6, (Number.isFinite(ext) && ext > 0 ? ext : 1000) / 4000);

  const colorOf = (e: Entity, byBlock: number): number => {
    if (e.trueColor !== undefined && e.trueColor > 0) return e.trueColor & 0xffffff;
    if (e.color === 0) return byBlock;
    if (e.color === 256 || e.color === undefined) {
      const l = layers.get(e.layer);
      return l?.trueColor !== undefined ? l.trueColor & 0xffffff : aciToRgb(l?.color ?? 7);
    }
    return aciToRgb(Math.abs(e.color));
  };

  const apply = (m: Affine, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  const segmentsFor = (r: number, sweep: number) => Math.min(512, Math.max(4, Math.ceil(Math.abs(sweep) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(r, tol)))))));

  function arcPoints(m: Affine, cx: number, cy: number, r: number, a0: number, a1: number, out2: number[]) {
    let sweep = a1 - a0;
    if (sweep <= 0) sweep += Math.PI * 2;
    const n = segmentsFor(r * Math.hypot(m[0], m[1]), sweep);
    for (let i = 0; i <= n; i++) {
      const a = a0 + (sweep * i) / n;
      out2.push(...apply(m, cx + r * Math.cos(a), cy + r * Math.sin(a)));
    }
  }

  function bulgeSegment(m: Affine, x0: number, y0: number, x1: number, y1: number, bulge: number, pts: number[]) {
    if (!bulge) return pts.push(...apply(m, x1, y1));
    const theta = 4 * Math.atan(bulge);
    const chord = Math.hypot(x1 - x0, y1 - y0);
    const r = chord / (2 * Math.sin(theta / 2));
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    const h = r * Math.cos(theta / 2);
    const nx = -(y1 - y0) / chord;
    const ny = (x1 - x0) / chord;
    const cx = mx + nx * h;
    const cy = my + ny * h;
    const a0 = Math.atan2(y0 - cy, x0 - cx);
    const n = segmentsFor(Math.abs(r) * Math.hypot(m[0], m[1]), theta);
    for (let i = 1; i <= n; i++) {
      const a = a0 + (theta * i) / n;
      pts.push(...apply(m, cx + Math.abs(r) * Math.cos(a), cy + Math.abs(r) * Math.sin(a)));
    }
  }

  const lineweightOf = (e: Entity, byBlock: number): number => {
    const lw = e.lineweight ?? -1;
    if (lw === -2) return byBlock;
    if (lw === -1) {
      const l = layers.get(e.layer)?.lineweight ?? -3;
      return l >= 0 ? l : 0;
    }
    return lw >= 0 ? lw : 0;
  };

  // `ref` is the top-level entity's index: geometry of a block's children is selected as its INSERT
  function emit(e: Entity, m: Affine, byBlock: number, depth: number, ref: number, byBlockLw: number) {
    if (opts.hiddenLayers?.has(e.layer)) return;
    const layer = layers.get(e.layer);
    if (layer && (!layer.on || layer.frozen)) return;
    const color = colorOf(e, byBlock);
    const lineweight = lineweightOf(e, byBlockLw);
    if (ref < 0) {
      ref = out.entities.length;
      out.entities.push({ handle: e.handle, type: e.type, layer: e.layer, color, linetype: e.linetype, lineweight: e.lineweight });
    }
    // block children drawn on layer 0 follow the INSERT's layer (switched with it)
    const onLayer = e.layer === '0' && depth > 0 ? out.entities[ref].layer : e.layer;
    const pl = (points: number[], closed = false, filled = false) => out.polylines.push({ points, closed, color, layer: onLayer, filled, entity: ref, lineweight });
    switch (e.type) {
      case 'LINE':
        return pl([...apply(m, num(e, 10), num(e, 20)), ...apply(m, num(e, 11), num(e, 21))]);
      case 'POINT': {
        const [x, y] = apply(m, num(e, 10), num(e, 20));
        return pl([x, y, x, y]);
      }
      case 'CIRCLE': {
        const pts: number[] = [];
        arcPoints(m, num(e, 10), num(e, 20), num(e, 40), 0, Math.PI * 2, pts);
        return pl(pts, true);
      }
      case 'ARC': {
        const pts: number[] = [];
        arcPoints(m, num(e, 10), num(e, 20), num(e, 40), (num(e, 50) * Math.PI) / 180, (num(e, 51) * Math.PI) / 180, pts);
        return pl(pts);
      }
      case 'ELLIPSE': {
        const cx = num(e, 10), cy = num(e, 20), mx = num(e, 11), my = num(e, 21), ratio = num(e, 40, 1);
        let t0 = num(e, 41), t1 = num(e, 42, Math.PI * 2);
        if (t1 <= t0) t1 += Math.PI * 2;
        const major = Math.hypot(mx, my);
        const n = segmentsFor(major * Math.hypot(m[0], m[1]), t1 - t0);
        const pts: number[] = [];
        for (let i = 0; i <= n; i++) {
          const t = t0 + ((t1 - t0) * i) / n;
          const c = Math.cos(t), s = Math.sin(t);
          pts.push(...apply(m, cx + mx * c - my * ratio * s, cy + my * c + mx * ratio * s));
        }
        return pl(pts, Math.abs(t1 - t0 - Math.PI * 2) < 1e-9);
      }
      case 'LWPOLYLINE': {
        const verts: { x: number; y: number; b: number }[] = [];
        for (const [c, v] of e.pairs) {
          if (c === 10) verts.push({ x: Number(v), y: 0, b: 0 });
          else if (c === 20 && verts.length) verts[verts.length - 1].y = Number(v);
          else if (c === 42 && verts.length) verts[verts.length - 1].b = Number(v);
        }
        return polyFrom(verts, (num(e, 70) & 1) === 1);
      }
      case 'POLYLINE': {
        const flags = num(e, 70);
        if (flags & (16 | 64)) return skip(e); // meshes come with the mesh decoder
        const verts = (e.children ?? []).filter((c) => c.type === 'VERTEX').map((v) => ({ x: num(v, 10), y: num(v, 20), b: num(v, 42) }));
        return polyFrom(verts, (flags & 1) === 1);
      }
      case 'SOLID':
      case 'TRACE':
      case '3DFACE': {
        const p = [0, 1, 2, 3].map((i) => apply(m, num(e, 10 + i), num(e, 20 + i)));
        // SOLID and TRACE store their corners in Z order: the third and fourth swap
        const ring = e.type === '3DFACE' ? [p[0], p[1], p[2], p[3]] : [p[0], p[1], p[3], p[2]];
        return pl(ring.flat(), true, e.type !== '3DFACE');
      }
      case 'TEXT':
      case 'ATTRIB':
      case 'MTEXT': {
        const raw = String(pairValue(e, 1) ?? '');
        const text = e.type === 'MTEXT' ? plainMText(raw + e.pairs.filter((p) => p[0] === 3).map((p) => String(p[1])).join('')) : raw;
        if (!text) return;
        const mtext = e.type === 'MTEXT';
        // aligned TEXT is placed by its second alignment point (11/21)
        const aligned = !mtext && (num(e, 72) !== 0 || num(e, 73) !== 0) && pairValue(e, 11) !== undefined;
        const [x, y] = apply(m, num(e, aligned ? 11 : 10), num(e, aligned ? 21 : 20));
        const sx = Math.hypot(m[0], m[1]);
        const sy = Math.hypot(m[2], m[3]);
        const det = m[0] * m[3] - m[1] * m[2];
        let rotation = num(e, 50);
        if (mtext && pairValue(e, 50) === undefined && pairValue(e, 11) !== undefined) rotation = (Math.atan2(num(e, 21), num(e, 11)) * 180) / Math.PI;
        const style = String(pairValue(e, 7) ?? 'Standard');
        const st = d.textStyles.find((t) => t.name.toLowerCase() === style.toLowerCase());
        out.texts.push({
          x, y, height: num(e, 40, 1) * sy, rotation: rotation + (Math.atan2(m[1], m[0]) * 180) / Math.PI, text, color, layer: onLayer, entity: ref,
          kind: mtext ? 'mtext' : 'text', raw: mtext ? raw + e.pairs.filter((p) => p[0] === 3).map((p) => String(p[1])).join('') : undefined,
          style, halign: mtext ? 0 : num(e, 72), valign: mtext ? 0 : num(e, 73), attachment: mtext ? num(e, 71, 1) : undefined,
          widthFactor: (mtext ? 1 : num(e, 41, st?.widthFactor || 1)) * (sy ? sx / sy : 1), oblique: mtext ? 0 : num(e, 51, st?.oblique ?? 0),
          boxWidth: mtext ? num(e, 41) * sx : undefined, mirrored: det < 0 || undefined,
        });
        return;
      }
      case 'INSERT': {
        const block = blocks.get(String(pairValue(e, 2) ?? ''));
        if (!block || depth > 16) return skip(e);
        const sx = num(e, 41, 1), sy = num(e, 42, 1), rot = (num(e, 50) * Math.PI) / 180;
        const cols = Math.max(1, num(e, 70, 1)), rows = Math.max(1, num(e, 71, 1)), dc = num(e, 44), dr = num(e, 45);
        const cos = Math.cos(rot), sin = Math.sin(rot);
        for (let r = 0; r < rows && r < 100; r++) {
          for (let c = 0; c < cols && c < 100; c++) {
            const ox = c * dc, oy = r * dr;
            const tx = num(e, 10) + ox * cos - oy * sin;
            const ty = num(e, 20) + ox * sin + oy * cos;
            const local: Affine = multiply([cos, sin, -sin, cos, tx, ty], [sx, 0, 0, sy, -block.base.x * sx, -block.base.y * sy]);
            const mm = multiply(m, local);
            for (const child of block.entities) emit(child, mm, color, depth + 1, ref, lineweight);
          }
        }
        for (const a of e.children ?? []) if (a.type === 'ATTRIB') emit(a, m, color, depth + 1, ref, lineweight);
        return;
      }
      case 'DIMENSION': {
        // a dimension draws through its anonymous block
        const block = blocks.get(String(pairValue(e, 2) ?? ''));
        if (!block) return skip(e);
        for (const child of block.entities) emit(child, m, color, depth + 1, ref, lineweight);
        return;
      }
      case 'VIEWPORT':
      case 'SEQEND':
        return;
      default:
        return skip(e);
    }

    function polyFrom(verts: { x: number; y: number; b: number }[], closed: boolean) {
      if (!verts.length) return;
      const pts = [...apply(m, verts[0].x, verts[0].y)];
      for (let i = 1; i < verts.length; i++) bulgeSegment(m, verts[i - 1].x, verts[i - 1].y, verts[i].x, verts[i].y, verts[i - 1].b, pts);
      if (closed && verts.length > 1) bulgeSegment(m, verts[verts.length - 1].x, verts[verts.length - 1].y, verts[0].x, verts[0].y, verts[verts.length - 1].b, pts);
      pl(pts, closed);
    }
  }

  function skip(e: Entity) {
    out.skipped[e.type] = (out.skipped[e.type] ?? 0) + 1;
  }

  for (const e of entities) emit(e, opts.transform ?? IDENTITY, 0xffffff, 0, -1, 0);
  return out;
}

/** MTEXT inline codes removed (the full MTEXT layout engine is a later step): \P newlines, {\f…;}, \H…; etc. */
export function plainMText(s: string): string {
  return s
    .replace(/\\P/g, '\n')
    .replace(/\\[ACcFfHhQqTtWw][^;]*;/g, '')
    .replace(/\\S([^^/#;]*)[\^/#]([^;]*);/g, '$1/$2')
    .replace(/\\[LlOoKk]/g, '')
    .replace(/[{}]/g, '')
    .replace(/\\~/g, ' ')
    .replace(/\\\\/g, '\\');
}
