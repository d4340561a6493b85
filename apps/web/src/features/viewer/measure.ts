/** Measuring on drawing coordinates: pure functions, unit-tested, the viewer only collects the points. */
export type Pt = { x: number; y: number };

export const distance = (a: Pt, b: Pt) => Math.hypot(b.x - a.x, b.y - a.y);

/** Shoelace area and perimeter of a closed polygon. */
export function areaOf(pts: Pt[]): { area: number; perimeter: number } {
  let a = 0, p = 0;
  for (let i = 0; i < pts.length; i++) {
    const j = (i + 1) % pts.length;
    a += pts[i].x * pts[j].y - pts[j].x * pts[i].y;
    p += distance(pts[i], pts[j]);
  }
  return { area: Math.abs(a) / 2, perimeter: pts.length > 1 ? p : 0 };
}

/** Angle at `vertex` between the rays to `a` and `b`, in degrees (0–180). */
export function angleAt(a: Pt, vertex: Pt, b: Pt): number {
  const a1 = Math.atan2(a.y - vertex.y, a.x - vertex.x), a2 = Math.atan2(b.y - vertex.y, b.x - vertex.x);
  let d = Math.abs(a1 - a2) * (180 / Math.PI);
  if (d > 180) d = 360 - d;
  return d;
}

/** Numbers as a CAD user reads them: up to 4 decimals, no trailing zeros. */
export const fmt = (n: number) => (Math.abs(n) >= 1e9 ? n.toExponential(4) : String(+n.toFixed(4)));

/** $INSUNITS codes (AutoCAD's table) and their symbols; 0 (unitless) and unknown codes have none. */
const UNIT_SYMBOLS: Record<number, string> = {
  1: 'in', 2: 'ft', 3: 'mi', 4: 'mm', 5: 'cm', 6: 'm', 7: 'km', 8: 'µin', 9: 'mil', 10: 'yd', 11: 'Å', 12: 'nm', 13: 'µm', 14: 'dm', 15: 'dam', 16: 'hm', 17: 'Gm', 18: 'AU', 19: 'ly', 20: 'pc', 21: 'US ft', 22: 'US in', 23: 'US yd', 24: 'US mi',
};
export function unitSymbol(insunits: number | undefined): string | null {
  return insunits === undefined ? null : UNIT_SYMBOLS[insunits] ?? null;
}
