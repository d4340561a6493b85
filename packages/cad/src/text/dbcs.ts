/**
 * Unicode → double-byte code page values for SHX big fonts, whose glyphs are keyed by the code page's byte pair
 * (GBK for gbcbig.shx, Big5 for chineset.shx …), not by Unicode. TextEncoder only writes UTF-8, so each table is
 * built once by decoding every lead/trail byte pair with TextDecoder (Node's full ICU knows all of them).
 */
export type DbcsLabel = 'gbk' | 'big5' | 'shift_jis' | 'euc-kr';

const tables = new Map<DbcsLabel, Map<number, number>>();

function build(label: DbcsLabel): Map<number, number> {
  const map = new Map<number, number>();
  const dec = new TextDecoder(label);
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[0] = lead;
      pair[1] = trail;
      const s = dec.decode(pair);
      // one character that is not the replacement character: the pair is a real code point of that code page
      if (s.length === 1 && s !== '\uFFFD') {
        const cp = s.charCodeAt(0);
        if (!map.has(cp)) map.set(cp, (lead << 8) | trail);
      }
    }
  }
  // Shift-JIS single-byte half-width katakana
  if (label === 'shift_jis') for (let b = 0xa1; b <= 0xdf; b++) map.set(new TextDecoder('shift_jis').decode(new Uint8Array([b])).charCodeAt(0), b);
  return map;
}

/** The code page value of `ch` in `label`, or undefined when the code page has no such character. */
export function toDbcs(label: DbcsLabel, ch: string): number | undefined {
  let t = tables.get(label);
  if (!t) tables.set(label, (t = build(label)));
  return t.get(ch.charCodeAt(0));
}

/** Which code page a big font uses: the drawing's own DBCS code page, else a guess from well-known file names. */
export function bigFontCodePage(fileName: string, drawingCodePage: string): DbcsLabel {
  const n = fileName.toLowerCase();
  if (/^(gb|hz|china|chs)/.test(n)) return 'gbk';
  if (/^(chineset|big5|cht|tw)/.test(n)) return 'big5';
  if (/^(whg|hangul|kor|hanja|kss)/.test(n)) return 'euc-kr';
  if (/^(bigfont|extfont|jis|ext)/.test(n)) return 'shift_jis';
  const cp = drawingCodePage.toUpperCase();
  if (cp === 'ANSI_950') return 'big5';
  if (cp === 'ANSI_932') return 'shift_jis';
  if (cp === 'ANSI_949' || cp === 'ANSI_1361') return 'euc-kr';
  return 'gbk';
}
