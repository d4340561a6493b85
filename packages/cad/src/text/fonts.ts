import type { Drawing, Entity } from '../model/drawing.ts';
import { FieldIndex } from '../dxf/pair-store.ts';
import type { Glyph, GlyphSource } from './glyph.ts';
import type { ShxGlyphSource } from './shx.ts';
import { collate } from '../collate.ts';
import { collectionFaces, TtfGlyphSource } from './ttf.ts';
import { bigFontCodePage } from './dbcs.ts';
import { isGreekOrCyrillic } from './hershey-scripts.ts';
import { bundledFonts, CJK_FALLBACK, nodeBundledFiles, STROKE_FALLBACK, type BundledFontFiles, type StrokeGlyphSource } from './bundled.ts';

/** Font file bytes by name, e.g. 'txt.shx', 'gbcbig.shx', 'simsun.ttc', 'Arial' (case-insensitive, with or without extension); null when unknown. */
export type FontBytesProvider = (fileName: string) => Promise<Uint8Array | null>;

/** What the viewer shows: the fonts the drawing asks for, where each came from, and which were replaced. */
export interface FontReport {
  requested: string[];
  resolved: { name: string; from: 'provider' | 'bundled' }[];
  substituted: { name: string; with: string }[];
}

/** The fonts one text style draws with. */
export interface StyleFonts {
  primary?: GlyphSource;
  big?: ShxGlyphSource;
  /** what the style asks for: decides which bundled font stands in */
  kind: 'shx' | 'ttf';
  /** a TrueType style's face (STYLE XDATA): MTEXT starts from it */
  bold?: boolean;
  italic?: boolean;
}

/** A TrueType family's other faces, read from the provider when the drawing's text asks for them. */
export interface Faces {
  bold?: GlyphSource;
  italic?: GlyphSource;
  boldItalic?: GlyphSource;
}

export interface FontSet {
  report: FontReport;
  /** by lower-case style name */
  styles: Map<string, StyleFonts>;
  /** every font read from the provider, by lower-case requested name (MTEXT \f and \F switch to these) */
  byName: Map<string, GlyphSource>;
  stroke?: StrokeGlyphSource;
  cjk?: GlyphSource;
  /** the bundled outline fonts' bold weight, when bold TrueType text needs a stand-in */
  cjkBold?: GlyphSource;
  /** bold / italic faces of the provider's TrueType fonts, by their regular face */
  faces?: Map<GlyphSource, Faces>;
}

export interface LoadFontsOptions {
  /** where the bundled fallback fonts are read from (default: node_modules, in Node) */
  bundled?: BundledFontFiles;
}

const TTF_EXT = /\.(ttf|ttc|otf|woff)$/i;
const key = (s: string) => s.trim().toLowerCase();
/** styles may store a full path (C:\\fonts\\x.shx): the library is searched by file name */
const baseName = (s: string) => s.trim().split(/[\\/]/).pop() ?? '';
const stripExt = (s: string) => key(s).replace(/\.(shx|ttf|ttc|otf|woff)$/, '');

/** The MTEXT font switches (\fArial|b0|i0; TrueType family, \Ftxt.shx; or \Ftxt,gbcbig; SHX files) a string uses. */
export function mtextFontSwitches(raw: string): { name: string; kind: 'shx' | 'ttf'; bold?: boolean; italic?: boolean }[] {
  const out: { name: string; kind: 'shx' | 'ttf'; bold?: boolean; italic?: boolean }[] = [];
  for (const m of raw.matchAll(/\\([fF])([^;|]*)([^;]*);/g)) {
    const bold = /\|b1/.test(m[3]) || undefined, italic = /\|i1/.test(m[3]) || undefined;
    for (const part of m[2].split(',')) {
      const name = part.trim();
      if (!name) continue;
      out.push({ name, kind: m[1] === 'F' || /\.shx$/i.test(name) ? 'shx' : 'ttf', bold, italic });
    }
  }
  return out;
}

/**
 * File names a family's other faces go by, tried in turn: Windows' own (arialbd / ariali / arialbi, calibrib /
 * calibrii / calibriz, verdanab …) and "<name> Bold". A candidate counts only when its subfamily says it is that face.
 */
function faceCandidates(name: string, face: keyof Faces): string[] {
  const base = stripExt(baseName(name));
  if (face === 'bold') return [`${base}bd.ttf`, `${base}b.ttf`, `${base} bold.ttf`, `${base}-bold.ttf`];
  if (face === 'italic') return [`${base}i.ttf`, `${base} italic.ttf`, `${base}-italic.ttf`];
  return [`${base}bi.ttf`, `${base}z.ttf`, `${base} bold italic.ttf`, `${base}-bolditalic.ttf`];
}

function isFace(src: GlyphSource, face: keyof Faces): boolean {
  const sub = src instanceof TtfGlyphSource ? src.subfamily.toLowerCase() : '';
  const bold = /bold|black|heavy/.test(sub), italic = /italic|oblique/.test(sub);
  return face === 'bold' ? bold && !italic : face === 'italic' ? italic && !bold : bold && italic;
}

/** The face of `src` for bold/italic text, and whether that face is really italic (else the text is slanted). */
export function faceOf(fonts: FontSet, src: GlyphSource | undefined, bold: boolean, italic: boolean): { src: GlyphSource | undefined; italic: boolean } {
  if (!src || (!bold && !italic)) return { src, italic: false };
  const f = fonts.faces?.get(src);
  if (bold && italic && f?.boldItalic) return { src: f.boldItalic, italic: true };
  if (italic && !bold && f?.italic) return { src: f.italic, italic: true };
  if (bold && f?.bold) return { src: f.bold, italic: false };
  return { src, italic: false };
}

/** The texts of the drawing (TEXT, MTEXT, ATTRIB, ATTDEF), children and blocks included, in drawing order (a plain
 * recursion filling one list: this was a generator, which costs an iterator result per entity) */
function textEntities(d: Drawing): Entity[] {
  const out: Entity[] = [];
  collectTexts(d.entities, out);
  for (const b of d.blocks) collectTexts(b.entities, out);
  return out;
}

function collectTexts(list: readonly Entity[], out: Entity[]) {
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (e.type === 'TEXT' || e.type === 'MTEXT' || e.type === 'ATTRIB' || e.type === 'ATTDEF') out.push(e);
    if (e.children) collectTexts(e.children, out);
  }
}

/** The characters of `s` (code points, as `for … of` gives them) from U+0080 up into `chars`; ASCII is passed over by code unit. */
function addNonAscii(s: string, chars: Set<string>) {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) < 0x80) continue;
    const cp = s.codePointAt(i)!;
    chars.add(String.fromCodePoint(cp));
    if (cp > 0xffff) i++;
  }
}

/** codes 1 and 3 in order, read through `fields` (no `pairs` array built for every text of the drawing) */
function entityText(e: Entity, fields: FieldIndex): string {
  let s = '';
  const f = fields.use(e);
  for (let k = 0; k < f.count; k++) {
    const c = f.codeAt(k);
    if (c === 1 || c === 3) s += String(f.valueAt(k));
  }
  return s;
}

// the SHX reader (@mlightcad/shx-parser) loads with a drawing's first SHX file: most conversions find none (the
// bundled stroke font stands in) and do not compile it
let shx: typeof import('./shx.ts') | undefined;
const SHX_MAGIC = 'AutoCAD-86';

async function parseFont(name: string, bytes: Uint8Array, codePage: string, asBigFont: boolean, faceName?: string): Promise<GlyphSource | undefined> {
  try {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 24));
    if (head.startsWith(SHX_MAGIC)) {
      shx ??= await import('./shx.ts');
      return new shx.ShxGlyphSource(name, bytes, asBigFont || /bigfont/i.test(head) ? bigFontCodePage(name, codePage) : undefined);
    }
    return new TtfGlyphSource(name, [bytes], faceName);
  } catch {
    return undefined; // unreadable file: reported as substituted
  }
}

/**
 * Asks the provider for every font the drawing's text styles (font and big font) and MTEXT font switches name,
 * parses SHX (shapes, Unicode and big fonts) and TrueType (TTF, TTC, OTF, WOFF), and loads the bundled fallbacks:
 * the stroke font always (cheap), the CJK font's subsets for the characters no provided font has.
 */
export async function loadFonts(d: Drawing, provide: FontBytesProvider, opts: LoadFontsOptions = {}): Promise<FontSet> {
  const files = opts.bundled ?? nodeBundledFiles;
  const report: FontReport = { requested: [], resolved: [], substituted: [] };
  const byName = new Map<string, GlyphSource>();
  const requests = new Map<string, { name: string; kind: 'shx' | 'ttf'; big: boolean }>();
  const failed: { name: string; kind: 'shx' | 'ttf'; big: boolean }[] = [];
  const ask = (full: string, kind: 'shx' | 'ttf', big = false) => {
    const name = baseName(full);
    if (!name) return;
    const k = key(name);
    if (!requests.has(k)) requests.set(k, { name: name.trim(), kind, big });
  };
  for (const st of d.textStyles) {
    // styles without a name hold the shape files of complex linetypes, not text fonts
    if (!st.name) continue;
    ask(st.font, TTF_EXT.test(st.font) ? 'ttf' : 'shx');
    ask(st.bigFont, 'shx', true);
  }
  // the faces asked for, by lower-case font name
  const wantFaces = new Map<string, Set<keyof Faces>>();
  const wantFace = (name: string, bold?: boolean, italic?: boolean) => {
    if (!bold && !italic) return;
    const k = key(baseName(name));
    const set = wantFaces.get(k) ?? new Set<keyof Faces>();
    set.add(bold && italic ? 'boldItalic' : bold ? 'bold' : 'italic');
    wantFaces.set(k, set);
  };
  for (const st of d.textStyles) if (st.name && st.font) wantFace(st.font, st.bold, st.italic);
  const chars = new Set<string>();
  let sawSpecials = false;
  const fields = new FieldIndex();
  const texts = textEntities(d);
  for (let i = 0; i < texts.length; i++) {
    const e = texts[i];
    const s = entityText(e, fields);
    if (e.type === 'MTEXT') for (const f of mtextFontSwitches(s)) ask(f.name, f.kind), wantFace(f.name, f.bold, f.italic);
    addNonAscii(s, chars);
    if (!sawSpecials && /%%[cdp]/i.test(s)) sawSpecials = true;
  }
  // %%c %%d %%p
  if (sawSpecials) for (const ch of ['\u2205', '°', '±']) chars.add(ch);

  await Promise.all(
    [...requests.values()].map(async (r) => {
      report.requested.push(r.name);
      let bytes: Uint8Array | null = null;
      try {
        bytes = await provide(r.name);
      } catch {
        bytes = null;
      }
      const src = bytes ? await parseFont(r.name, bytes, d.header.codePage, r.big) : undefined;
      if (src) {
        byName.set(key(r.name), src);
        byName.set(stripExt(r.name), src);
        if (src instanceof TtfGlyphSource) byName.set(key(src.family), src);
        // the other faces of a collection (simsun.ttc holds SimSun and NSimSun) answer to their family names
        for (const face of bytes ? collectionFaces(bytes).slice(1) : []) {
          try {
            const f = new TtfGlyphSource(r.name, [new Uint8Array(face)]);
            if (!byName.has(key(f.family))) byName.set(key(f.family), f);
          } catch {
            /* a broken face: the others still serve */
          }
        }
        report.resolved.push({ name: r.name, from: 'provider' });
      } else failed.push(r);
    }),
  );
  // a name the library does not know may be a face of a collection that another request brought in
  for (const r of failed) {
    if (byName.has(key(r.name))) report.resolved.push({ name: r.name, from: 'provider' });
    else report.substituted.push({ name: r.name, with: r.kind === 'ttf' || r.big ? CJK_FALLBACK : STROKE_FALLBACK });
  }
  report.requested.sort();
  report.resolved.sort((a, b) => collate(a.name, b.name));
  report.substituted.sort((a, b) => collate(a.name, b.name));

  // the bold / italic faces of the TrueType fonts read, where text asks for them and the library has them
  const faces = new Map<GlyphSource, Faces>();
  await Promise.all(
    [...wantFaces].map(async ([name, want]) => {
      const src = byName.get(name) ?? byName.get(stripExt(name));
      if (!(src instanceof TtfGlyphSource)) return;
      const got = faces.get(src) ?? {};
      faces.set(src, got);
      for (const face of want) {
        for (const file of faceCandidates(name, face)) {
          let bytes: Uint8Array | null = null;
          try {
            bytes = await provide(file);
          } catch {
            bytes = null;
          }
          const f = bytes ? await parseFont(file, bytes, d.header.codePage, false) : undefined;
          if (f && isFace(f, face)) {
            got[face] = f;
            break;
          }
        }
      }
    }),
  );

  const bundled = bundledFonts(files);
  const stroke = await bundled.stroke;
  // Greek and Cyrillic strokes: read only for a drawing that has such letters
  if (stroke && [...chars].some(isGreekOrCyrillic)) await stroke.loadScripts(files);
  if (stroke) report.resolved.push({ name: STROKE_FALLBACK, from: 'bundled' });

  // the CJK subsets: characters that no provided font and not the stroke font draws
  const provided = [...new Set(byName.values())];
  const missing = [...chars].filter((ch) => !stroke?.glyph(ch) && !provided.some((f) => f.glyph(ch)));
  const wantsTtf = report.substituted.some((s) => s.with === CJK_FALLBACK);
  const cjk = bundled.cjk;
  let usesCjk = false;
  let cjkBold: GlyphSource | undefined;
  if ((missing.length || wantsTtf) && (await cjk.init())) {
    // a missing TrueType font is replaced by the CJK font's Latin part too
    // (all of printable ASCII: the subsets split even the Latin alphabet, N is not with A)
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
    // TrueType text drawn by the stand-in takes every character from it, not some from the stroke font
    const need = wantsTtf ? [...chars, ...ascii] : missing;
    await cjk.need(need);
    for (const name of cjk.familiesFor(need)) report.resolved.push({ name, from: 'bundled' });
    usesCjk = true;
    // bold TrueType text drawn by the stand-in: its bold weight (the same characters)
    if (wantFaces.size && (await bundled.cjkBold.init())) {
      await bundled.cjkBold.need(need);
      cjkBold = bundled.cjkBold;
    }
  }

  const styles = new Map<string, StyleFonts>();
  for (const st of d.textStyles) {
    const kind = TTF_EXT.test(st.font) ? 'ttf' : 'shx';
    const primary = st.font ? (byName.get(key(baseName(st.font))) ?? byName.get(stripExt(baseName(st.font)))) : undefined;
    const bigSrc = st.bigFont ? byName.get(key(baseName(st.bigFont))) : undefined;
    styles.set(key(st.name), { primary, big: shx && bigSrc instanceof shx.ShxGlyphSource ? bigSrc : undefined, kind, bold: st.bold, italic: st.italic });
  }
  return { report, styles, byName, stroke, cjk: usesCjk ? cjk : undefined, cjkBold, faces: faces.size ? faces : undefined };
}

/**
 * Other codes tried when a font lacks the character itself: non-Unicode SHX shape fonts (txt.shx, simplex.shx of
 * old releases) keep %%d %%p %%c at codes 127, 128 and 129; elsewhere ⌀ may be ∅ or Ø.
 */
const ALIASES: Record<string, string[]> = {
  '\u00b0': ['\x7f'],
  '\u00b1': ['\x80'],
  '\u2205': ['\x81', '\u2300', '\u00d8'],
  '\u2300': ['\x81', '\u2205', '\u00d8'],
  '\u00a0': [' '],
};

/** The glyph for `ch`: the style's (or MTEXT-switched) font, its big font, the bundled font of the same kind, then anything. */
export function findGlyph(fonts: FontSet, style: StyleFonts, ch: string, override?: { font?: GlyphSource; kind?: 'shx' | 'ttf'; bold?: boolean }): { glyph: Glyph; source: GlyphSource } | undefined {
  // an MTEXT font switch replaces the style's font; when the switched-to font is missing, its kind picks the stand-in
  const kind = override?.kind ?? style.kind;
  const aliases = ALIASES[ch];
  // bold TrueType text without its font: the stand-in's bold weight first
  const cjk = override?.bold && fonts.cjkBold && kind === 'ttf' ? fonts.cjkBold : fonts.cjk;
  // no lists of fonts or characters built here: this runs for every character of every text
  return (
    inFonts(ch, aliases, override?.kind ? override.font : style.primary, style.big) ??
    (kind === 'ttf' ? inFonts(ch, aliases, cjk, fonts.stroke) : inFonts(ch, aliases, fonts.stroke, fonts.cjk)) ??
    (cjk !== fonts.cjk ? inFont(ch, fonts.cjk) : undefined) ??
    inAnyFont(ch, aliases, fonts.byName)
  );
}

/** The character, then each of its aliases, in the first font that has it (a before b). */
function inFonts(ch: string, aliases: string[] | undefined, a: GlyphSource | undefined, b: GlyphSource | undefined): { glyph: Glyph; source: GlyphSource } | undefined {
  const hit = inFont(ch, a) ?? inFont(ch, b);
  if (hit || !aliases) return hit;
  for (const c of aliases) {
    const alias = inFont(c, a) ?? inFont(c, b);
    if (alias) return alias;
  }
  return undefined;
}

function inFont(ch: string, src: GlyphSource | undefined): { glyph: Glyph; source: GlyphSource } | undefined {
  const g = src?.glyph(ch);
  return g ? { glyph: g, source: src! } : undefined;
}

/** The character, then each of its aliases, in any font read from the provider (in reading order). */
function inAnyFont(ch: string, aliases: string[] | undefined, byName: Map<string, GlyphSource>): { glyph: Glyph; source: GlyphSource } | undefined {
  if (!byName.size) return undefined;
  for (const src of byName.values()) {
    const hit = inFont(ch, src);
    if (hit) return hit;
  }
  for (const c of aliases ?? []) {
    for (const src of byName.values()) {
      const hit = inFont(c, src);
      if (hit) return hit;
    }
  }
  return undefined;
}
