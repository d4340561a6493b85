import type { Glyph } from './glyph.ts';

/**
 * Greek and Cyrillic stroke glyphs for the SHX stand-in, from the original Hershey fonts in `hersheytext` 2.0.0's
 * hersheytext.min.json (MIT package; Hershey font data, free use). Those fonts sit on ASCII keys (Greek "a" is α,
 * Cyrillic "q" is ш), each character as SVG path data with y down and `o` half its advance; chars[i] is the
 * character i + 33. The key tables below were read off a render of every glyph.
 */
export const HERSHEY_SCRIPTS_FILE = 'hersheytext/hersheytext.min.json';

interface JsonFont {
  chars: { d: string; o: number }[];
}

const GREEK: [string, string] = ['ABGDEZHQIKLMNXOPRSTUFCYWabgdezhqiklmnxoprstufcyw', 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρστυφχψω'];
// Й is composed from И and a breve (key E draws an И); key c draws a capital Э, so lowercase э is left to the outline stand-in
const CYRILLIC: [string, string] = ['ABCDFGHIJKLMNOPQRSTUVWXYZ[]^_$`abdefghijklmnopqrstuvwxyz{|}~&%', 'АБЭДФГЖИЧКЛМНОПШРСТЮВЩХУЗЕЪЯЬЫЦабдйфгжичклмнопшрстювщхузеъяьыц'];

/** true for the characters these fonts may draw (Greek and Cyrillic blocks): only then is the file worth reading */
export const isGreekOrCyrillic = (ch: string) => /[\u0370-\u03ff\u0400-\u04ff]/.test(ch);

/** The Greek and Cyrillic glyphs, in the Glyph units of the stroke font (cap height 1, y up, ink centred in its advance). */
export function parseHersheyScripts(json: string): Map<string, Glyph> {
  const fonts = JSON.parse(json) as Record<string, JsonFont>;
  const out = new Map<string, Glyph>();
  for (const [font, [keys, letters]] of [['greek', GREEK], ['cyrillic', CYRILLIC]] as const) {
    const f = fonts[font];
    if (!f?.chars) continue;
    const raw = (key: string) => f.chars[key.charCodeAt(0) - 33];
    // capital A: its lowest point is the baseline, its height the cap height
    const a = raw('A');
    if (!a) continue;
    const aStrokes = strokesOf(a.d);
    const ys = aStrokes.flatMap((s) => s.filter((_v, i) => i % 2 === 1));
    const base = Math.max(...ys), cap = base - Math.min(...ys) || 21;
    const letterList = [...letters];
    for (let i = 0; i < keys.length; i++) {
      const r = raw(keys[i]);
      if (!r) continue;
      const strokes = strokesOf(r.d).map((s) => s.map((v, k) => (k % 2 ? (base - v) / cap : v / cap)));
      let lo = Infinity, hi = -Infinity;
      for (const s of strokes) for (let k = 0; k < s.length; k += 2) (lo = Math.min(lo, s[k])), (hi = Math.max(hi, s[k]));
      if (lo > hi) continue;
      // as the SVG font's glyphs: the ink centred in its advance, with a fifth of the cap height of room
      const adv = Math.max((2 * r.o) / cap, hi - lo + 0.2);
      const shift = (adv - (hi - lo)) / 2 - lo;
      for (const s of strokes) for (let k = 0; k < s.length; k += 2) s[k] += shift;
      out.set(letterList[i], { advance: adv, strokes });
    }
  }
  return out;
}

/** "M4,1 L4,22 M4,1 L13,1 16,2" → polylines [x y x y …] */
function strokesOf(d: string): number[][] {
  const out: number[][] = [];
  for (const part of d.split('M').slice(1)) {
    const nums = part.replace(/L/g, ' ').trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (nums.length >= 4) out.push(nums);
  }
  return out;
}
