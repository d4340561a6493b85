import type { Glyph } from './glyph.ts';

/**
 * Latin Extended letters for a stroke font that has only ASCII and Latin-1 (the bundled Hershey font, standing in
 * for txt.shx / simplex.shx): the base letter's strokes plus its accents drawn as strokes, so Polish, Czech,
 * Hungarian, Turkish, Romanian … text keeps the single-stroke look of the SHX text around it instead of switching
 * to the outline stand-in. Units as in Glyph: cap height 1, origin on the baseline.
 */

/** accent strokes centred on x = 0; marks above start at y = 0 (put above the letter), marks below hang from the baseline */
const ABOVE: Record<string, number[][]> = {
  '\u0300': [[0.07, 0, -0.07, 0.2]], // grave
  '\u0301': [[-0.07, 0, 0.07, 0.2]], // acute
  '\u0302': [[-0.14, 0, 0, 0.18, 0.14, 0]], // circumflex
  '\u0303': [[-0.16, 0.04, -0.08, 0.14, 0.08, 0.04, 0.16, 0.14]], // tilde
  '\u0304': [[-0.15, 0.08, 0.15, 0.08]], // macron
  '\u0306': [[-0.14, 0.18, -0.1, 0.06, 0, 0.02, 0.1, 0.06, 0.14, 0.18]], // breve
  '\u0307': [[-0.025, 0.05, 0.025, 0.05, 0.025, 0.1, -0.025, 0.1, -0.025, 0.05]], // dot above
  '\u0308': [[-0.125, 0.05, -0.075, 0.05, -0.075, 0.1, -0.125, 0.1, -0.125, 0.05], [0.075, 0.05, 0.125, 0.05, 0.125, 0.1, 0.075, 0.1, 0.075, 0.05]], // diaeresis
  '\u030a': [ring(0, 0.1, 0.07)], // ring
  '\u030b': [[-0.13, 0, -0.03, 0.2], [0.03, 0, 0.13, 0.2]], // double acute
  '\u030c': [[-0.14, 0.18, 0, 0, 0.14, 0.18]], // caron
};
const BELOW: Record<string, number[][]> = {
  '\u0326': [[0.02, -0.08, 0, -0.15, -0.05, -0.25]], // comma below (Ș Ț)
  '\u0327': [[0, 0, 0.02, -0.08, 0.1, -0.12, 0.07, -0.22, -0.06, -0.24]], // cedilla
};
/** ogonek: hangs from the right foot of the letter */
const OGONEK = '\u0328';
const OGONEK_STROKE = [0, 0, -0.08, -0.1, -0.05, -0.22, 0.06, -0.24];

/** letters with a bar through them have no decomposition: base letter and where the bar goes (in its ink box) */
const BARRED: Record<string, { base: string; bar: (b: Box) => number[] }> = {
  Ł: { base: 'L', bar: (b) => [b.x0 - 0.1, 0.38, b.x0 + 0.25, 0.62] },
  ł: { base: 'l', bar: (b) => [(b.x0 + b.x1) / 2 - 0.15, 0.42, (b.x0 + b.x1) / 2 + 0.15, 0.66] },
  Đ: { base: 'D', bar: (b) => [b.x0 - 0.1, 0.5, b.x0 + 0.3, 0.5] },
  đ: { base: 'd', bar: (b) => [b.x1 - 0.25, 0.85, b.x1 + 0.1, 0.85] },
  Ħ: { base: 'H', bar: (b) => [b.x0 - 0.08, 0.78, b.x1 + 0.08, 0.78] },
  ħ: { base: 'h', bar: (b) => [b.x0 - 0.1, 0.85, b.x0 + 0.25, 0.85] },
};

interface Box {
  x0: number;
  x1: number;
  y1: number;
}

function ring(cx: number, cy: number, r: number): number[] {
  const pts: number[] = [];
  for (let i = 0; i <= 8; i++) pts.push(cx + r * Math.cos((i * Math.PI) / 4), cy + r * Math.sin((i * Math.PI) / 4));
  return pts;
}

function inkBox(g: Glyph): Box | null {
  let x0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const s of g.strokes ?? []) {
    for (let i = 0; i < s.length; i += 2) {
      x0 = Math.min(x0, s[i]);
      x1 = Math.max(x1, s[i]);
      y1 = Math.max(y1, s[i + 1]);
    }
  }
  return x0 <= x1 ? { x0, x1, y1 } : null;
}

const moved = (s: number[], dx: number, dy: number) => s.map((v, i) => v + (i % 2 ? dy : dx));

/**
 * `ch` built from a base letter the font has and accents drawn here, or undefined when `ch` is no accented Latin
 * letter (or its base is missing too). Dotted i and j lose their dot under an accent.
 */
export function composeLatin(ch: string, base: (c: string) => Glyph | undefined): Glyph | undefined {
  const barred = BARRED[ch];
  if (barred) {
    const g = base(barred.base);
    const b = g && inkBox(g);
    return g && b ? { advance: g.advance, strokes: [...(g.strokes ?? []), barred.bar(b)] } : undefined;
  }
  if (ch === 'ı' || ch === 'ȷ') {
    // dotless i / j (Turkish)
    const g = base(ch === 'ı' ? 'i' : 'j');
    return g ? { advance: g.advance, strokes: dropDot(g.strokes ?? []) } : undefined;
  }
  const parts = ch.normalize('NFD');
  // the base may be any letter the font has (Latin, and Greek or Cyrillic once read: ά, Ё)
  if (parts.length < 2) return undefined;
  const marks = [...parts.slice(1)];
  if (!marks.every((m) => ABOVE[m] || BELOW[m] || m === OGONEK)) return undefined;
  // i and j under an accent above: the dotless forms, i.e. the stem without the dot (the dot is the short stroke)
  const baseChar = parts[0];
  let g = base(baseChar);
  if (!g) return undefined;
  if ((baseChar === 'i' || baseChar === 'j') && marks.some((m) => ABOVE[m])) g = { ...g, strokes: dropDot(g.strokes ?? []) };
  const b = inkBox(g);
  if (!b) return undefined;
  const strokes = [...(g.strokes ?? [])];
  const cx = (b.x0 + b.x1) / 2;
  let top = b.y1 + 0.12;
  for (const m of marks) {
    if (ABOVE[m]) {
      for (const s of ABOVE[m]) strokes.push(moved(s, cx, top));
      top += 0.26;
    } else if (BELOW[m]) for (const s of BELOW[m]) strokes.push(moved(s, cx, 0));
    else strokes.push(moved(OGONEK_STROKE, b.x1 - 0.06, 0));
  }
  return { advance: g.advance, strokes };
}

/** the stroke whose ink sits highest and is shortest: the dot of i / j */
function dropDot(strokes: number[][]): number[][] {
  if (strokes.length < 2) return strokes;
  const size = (s: number[]) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 1; i < s.length; i += 2) (lo = Math.min(lo, s[i])), (hi = Math.max(hi, s[i]));
    return { lo, span: hi - lo };
  };
  let dot = -1;
  for (let k = 0; k < strokes.length; k++) {
    const z = size(strokes[k]);
    if (z.span < 0.15 && (dot < 0 || z.lo > size(strokes[dot]).lo)) dot = k;
  }
  return dot < 0 ? strokes : strokes.filter((_s, k) => k !== dot);
}
