/**
 * Lengths and coordinates as AutoCAD shows them (DIST, ID, LIST) in the drawing's linear unit format: $LUNITS with
 * $LUPREC, read from the drawing's header into the scene (packages/cad/src/scene/compile.ts). Pure, unit-tested.
 *   1 scientific     1.5500E+01            LUPREC decimals
 *   2 decimal        15.5000               LUPREC decimals
 *   3 engineering    1'-3.5000"            feet and decimal inches (a drawing unit is an inch), LUPREC decimals
 *   4 architectural  1'-3 1/2"             feet, inches and a fraction of 1/2^LUPREC inch, reduced
 *   5 fractional     15 1/2                whole units and a fraction of 1/2^LUPREC, reduced
 * AutoCAD shows the precision's trailing zeros in formats 1–3, and so do we: 40.0000 is what its DIST prints.
 */
export interface LinearUnits {
  /** $LUNITS: 1 scientific, 2 decimal, 3 engineering, 4 architectural, 5 fractional (6, Windows desktop: decimal) */
  format: number;
  /** $LUPREC: decimals (formats 1–3) or the fraction's power of two (4–5), 0–8 */
  precision: number;
}

const clampPrecision = (p: number) => (Number.isFinite(p) ? Math.min(8, Math.max(0, Math.trunc(p))) : 4);

/** A whole part and a fraction of 1/2^precision, rounded and reduced: 15.5, 4 → [15, 1, 2]. */
function fraction(v: number, precision: number): [number, number, number] {
  let den = 2 ** precision;
  let num = Math.round(v * den);
  const whole = Math.floor(num / den);
  num -= whole * den;
  while (num && num % 2 === 0) {
    num /= 2;
    den /= 2;
  }
  return [whole, num, den];
}

const fractionText = (whole: number, num: number, den: number, wholeZero: boolean) =>
  num ? (whole || wholeZero ? `${whole} ${num}/${den}` : `${num}/${den}`) : String(whole);

/** `value` in drawing units as the drawing's unit format writes it. */
export function formatLinear(value: number, u: LinearUnits): string {
  const p = clampPrecision(u.precision);
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const v = Math.abs(value);
  switch (u.format) {
    case 1: {
      const [m, e] = v.toExponential(p).split('e');
      const exp = Number(e);
      return `${sign}${m}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    }
    case 3: {
      // rounded as a whole first: 11.99996" at 4 decimals is 1'-0.0000", not 0'-12.0000"
      const inches = Number(v.toFixed(p));
      const feet = Math.floor(inches / 12 + 1e-9);
      return `${sign}${feet}'-${(inches - feet * 12).toFixed(p)}"`;
    }
    case 4: {
      const [whole, num, den] = fraction(v, p);
      const feet = Math.floor(whole / 12);
      return `${sign}${feet}'-${fractionText(whole - feet * 12, num, den, true)}"`;
    }
    case 5: {
      const [whole, num, den] = fraction(v, p);
      return `${sign}${fractionText(whole, num, den, false)}`;
    }
    default: {
      const s = v.toFixed(p);
      // -0.0000 is 0.0000
      return Number(s) === 0 ? s : `${sign}${s}`;
    }
  }
}

/**
 * An area in square drawing units: decimals as the format's precision (AutoCAD's AREA writes areas as decimals in
 * every format; scientific keeps its notation), and for the inch-based formats also in square feet, as AREA does.
 */
export function formatArea(value: number, u: LinearUnits): { area: string; squareFeet?: string } {
  const p = clampPrecision(u.precision);
  if (u.format === 1) return { area: formatLinear(value, u) };
  const decimals = u.format === 4 || u.format === 5 ? 4 : p;
  return { area: value.toFixed(decimals), ...(u.format === 3 || u.format === 4 ? { squareFeet: (value / 144).toFixed(decimals) } : {}) };
}

/** Whether the format writes its own feet and inch marks (then the unit's name would only repeat them). */
export const marksUnits = (u: LinearUnits | undefined) => u?.format === 3 || u?.format === 4;
