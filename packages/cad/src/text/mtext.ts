/**
 * MTEXT inline codes and TEXT %% specials to a flat list of items with their formatting. The reader has already
 * turned \U+XXXX and \M+nXXXX into characters (dxf/codepage.ts decodeEscapes), so they arrive here as text.
 */
import { trueColorRgb } from '../geometry/aci.ts';
export interface Format {
  /** MTEXT \f / \F font name, undefined = the style's font */
  font?: string;
  fontKind?: 'shx' | 'ttf';
  /** absolute height in drawing units */
  height: number;
  widthFactor: number;
  /** degrees */
  oblique: number;
  tracking: number;
  /** 0xRRGGBB, undefined = the entity's colour */
  color?: number;
  underline: boolean;
  overline: boolean;
  strike: boolean;
  /** \A: 0 bottom (baseline), 1 center, 2 top */
  valign: number;
  /** \f…|i1 (or an italic style): the family's italic face, or slanted by 15° on top of the oblique angle when it has none */
  italic?: boolean;
  /** \f…|b1 (or a bold style): the family's bold face when it has one */
  bold?: boolean;
}

export type Item =
  | { t: 'char'; ch: string; f: Format }
  | { t: 'stack'; top: string; bottom: string; kind: '^' | '/' | '#'; f: Format }
  | { t: 'para'; align?: 'l' | 'c' | 'r' | 'j' | 'default'; column?: boolean }
  /** the alignment of the first paragraph (a \p code before any break): sets it without starting a line */
  | { t: 'align'; align: 'l' | 'c' | 'r' | 'j' | 'default' };

const SPECIALS: Record<string, string> = { c: '\u2205', d: '\u00b0', p: '\u00b1' };

/** %%c %%d %%p %%nnn %%% (and %%u %%o %%k toggles, applied through `toggle`) at s[i]; returns chars consumed or 0 */
function percent(s: string, i: number, emit: (ch: string) => void, toggle: (k: 'underline' | 'overline' | 'strike') => void): number {
  if (s[i] !== '%' || s[i + 1] !== '%' || i + 2 >= s.length) return 0;
  const c = s[i + 2].toLowerCase();
  if (SPECIALS[c]) return emit(SPECIALS[c]), 3;
  if (c === '%') return emit('%'), 3;
  if (c === 'u') return toggle('underline'), 3;
  if (c === 'o') return toggle('overline'), 3;
  if (c === 'k') return toggle('strike'), 3;
  const m = /^\d{1,3}/.exec(s.slice(i + 2));
  if (m) return emit(String.fromCharCode(Number(m[0]))), 2 + m[0].length;
  return 0;
}

/** TEXT/ATTRIB: plain characters with %% specials. */
export function parseText(s: string, base: Format): Item[] {
  const items: Item[] = [];
  let f = { ...base };
  for (let i = 0; i < s.length; ) {
    // the two callbacks only for a '%' (not made for every character)
    const n = s[i] === '%' ? percent(s, i, (ch) => items.push({ t: 'char', ch, f }), (k) => (f = { ...f, [k]: !f[k] })) : 0;
    if (n) {
      i += n;
      continue;
    }
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    items.push({ t: 'char', ch, f });
    i += ch.length;
  }
  return items;
}

function num(v: string, def: number): number {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : def;
}

/** MTEXT: \P \X \N breaks, \~ \\ \{ \}, {…} groups, \f \F \H \W \Q \T \C \c \L \O \K \A \p \S and %% specials. */
/** The argument of an MTEXT code starting at `from`, up to its ';', and where reading goes on. */
function readArg(s: string, from: number): [string, number] {
  const end = s.indexOf(';', from);
  return end < 0 ? [s.slice(from), s.length] : [s.slice(from, end), end + 1];
}

/** `f` with `patch` applied (a new Format: items hold the one they were read with). */
function patched(f: Format, patch: Partial<Format>): Format {
  return { ...f, ...patch };
}

// no closures made per call here (`set`, `readArg` were): with tsx's keepNames every one made costs a name
// definition, and this runs for every MTEXT of a drawing
export function parseMText(s: string, base: Format, aciToRgb: (aci: number) => number): Item[] {
  const items: Item[] = [];
  const stack: Format[] = [];
  let f: Format = { ...base };
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '{') {
      stack.push(f);
      i++;
      continue;
    }
    if (c === '}') {
      f = stack.pop() ?? f;
      i++;
      continue;
    }
    if (c === '\n') {
      items.push({ t: 'para' });
      i++;
      continue;
    }
    if (c === '\\' && i + 1 < s.length) {
      const code = s[i + 1];
      i += 2;
      switch (code) {
        case 'P':
        case 'X':
          items.push({ t: 'para' });
          continue;
        case 'N':
          items.push({ t: 'para', column: true });
          continue;
        case '~':
          items.push({ t: 'char', ch: '\u00a0', f });
          continue;
        case '\\':
        case '{':
        case '}':
          items.push({ t: 'char', ch: code, f });
          continue;
        case 'L': f = patched(f, { underline: true }); continue;
        case 'l': f = patched(f, { underline: false }); continue;
        case 'O': f = patched(f, { overline: true }); continue;
        case 'o': f = patched(f, { overline: false }); continue;
        case 'K': f = patched(f, { strike: true }); continue;
        case 'k': f = patched(f, { strike: false }); continue;
      }
      const [arg, next] = readArg(s, i);
      i = next;
      switch (code) {
        case 'f':
        case 'F': {
          const [first, ...flags] = arg.split('|');
          const name = first.split(',')[0].trim();
          f = patched(f, name ? { font: name, fontKind: code === 'F' || /\.shx$/i.test(name) ? 'shx' : 'ttf' } : { font: undefined, fontKind: undefined });
          // the face of a TrueType family: |b1 bold, |i1 italic (|b0 |i0 the regular face)
          const italic = flags.find((x) => x.startsWith('i'));
          if (italic) f = patched(f, { italic: italic === 'i1' });
          const bold = flags.find((x) => x.startsWith('b'));
          if (bold) f = patched(f, { bold: bold === 'b1' });
          break;
        }
        case 'H':
          f = patched(f, { height: /x$/i.test(arg) ? f.height * num(arg, 1) : num(arg, f.height) });
          break;
        case 'W':
          f = patched(f, { widthFactor: /x$/i.test(arg) ? f.widthFactor * num(arg, 1) : num(arg, f.widthFactor) });
          break;
        case 'Q':
          f = patched(f, { oblique: num(arg, 0) });
          break;
        case 'T':
          f = patched(f, { tracking: Math.max(0.75, num(arg, 1)) });
          break;
        case 'A':
          f = patched(f, { valign: Math.max(0, Math.min(2, Math.trunc(num(arg, 0)))) });
          break;
        case 'C': {
          const aci = Math.trunc(num(arg, 256));
          f = patched(f, { color: aci === 256 || aci === 0 ? base.color : aciToRgb(aci) });
          break;
        }
        case 'c':
          f = patched(f, { color: trueColorRgb(Math.trunc(num(arg, 0))) });
          break;
        case 'p': {
          // \pxqc; \pxi0,qj; \pi1,q*; — q sets the alignment of the paragraph it starts and those after, q* resets
          const q = arg.replace(/^x/, '').split(',').find((part) => part.startsWith('q'));
          if (q) {
            const a = q[1] === '*' ? 'default' : ((q[1] === 'd' ? 'j' : q[1]) as 'l' | 'c' | 'r' | 'j');
            let last: Item | undefined;
            for (let k = items.length - 1; k >= 0 && !last; k--) if (items[k].t === 'para') last = items[k];
            if (last && last.t === 'para') last.align = a;
            // the first paragraph has no break before it: a break put there would push the text one line down
            else if (items[0]?.t === 'align') items[0].align = a;
            else items.unshift({ t: 'align', align: a });
          }
          break;
        }
        case 'S': {
          // a^b; (tolerance, no bar), a/b; (fraction bar), a#b; (diagonal); \^ \/ \# are literal
          let top = '', bottom = '', kind: '^' | '/' | '#' | undefined;
          for (let k = 0; k < arg.length; k++) {
            const ch = arg[k];
            if (ch === '\\' && k + 1 < arg.length) {
              (kind ? (bottom += arg[k + 1]) : (top += arg[k + 1]));
              k++;
            } else if (!kind && (ch === '^' || ch === '/' || ch === '#')) kind = ch;
            else if (kind) bottom += ch;
            else top += ch;
          }
          items.push({ t: 'stack', top, bottom: bottom.replace(/^ /, kind === '^' ? '' : ' '), kind: kind ?? '^', f });
          break;
        }
        default:
          // unknown code with an argument: dropped, like AutoCAD does
          break;
      }
      continue;
    }
    const n = c === '%' ? percent(s, i, (ch) => items.push({ t: 'char', ch, f }), (k) => (f = patched(f, { [k]: !f[k] }))) : 0;
    if (n) {
      i += n;
      continue;
    }
    if (c === '^' && i + 1 < s.length) {
      // caret-encoded control characters: ^I tab, ^J line feed, "^ " a caret
      const k = s[i + 1];
      if (k === 'I') items.push({ t: 'char', ch: '\t', f });
      else if (k === 'J') items.push({ t: 'para' });
      else if (k === ' ') items.push({ t: 'char', ch: '^', f });
      else if (k < '@' || k > '_') items.push({ t: 'char', ch: '^', f }), i--;
      i += 2;
      continue;
    }
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    items.push({ t: 'char', ch, f });
    i += ch.length;
  }
  return items;
}
