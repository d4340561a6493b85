import type { Glyph, GlyphSource } from './glyph.ts';
import { TtfGlyphSource } from './ttf.ts';
import { composeLatin } from './diacritics.ts';
import { HERSHEY_SCRIPTS_FILE, parseHersheyScripts } from './hershey-scripts.ts';

/**
 * The fallback fonts the product ships, both from registry packages (never from the machine):
 * - Latin stroke font: Hershey Sans 1-stroke from `hersheytext` 2.0.0 (MIT package, Hershey font licence:
 *   free use with the acknowledgement kept in the SVG file). Single-stroke like txt.shx / simplex.shx, so a
 *   missing SHX font is replaced by a font of the same kind. It has ASCII and Latin-1; Latin Extended letters are
 *   composed from their base letter and stroked accents (diacritics.ts); Greek and Cyrillic come from the same
 *   package's Hershey Greek and Cyrillic fonts (hershey-scripts.ts).
 * - CJK outline fonts: Noto Sans SC from `@fontsource/noto-sans-sc` 5.3.0 and, for Hangul, Noto Sans KR from
 *   `@fontsource/noto-sans-kr` 5.3.0 (both SIL OFL 1.1), WOFF1 files split into
 *   ~100 unicode-range subsets; only the subsets that hold characters the drawing uses are read (a whole CJK font
 *   would be 6+ MB per drawing). opentype.js 1.3.4 reads WOFF1, not WOFF2. It is also the stand-in for a missing
 *   TrueType font, Latin included.
 * - Latin Extended, Greek and Cyrillic: Noto Sans from `@fontsource/noto-sans` 5.3.0 (SIL OFL 1.1, same layout),
 *   for the letters the CJK fonts lack (their Latin Extended subsets miss Ł Č Ő Ş …). It serves both kinds: a
 *   missing TrueType font and, after the stroke font (ASCII and Latin-1 only), a missing SHX font.
 * - Bold: the same families' 700-weight files (`cjkBold`), for bold TrueType text whose font is missing. These
 *   families have no italic CJK faces: italic stand-in text stays slanted.
 * Node reads them from node_modules; a browser passes its own `BundledFontFiles` (e.g. fetching /fonts/…).
 */
export type BundledFontFiles = (path: string) => Promise<Uint8Array | null>;

export const STROKE_FALLBACK = 'Hershey Sans 1-stroke';
export const CJK_FALLBACK = 'Noto Sans SC';
export const KOREAN_FALLBACK = 'Noto Sans KR';
export const LATIN_FALLBACK = 'Noto Sans';
const HERSHEY_FILE = 'hersheytext/svg_fonts/HersheySans1.svg';
const NOTO_DIR = '@fontsource/noto-sans-sc';

// node's modules and each package's folder, found once per process (a drawing asks for a few files of each package).
// Files are read synchronously: small font files, where fs/promises' open, stat, read and close each wait for the
// thread pool (a cold PDF export waited ~10–30 ms for them on a busy machine)
const loadNodeModules = () => Promise.all([import('node:module'), import('node:fs'), import('node:path')]);
let nodeModules: ReturnType<typeof loadNodeModules> | undefined;
const packageDirs = new Map<string, string>();

export const nodeBundledFiles: BundledFontFiles = async (path) => {
  const [{ createRequire }, { readFileSync }, { dirname, join }] = await (nodeModules ??= loadNodeModules());
  const [pkg, ...rest] = path.startsWith('@') ? [path.split('/').slice(0, 2).join('/'), ...path.split('/').slice(2)] : path.split('/');
  let dir = packageDirs.get(pkg);
  if (dir === undefined) {
    const require = createRequire(import.meta.url);
    try {
      dir = dirname(require.resolve(`${pkg}/package.json`));
    } catch {
      // packages whose `exports` hide package.json: walk up from their entry point
      let p = dirname(require.resolve(pkg));
      while (!p.endsWith(pkg.split('/').pop()!)) p = dirname(p);
      dir = p;
    }
    packageDirs.set(pkg, dir);
  }
  try {
    return new Uint8Array(readFileSync(join(dir, ...rest)));
  } catch {
    return null;
  }
};

/**
 * Hershey SVG font: <glyph unicode="…" horiz-adv-x="…" d="M x y L x y …"/>, y up, cap height from 'H'. Parsed when
 * first asked for a glyph or its descent: every drawing loads it, a drawing without text never needs it (a fresh
 * process's first open paid the parse, ~10-20 ms, for nothing).
 */
export class StrokeGlyphSource implements GlyphSource {
  readonly kind = 'shx' as const;
  readonly name = STROKE_FALLBACK;
  private parsed: { glyphs: Map<string, Glyph>; descent: number } | null = null;

  constructor(private readonly svg: string) {}

  get descent(): number {
    return this.font().descent;
  }

  glyph(ch: string): Glyph | undefined {
    const glyphs = this.font().glyphs;
    const g = glyphs.get(ch) ?? this.scripts?.get(ch);
    if (g || ch.charCodeAt(0) < 0x100) return g;
    // Latin Extended (and accented Greek / Cyrillic): the base letter with its accents as strokes (made once, kept
    // with the font's own glyphs)
    const made = composeLatin(ch, (c) => glyphs.get(c) ?? this.scripts?.get(c));
    if (made) glyphs.set(ch, made);
    return made;
  }

  /** Greek and Cyrillic, from the Hershey Greek and Cyrillic fonts: read once, when a drawing first has such letters */
  private scripts?: Map<string, Glyph>;
  private readingScripts?: Promise<void>;
  loadScripts(files: BundledFontFiles): Promise<void> {
    return (this.readingScripts ??= files(HERSHEY_SCRIPTS_FILE).then((bytes) => {
      if (bytes) this.scripts = parseHersheyScripts(new TextDecoder().decode(bytes));
    }));
  }

  private font() {
    return (this.parsed ??= parseHershey(this.svg));
  }
}

function parseHershey(svg: string): { glyphs: Map<string, Glyph>; descent: number } {
  const glyphs = new Map<string, Glyph>();
  const raw = new Map<string, { adv: number; strokes: number[][] }>();
  for (const m of svg.matchAll(/<glyph\b([^>]*?)\/?>/g)) {
    const attrs = m[1];
    const uni = /unicode="([^"]*)"/.exec(attrs)?.[1];
    if (uni === undefined) continue;
    const ch = uni.replace(/&#x([0-9a-f]+);/gi, (_s, h) => String.fromCodePoint(parseInt(h, 16))).replace(/&#(\d+);/g, (_s, d) => String.fromCodePoint(Number(d))).replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
    const adv = Number(/horiz-adv-x="([^"]*)"/.exec(attrs)?.[1] ?? 500);
    const d = /\bd="([^"]*)"/.exec(attrs)?.[1] ?? '';
    const strokes: number[][] = [];
    for (const part of d.split(/(?=M)/)) {
      const nums = part.replace(/[ML]/g, ' ').trim().split(/[\s,]+/).filter(Boolean).map(Number);
      if (nums.length >= 4) strokes.push(nums);
    }
    raw.set(ch, { adv, strokes });
  }
  const h = raw.get('H');
  const cap = h ? Math.max(...h.strokes.flatMap((s) => s.filter((_v, i) => i % 2))) : 500;
  let minY = 0;
  for (const [ch, g] of raw) {
    // this conversion puts the ink at the right edge of the advance (and a few glyphs, such as ±, past it):
    // centre it, widening the advance where the ink does not fit
    let lo = Infinity, hi = -Infinity;
    for (const s of g.strokes) for (let i = 0; i < s.length; i += 2) (lo = Math.min(lo, s[i])), (hi = Math.max(hi, s[i]));
    if (lo <= hi) {
      const adv = Math.max(g.adv, hi - lo + 0.2 * cap);
      const shift = (adv - (hi - lo)) / 2 - lo;
      g.adv = adv;
      for (const s of g.strokes) for (let i = 0; i < s.length; i += 2) s[i] += shift;
    }
    const strokes = g.strokes.map((s) => s.map((v) => v / cap));
    for (const s of strokes) for (let i = 1; i < s.length; i += 2) minY = Math.min(minY, s[i]);
    glyphs.set(ch, { advance: g.adv / cap, strokes });
  }
  return { glyphs, descent: -minY || 0.33 };
}

/**
 * A family's unicode.json (subset key → ranges), read and parsed once per file source: the regular and the bold
 * weight share it, and bold text made the floor plan read and parse the three lists twice.
 */
const rangeLists = new WeakMap<BundledFontFiles, Map<string, Promise<Record<string, string> | null>>>();
function rangeList(files: BundledFontFiles, f: SplitFamily): Promise<Record<string, string> | null> {
  let lists = rangeLists.get(files);
  if (!lists) rangeLists.set(files, (lists = new Map()));
  let list = lists.get(f.dir);
  if (!list) {
    list = files(`${f.dir}/unicode.json`).then((json) => (json ? (JSON.parse(new TextDecoder().decode(json)) as Record<string, string>) : null));
    lists.set(f.dir, list);
  }
  return list;
}

/** One code point range of a subset: `key` names the subset's file (per weight). */
interface SubsetRange {
  key: string;
  from: number;
  to: number;
}

/**
 * A family's ranges by first code point, made from its unicode.json once per list (both weights share them) and only
 * when a character is looked up in that family: the SC and KR lists hold ~15,600 ranges, and cutting all of them up
 * with regular expressions was ~30 ms of every fresh process's first drawing, which mostly needs the Latin subset.
 */
const parsedRanges = new WeakMap<Record<string, string>, SubsetRange[]>();
function subsetRanges(map: Record<string, string>): SubsetRange[] {
  let ranges = parsedRanges.get(map);
  if (ranges) return ranges;
  const all: SubsetRange[] = [];
  eachRange(map, (key, from, to) => all.push({ key, from, to }));
  all.sort((a, b) => a.from - b.from);
  parsedRanges.set(map, all);
  return all;
}

/**
 * Per code point, the keys of the subsets whose ranges name it, by the range's first code point (then list order),
 * as subsetRanges orders them. A few characters (a drawing's usual case) are matched while the list is read, without
 * its ~15,600 ranges made into objects and sorted (~10 ms of a cold PDF export); many go through subsetRanges.
 */
export function subsetsNaming(map: Record<string, string>, cps: number[]): string[][] {
  if (cps.length > 48) {
    const ranges = subsetRanges(map);
    return cps.map((cp) => {
      const keys: string[] = [];
      for (const r of ranges) {
        if (r.from > cp) break; // sorted by their first code point
        if (cp <= r.to) keys.push(r.key);
      }
      return keys;
    });
  }
  const hits: { from: number; n: number; key: string }[][] = cps.map(() => []);
  let n = 0;
  eachRange(map, (key, from, to) => {
    for (let k = 0; k < cps.length; k++) if (cps[k] >= from && cps[k] <= to) hits[k].push({ from, n, key });
    n++;
  });
  return hits.map((h) => h.sort((a, b) => a.from - b.from || a.n - b.n).map((x) => x.key));
}

/** Every range of a unicode.json in list order: "U+0-ff,U+131,U+152-153", hex numbers after U+, a range's end after a dash. */
function eachRange(map: Record<string, string>, visit: (key: string, from: number, to: number) => void) {
  for (const key in map) {
    const spec = map[key];
    let i = 0;
    while (i < spec.length) {
      const plus = spec.indexOf('+', i);
      if (plus < 0) break;
      let end = spec.indexOf(',', plus);
      if (end < 0) end = spec.length;
      let j = plus + 1, from = 0, digits = 0, h: number;
      while (j < end && (h = hexDigit(spec.charCodeAt(j))) >= 0) (from = from * 16 + h), j++, digits++;
      let to = from;
      if (spec.charCodeAt(j) === 45) {
        to = 0;
        let d = 0;
        j++;
        while (j < end && (h = hexDigit(spec.charCodeAt(j))) >= 0) (to = to * 16 + h), j++, d++;
        if (!d) digits = 0;
      }
      if (digits) visit(key, from, to);
      i = end + 1;
    }
  }
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** A family split into unicode-range subsets (fontsource layout: unicode.json + files/<id>-<key>-<weight>-normal.woff). */
interface SplitFamily {
  name: string;
  dir: string;
  id: string;
}
const FAMILIES: SplitFamily[] = [
  { name: CJK_FALLBACK, dir: NOTO_DIR, id: 'noto-sans-sc' },
  // Hangul is not in the SC font
  { name: KOREAN_FALLBACK, dir: '@fontsource/noto-sans-kr', id: 'noto-sans-kr' },
  // Latin Extended, Greek and Cyrillic in full (the CJK fonts draw only part of them)
  { name: LATIN_FALLBACK, dir: '@fontsource/noto-sans', id: 'noto-sans' },
];

/**
 * The bundled outline fonts by unicode-range subset; files are read only when a character needs them. Acts as one
 * glyph source: Noto Sans SC first, then Noto Sans KR.
 */
export class CjkFallback implements GlyphSource {
  readonly kind = 'ttf' as const;
  readonly name = CJK_FALLBACK;
  descent = 0.3;
  /** per family, its unicode.json (null: the family's files are not there) */
  private lists: (Record<string, string> | null)[] = [];
  private reading = new Map<string, Promise<void>>();
  private ready?: Promise<boolean>;
  /** per family, once one of its subsets is read */
  readonly sources: (TtfGlyphSource | undefined)[] = [];

  constructor(
    private readonly files: BundledFontFiles,
    /** 400 regular, 700 bold */
    private readonly weight = 400,
  ) {}

  /** reads the range lists (once, however often it is called) */
  init(): Promise<boolean> {
    return (this.ready ??= this.readRanges());
  }

  private async readRanges(): Promise<boolean> {
    this.lists = await Promise.all(FAMILIES.map((f) => rangeList(this.files, f)));
    return this.lists.some((map) => {
      if (map) for (const key in map) if (map[key]) return true;
      return false;
    });
  }

  /** a subset's file for this weight */
  private file(family: number, key: string): string {
    const f = FAMILIES[family];
    return `${f.dir}/files/${f.id}-${key.replace(/[[\]]/g, '')}-${this.weight}-normal.woff`;
  }

  /**
   * Reads the subsets that hold `chars`, family by family: the range lists name a few code points a subset's font
   * does not draw (Hangul in the SC lists), so a character still missing after one family is looked up in the next.
   * Within a family, in rounds: the fewest files that name every missing character (the file naming most of them
   * first), then, for what they did not draw, the files not yet read that name it. Every file that names a
   * character is still tried before it is given up (the numbered CJK subsets list Latin Extended letters — Ł Č Ő
   * Ş — they do not draw, and taking only the first hit left those letters as empty boxes), but a character that
   * the first file draws costs no more reads: ASCII is named by the Latin subset and by a dozen numbered ones, and
   * reading all of them (28 files with the bold weight) was most of the floor plan's font time.
   */
  async need(chars: Iterable<string>): Promise<void> {
    // reads another drawing started: what they bring counts
    await Promise.all(this.reading.values());
    let pending = [...new Set(chars)].filter((ch) => !this.has(ch));
    for (let family = 0; family < FAMILIES.length && pending.length; family++) {
      const map = this.lists[family];
      // per character, the files of this family that name it
      const named = new Map<string, string[]>();
      const keysOf = map ? subsetsNaming(map, pending.map((ch) => ch.codePointAt(0)!)) : pending.map(() => []);
      pending.forEach((ch, i) => {
        const files: string[] = [];
        for (const key of keysOf[i]) {
          const file = this.file(family, key);
          if (!files.includes(file)) files.push(file);
        }
        named.set(ch, files);
      });
      for (;;) {
        const untried = (ch: string) => named.get(ch)!.filter((f) => !this.reading.has(f));
        const count = new Map<string, number>();
        for (const ch of pending) for (const f of untried(ch)) count.set(f, (count.get(f) ?? 0) + 1);
        if (!count.size) break;
        // greedy cover: files by how many missing characters they name (ties in the range list's order)
        const order = [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)!);
        const covered = new Set<string>(), round: string[] = [];
        for (const f of order) {
          const adds = pending.filter((ch) => !covered.has(ch) && named.get(ch)!.includes(f));
          if (!adds.length) continue;
          round.push(f);
          for (const ch of adds) covered.add(ch);
        }
        await this.readAll(round, family);
        pending = pending.filter((ch) => !this.has(ch));
        if (!pending.length) break;
      }
    }
    const first = this.sources.find(Boolean);
    if (first) this.descent = first.descent;
  }

  /** reads the files at once, adds their faces in the order given (a glyph found in two subsets comes from the same one every run) */
  private readAll(files: string[], family: number): Promise<void> {
    const done = Promise.all(files.map((f) => this.files(f))).then((all) => {
      for (const bytes of all) {
        if (!bytes) continue;
        const src = this.sources[family];
        if (!src) this.sources[family] = new TtfGlyphSource(FAMILIES[family].name, [bytes]);
        else src.addFace(bytes);
      }
    });
    for (const f of files) this.reading.set(f, done);
    return done;
  }

  /** whether a subset read so far draws the character (no outline built) */
  has(ch: string): boolean {
    return this.sources.some((s) => s?.has(ch));
  }

  /** the bundled families that draw some of `chars` (what a drawing's report names) */
  familiesFor(chars: Iterable<string>): string[] {
    const names = new Set<string>();
    for (const ch of chars) {
      const s = this.sources.find((src) => src?.has(ch));
      if (s) names.add(s.name);
    }
    return [...names];
  }

  glyph(ch: string): Glyph | undefined {
    for (const s of this.sources) {
      const g = s?.glyph(ch);
      if (g) return g;
    }
    return undefined;
  }

  /** the font file and advance `glyph` would give, without its outline flattened and triangulated (a PDF's invisible text) */
  outlineOf(ch: string): Pick<Glyph, 'advance' | 'outline'> | undefined {
    for (const s of this.sources) {
      const g = s?.outlineOf(ch);
      if (g) return g;
    }
    return undefined;
  }
}

/**
 * The bundled fonts, parsed once per file source and shared by every drawing (a server opens many): the stroke
 * font, and the CJK subsets read so far.
 */
interface Bundled {
  stroke: Promise<StrokeGlyphSource | undefined>;
  cjk: CjkFallback;
  /** the same families in bold */
  cjkBold: CjkFallback;
}
const shared = new WeakMap<BundledFontFiles, Bundled>();
export function bundledFonts(files: BundledFontFiles): Bundled {
  let b = shared.get(files);
  if (!b) {
    const stroke = files(HERSHEY_FILE).then((svg) => (svg ? new StrokeGlyphSource(new TextDecoder().decode(svg)) : undefined));
    shared.set(files, (b = { stroke, cjk: new CjkFallback(files), cjkBold: new CjkFallback(files, 700) }));
  }
  return b;
}

/**
 * Reads the bundled fonts most drawings need before a drawing is at hand: the stroke font and the outline fallback's
 * range lists and Latin subset (what a missing TrueType font is drawn with). `cad render` calls it while LibreDWG
 * reads a DWG in its own process, so their ~50 ms no longer follow the read. What it reads is what `loadFonts` would
 * read for such a drawing; for a drawing without TrueType text it is read for nothing, at a time this process waits.
 */
export async function prewarmBundledFonts(files: BundledFontFiles = nodeBundledFiles): Promise<void> {
  const b = bundledFonts(files);
  const stroke = await b.stroke;
  void stroke?.descent;
  if (await b.cjk.init()) await b.cjk.need(Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)));
}
