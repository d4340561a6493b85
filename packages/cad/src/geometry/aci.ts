/**
 * The colour model's one convention: 0xFFFFFF is the *foreground* ink, ACI 7 (and ByLayer/ByBlock resolving to it),
 * which every renderer swaps with the background: black on a light sheet or in a plot, white on a dark screen. A
 * white that must stay white (ACI 255, a true colour 0xFFFFFF, a white fill hiding what lies under it, as AutoCAD
 * plots them) is stored one step below, as WHITE: the eye and the printer cannot tell 0xFEFEFE from white, and every
 * layer of the pipeline (flattening, scene bytes, the viewer's shaders, PNG/PDF/SVG) already carries plain 0xRRGGBB,
 * so no flag has to travel beside the colour.
 */
export const FOREGROUND = 0xffffff;
export const WHITE = 0xfefefe;

/** A true colour (DXF 420, DWG RGB; a colour book's 430 comes with its 420) as 0xRRGGBB: white stays white. */
export function trueColorRgb(v: number): number {
  const rgb = v & 0xffffff;
  return rgb === FOREGROUND ? WHITE : rgb;
}

/** AutoCAD Color Index → RGB for the standard indices 1–9 and the grey ramp 250–255; the rest by the ACI hue wheel. */
const BASE: Record<number, number> = { 1: 0xff0000, 2: 0xffff00, 3: 0x00ff00, 4: 0x00ffff, 5: 0x0000ff, 6: 0xff00ff, 7: FOREGROUND, 8: 0x808080, 9: 0xc0c0c0, 250: 0x333333, 251: 0x505050, 252: 0x696969, 253: 0x828282, 254: 0xbebebe, 255: WHITE };

export function aciToRgb(aci: number): number {
  if (BASE[aci] !== undefined) return BASE[aci];
  if (aci < 10 || aci > 249) return 0xffffff;
  // indices 10–249: 24 hues × 10 shades (even: full saturation, odd: half), value falling by pairs
  const hue = Math.floor((aci - 10) / 10) * 15;
  const shade = (aci - 10) % 10;
  const value = [1, 1, 0.8, 0.8, 0.6, 0.6, 0.5, 0.5, 0.3, 0.3][shade];
  const sat = shade % 2 === 0 ? 1 : 0.5;
  const c = value * sat;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = value - c;
  const [r, g, b] = hue < 60 ? [c, x, 0] : hue < 120 ? [x, c, 0] : hue < 180 ? [0, c, x] : hue < 240 ? [0, x, c] : hue < 300 ? [x, 0, c] : [c, 0, x];
  return (Math.round((r + m) * 255) << 16) | (Math.round((g + m) * 255) << 8) | Math.round((b + m) * 255);
}
