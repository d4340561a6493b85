/**
 * Gradient hatches (450 = 1) as bands of solid colour, so every output draws them with what it already has (filled
 * polylines): PNG, PDF, SVG and the viewer alike, in draw order. AutoCAD's nine kinds (470):
 * - LINEAR: colour 1 → colour 2 along the angle (460);
 * - CYLINDER: colour 2 (the light) along the middle, colour 1 at both sides; INVCYLINDER the other way round;
 * - SPHERICAL: colour 2 at the centre, colour 1 at the rim; INVSPHERICAL the other way round;
 * - HEMISPHERICAL: as SPHERICAL with the centre on the bottom edge of the area; INVHEMISPHERICAL the other way round;
 * - CURVED: colour 2 at the bottom edge running into colour 1 on a quarter-circle curve (quick at first, then flat),
 *   across the angle; INVCURVED the other way round.
 * The frame is the hatch area's box turned by the angle; shift (461, 0–1, "not centred") moves the centre of the
 * symmetric kinds and the ramp of the linear ones by that share of half the box, towards its top-left as AutoCAD's
 * dialog shows. A one-colour gradient (452 = 1) makes its second colour from the first by the tint (462): 0 black,
 * 0.5 the colour itself, 1 white. (ezdxf's drawing add-on fills a gradient with one colour: it is no reference here;
 * these choices follow AutoCAD's gradient dialog previews.)
 * Bands: linear kinds as parallel strips, radial kinds as nested discs painted from the largest (later ones cover the
 * middle), each clipped to the area (Sutherland–Hodgman against the convex band, islands clipped alike).
 */
import type { Entity } from '../model/drawing.ts';
import { aciToRgb, trueColorRgb } from './aci.ts';

export interface Gradient {
  name: string;
  angle: number;
  shift: number;
  /** colour 1 and colour 2, 0xRRGGBB */
  colors: [number, number];
}

const KINDS = new Set(['LINEAR', 'CYLINDER', 'INVCYLINDER', 'SPHERICAL', 'INVSPHERICAL', 'HEMISPHERICAL', 'INVHEMISPHERICAL', 'CURVED', 'INVCURVED']);
/** bands per gradient: at 48 steps a two-colour ramp changes by under 6 levels of 255 a band */
const BANDS = 48;

/** The gradient of a HATCH (null: none). `fallback`: the entity's colour, for a gradient whose colours are missing. */
export function readGradient(e: Entity, fallback: number): Gradient | null {
  const p = e.pairs;
  let on = false, oneColor = false, tint = 0.5, angle = 0, shift = 0, name = 'LINEAR';
  const colors: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const [c, v] = p[i];
    if (c === 450) on = Number(v) === 1;
    else if (c === 452) oneColor = Number(v) === 1;
    else if (c === 460) angle = Number(v) || 0;
    else if (c === 461) shift = Number(v) || 0;
    else if (c === 462) tint = Number(v);
    else if (c === 470) name = String(v).trim().toUpperCase() || name;
    else if (c === 463) {
      // one colour: its index (63) and/or true colour (421), the true colour winning
      let aci: number | undefined, rgb: number | undefined;
      for (let j = i + 1; j < p.length && p[j][0] !== 463 && (p[j][0] === 63 || p[j][0] === 421); j++) {
        if (p[j][0] === 63) aci = Number(p[j][1]);
        else rgb = Number(p[j][1]);
      }
      colors.push(rgb !== undefined ? trueColorRgb(rgb) : aci !== undefined ? aciToRgb(Math.abs(aci)) : fallback);
    }
  }
  if (!on) return null;
  const c1 = colors[0] ?? fallback;
  const t = Number.isFinite(tint) ? Math.min(1, Math.max(0, tint)) : 0.5;
  const c2 = oneColor || colors.length < 2 ? (t < 0.5 ? mix(0x000000, c1, t * 2) : mix(c1, 0xffffff, (t - 0.5) * 2)) : colors[1];
  // the file writes ACI 7's white for white gradients: a gradient colour is a colour, never the swapped ink
  const keep = (c: number) => (c === 0xffffff ? trueColorRgb(c) : c);
  return { name: KINDS.has(name) ? name : 'LINEAR', angle, shift: Number.isFinite(shift) ? Math.min(1, Math.max(0, shift)) : 0, colors: [keep(c1), keep(c2)] };
}

/** a + (b − a) t per channel */
export function mix(a: number, b: number, t: number): number {
  const ch = (s: number) => Math.round(((a >> s) & 255) + (((b >> s) & 255) - ((a >> s) & 255)) * t);
  const rgb = (ch(16) << 16) | (ch(8) << 8) | ch(0);
  return rgb === 0xffffff ? trueColorRgb(rgb) : rgb;
}

export interface Band {
  ring: number[];
  holes: number[][];
  color: number;
}

/**
 * The gradient over an area (outer ring and islands, in the hatch's own plane) as bands in paint order. Each band
 * overlaps its neighbour by a hair so no seam of the background shows between them.
 */
export function gradientBands(g: Gradient, outer: number[], holes: number[][]): Band[] {
  const cos = Math.cos(g.angle), sin = Math.sin(g.angle);
  // the box in the gradient's frame: u along the angle, v across it
  let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
  for (let i = 0; i + 1 < outer.length; i += 2) {
    const u = outer[i] * cos + outer[i + 1] * sin, v = -outer[i] * sin + outer[i + 1] * cos;
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    v0 = Math.min(v0, v);
    v1 = Math.max(v1, v);
  }
  const w = u1 - u0, h = v1 - v0;
  if (!(w > 0) || !(h > 0)) return [];
  const toXY = (u: number, v: number): [number, number] => [u * cos - v * sin, u * sin + v * cos];
  const [c1, c2] = g.colors;
  const kind = g.name;
  const inv = kind.startsWith('INV');
  const [from, to] = inv ? [c2, c1] : [c1, c2];
  const out: Band[] = [];
  const band = (convex: number[], color: number) => {
    const ring = clipToConvex(outer, convex);
    if (ring.length < 6) return;
    out.push({ ring, holes: holes.map((hh) => clipToConvex(hh, convex)).filter((hh) => hh.length >= 6), color });
  };
  // the shift: towards the box's top-left (−u, +v), by that share of half the box
  const su = -g.shift * (w / 2), sv = g.shift * (h / 2);
  if (kind === 'LINEAR' || kind.endsWith('CYLINDER') || kind.endsWith('CURVED')) {
    const across = kind.endsWith('CURVED');
    // strips across u (or across v for CURVED); t(s) in 0..1 over the strip's middle
    const lo = across ? v0 : u0, span = across ? h : w, shifted = across ? sv : su;
    const pad = span * 1e-3;
    for (let k = 0; k < BANDS; k++) {
      const a = lo + (span * k) / BANDS, b = lo + (span * (k + 1)) / BANDS;
      const s = (a + b) / 2 - lo - shifted;
      const x = Math.min(1, Math.max(0, s / span));
      let color: number;
      if (kind === 'LINEAR') color = mix(c1, c2, x);
      else if (kind.endsWith('CYLINDER')) color = mix(to, from, Math.min(1, Math.abs(2 * x - 1)));
      // a quarter circle: quick change near the bottom edge, flat towards the top
      else color = mix(to, from, Math.sqrt(1 - (1 - x) * (1 - x)));
      const e0 = a - (k ? pad : span), e1 = b + (k < BANDS - 1 ? pad : span);
      const big = Math.max(w, h) * 2;
      const quad = across
        ? [...toXY(u0 - big, e0), ...toXY(u1 + big, e0), ...toXY(u1 + big, e1), ...toXY(u0 - big, e1)]
        : [...toXY(e0, v0 - big), ...toXY(e1, v0 - big), ...toXY(e1, v1 + big), ...toXY(e0, v1 + big)];
      band(quad, color);
    }
    return out;
  }
  // radial kinds: discs about the centre (the bottom edge's middle for the hemispherical ones), largest first
  const cu = (u0 + u1) / 2 + su, cv = (kind.endsWith('HEMISPHERICAL') ? v0 : (v0 + v1) / 2) + sv;
  let reach = 0;
  for (const [bu, bv] of [[u0, v0], [u1, v0], [u1, v1], [u0, v1]]) reach = Math.max(reach, Math.hypot(bu - cu, bv - cv));
  const rim = kind.endsWith('HEMISPHERICAL') ? Math.max(w, h) : Math.hypot(w, h) / 2;
  for (let k = BANDS; k >= 1; k--) {
    const r = (rim * k) / BANDS;
    const x = (r - rim / BANDS / 2) / rim;
    const color = mix(to, from, Math.min(1, Math.max(0, x)));
    // the outermost disc reaches every corner, so nothing is left unpainted past the rim
    const radius = k === BANDS ? Math.max(r, reach) * 1.01 : r * 1.001;
    const disc: number[] = [];
    for (let s = 0; s < 64; s++) disc.push(...toXY(cu + radius * Math.cos((s * Math.PI) / 32), cv + radius * Math.sin((s * Math.PI) / 32)));
    band(disc, color);
  }
  return out;
}

/** Sutherland–Hodgman: the ring x0 y0 … clipped by a convex polygon (either winding). */
export function clipToConvex(ring: readonly number[], convex: readonly number[]): number[] {
  let pts = ring.slice();
  const n = convex.length / 2;
  // the convex polygon's winding: its inside is on the left of each edge when counter-clockwise
  let area = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area += convex[2 * i] * convex[2 * j + 1] - convex[2 * j] * convex[2 * i + 1];
  }
  const sign = area >= 0 ? 1 : -1;
  for (let i = 0; i < n && pts.length >= 6; i++) {
    const j = (i + 1) % n;
    const ax = convex[2 * i], ay = convex[2 * i + 1], bx = convex[2 * j], by = convex[2 * j + 1];
    const side = (x: number, y: number) => sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax));
    const next: number[] = [];
    const m = pts.length / 2;
    for (let k = 0; k < m; k++) {
      const px = pts[2 * k], py = pts[2 * k + 1];
      const qx = pts[2 * ((k + 1) % m)], qy = pts[2 * ((k + 1) % m) + 1];
      const sp = side(px, py), sq = side(qx, qy);
      if (sp >= 0) next.push(px, py);
      if ((sp >= 0) !== (sq >= 0)) {
        const t = sp / (sp - sq);
        next.push(px + (qx - px) * t, py + (qy - py) * t);
      }
    }
    pts = next;
  }
  return pts.length >= 6 ? pts : [];
}
