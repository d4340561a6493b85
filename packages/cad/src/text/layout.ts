import type { Drawing, Entity, TextStyle } from '../model/drawing.ts';
import type { TextRun } from '../geometry/flatten.ts';
import { FieldIndex } from '../dxf/pair-store.ts';
import { aciToRgb } from '../geometry/aci.ts';
import type { Glyph, GlyphSource } from './glyph.ts';
import { faceOf, findGlyph, type FontSet, type StyleFonts } from './fonts.ts';
import { parseMText, parseText, type Format, type Item } from './mtext.ts';

/** Text as geometry in drawing units. */
export interface TextGeometry {
  /** polylines x0 y0 x1 y1 … : SHX and stroke-font glyphs, underlines, overlines, fraction bars, missing-glyph boxes */
  strokes: number[][];
  /** filled TrueType glyphs as triangles x y x y x y … */
  triangles: number[];
  /** 0xRRGGBB per stroke, present when MTEXT colour codes (\C, \c) change the colour of part of the text */
  colors?: number[];
  /** 0xRRGGBB per triangle (triangles.length / 6 entries), present with `colors` */
  triangleColors?: number[];
  /**
   * the outline glyphs again as rings filled nonzero, one entry per glyph in the triangles' order with its triangle
   * count; present when every triangle came with its glyph's rings
   */
  outlines?: { rings: number[][]; triangles: number }[];
}

export interface TextBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A glyph placed in the text's own frame (x along the baseline, y up), before rotation and placement. */
interface Placed {
  glyph?: Glyph;
  /** pen position */
  x: number;
  y: number;
  /** cap height and horizontal scale of the glyph */
  h: number;
  sx: number;
  /** tan(oblique) */
  shear: number;
  advance: number;
  descent: number;
  color?: number;
  ch?: string;
  /** MTEXT \A: 0 baseline, 1 middle, 2 top of the line */
  va?: number;
}

interface Layout {
  glyphs: Placed[];
  /** straight lines in the text frame: underline, overline, strike-through, fraction bars */
  lines: { pts: number[]; color?: number }[];
  /** placement of the text frame: origin, rotation, mirror, and for aligned/fit TEXT a stretch */
  ox: number;
  oy: number;
  rot: number;
  flipY: boolean;
  /** TEXT 71: backward (mirrored in its own x) and upside down (mirrored in its own y) */
  flipX?: boolean;
  flipYOwn?: boolean;
}

/** MTEXT line spacing: baselines 5/3 of the text height apart (AutoCAD's "at least" spacing at factor 1). */
const LINE_SPACING = 5 / 3;
/**
 * Stacked parts at the current height: AutoCAD's 70 % stack size is written by its editor as \H0.7x; before \S
 * (dimension tolerances likewise as \H<DIMTFAC>x;), so scaling the parts again drew fractions at 49 % (ezdxf's
 * MTEXT layout also keeps the parts at the current cap height).
 */
const STACK_SCALE = 1;
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

const key = (s: string) => s.trim().toLowerCase();

function styleFonts(run: TextRun, fonts: FontSet): StyleFonts {
  return fonts.styles.get(key(run.style)) ?? fonts.styles.get('standard') ?? { kind: 'shx' };
}

/**
 * What a TextRun does not carry: the first alignment point of aligned/fit TEXT (72 = 3, 5), TEXT's backward and
 * upside-down flags (71), MTEXT's line spacing (44) and its chunks in file order (3 … then 1). For text drawn
 * straight from model space the entity is found by its point and string; inside blocks the defaults apply.
 */
interface TextExtra {
  p1?: [number, number];
  backward?: boolean;
  upsideDown?: boolean;
  lineSpacing?: number;
  raw?: string;
  /** MTEXT columns (75 type ≠ 0): 76 count, 48 width, 49 gutter, 46 defined height */
  columns?: { count: number; width: number; gutter: number; height: number };
}
const extras = new WeakMap<Drawing, Map<string, TextExtra>>();
function extraOf(d: Drawing, run: TextRun): TextExtra | undefined {
  let m = extras.get(d);
  if (!m) {
    m = new Map();
    // each entity's fields read once (and its chunks without building its `pairs`)
    const f = new FieldIndex();
    const p = (e: Entity, c: number, def = 0) => Number(f.first(e, c) ?? def);
    for (const e of d.entities) {
      if (e.paperSpace || (e.type !== 'TEXT' && e.type !== 'MTEXT')) continue;
      const one = String(f.first(e, 1) ?? '');
      if (e.type === 'TEXT') {
        const flags = p(e, 71);
        const x: TextExtra = { p1: [p(e, 10), p(e, 20)], backward: (flags & 2) !== 0 || undefined, upsideDown: (flags & 4) !== 0 || undefined };
        if (!x.backward && !x.upsideDown && p(e, 72) !== 3 && p(e, 72) !== 5) continue;
        m.set(`T|${p(e, 10)}|${p(e, 20)}|${one}`, x);
        if (f.first(e, 11) !== undefined) m.set(`T|${p(e, 11)}|${p(e, 21)}|${one}`, x);
      } else {
        let chunks = '';
        f.use(e);
        for (let k = 0; k < f.count; k++) if (f.codeAt(k) === 3) chunks += String(f.valueAt(k));
        const spacing = p(e, 44, 1);
        const columns = p(e, 75) > 0 && p(e, 48) > 0 ? { count: Math.max(1, p(e, 76, 1)), width: p(e, 48), gutter: p(e, 49), height: p(e, 46) } : undefined;
        if (!chunks && spacing === 1 && !columns) continue;
        // keyed like the run flatten made: the 3 chunks first, then 1
        m.set(`M|${p(e, 10)}|${p(e, 20)}|${chunks + one}`, { lineSpacing: spacing > 0 ? spacing : 1, raw: chunks + one, columns });
      }
    }
    extras.set(d, m);
  }
  if (!m.size) return undefined;
  return run.kind === 'text' ? m.get(`T|${run.x}|${run.y}|${run.text}`) : m.get(`M|${run.x}|${run.y}|${run.raw ?? ''}`);
}

function itemsOf(run: TextRun, extra: TextExtra | undefined, base: Format): Item[] {
  if (run.kind === 'mtext') return parseMText(extra?.raw ?? run.raw ?? run.text.replace(/\n/g, '\\P'), base, aciToRgb);
  return parseText(run.text, base);
}

/** styles by lower-case name, once per drawing (some drawings have thousands of styles) */
const styleMaps = new WeakMap<Drawing, Map<string, TextStyle>>();
function textStyle(d: Drawing, name: string): TextStyle | undefined {
  let m = styleMaps.get(d);
  if (!m) {
    m = new Map();
    for (const t of d.textStyles) if (!m.has(key(t.name))) m.set(key(t.name), t);
    styleMaps.set(d, m);
  }
  return m.get(key(name));
}

/** What placing a character needs of its run (one object per run: no closures made per run, see `layout`). */
interface PlaceContext {
  fonts: FontSet;
  style: StyleFonts;
  primaryDescent: number;
  /** the format placed last and what it decides (font switch, slant): a run's characters share a few formats */
  format: Format | null;
  override: { font?: GlyphSource; kind?: 'shx' | 'ttf'; bold?: boolean } | undefined;
  shear: number;
}

/** The font an MTEXT \f / \F switch names, when the drawing has it. */
function sourceFor(fonts: FontSet, f: Format): GlyphSource | undefined {
  return f.font ? fonts.byName.get(key(f.font)) ?? fonts.byName.get(key(f.font).replace(/\.(shx|ttf|ttc)$/, '')) : undefined;
}

/** One character placed at (x, y) of the text frame at cap height `h`. */
function place(cx: PlaceContext, ch: string, f: Format, x: number, y: number, h: number): Placed {
  if (f !== cx.format) {
    // formats are never changed once made (a code makes a new one), so what they decide is worked out once each
    cx.format = f;
    // bold and italic text uses its family's bold / italic face where the library has it; italic without an
    // italic face is slanted by 15°
    const bold = !!f.bold, italic = !!f.italic;
    const face = faceOf(cx.fonts, f.font ? sourceFor(cx.fonts, f) : cx.style.primary, bold, italic);
    cx.override = f.font ? { font: face.src, kind: f.fontKind, bold } : bold || italic ? { font: face.src, kind: cx.style.kind, bold } : undefined;
    cx.shear = Math.tan(((f.oblique + (italic && !face.italic ? 15 : 0)) * Math.PI) / 180);
  }
  const hit = findGlyph(cx.fonts, cx.style, ch, cx.override);
  const sx = h * f.widthFactor;
  const adv = hit ? hit.glyph.advance : ch.trim() === '' && ch !== '\u3000' ? 0.6 : CJK.test(ch) ? 1.15 : 0.75;
  return { glyph: hit?.glyph, x, y, h, sx, shear: cx.shear, advance: adv * sx * f.tracking, descent: (hit?.source.descent ?? cx.primaryDescent) * h, color: f.color, ch, va: f.valign };
}

/** One line of a layout: glyphs with x from 0; lines break at paragraphs and, for MTEXT with a width, by word wrap. */
interface Line { glyphs: Placed[]; deco: { x0: number; x1: number; f: Format }[]; stacks: { x: number; w: number; f: Format; top: Placed[]; bottom: Placed[]; kind: string }[]; width: number; height: number; align?: 'l' | 'c' | 'r' | 'j'; wrapped?: boolean; columnBreak?: boolean }

const blankLine = (align: Line['align']): Line => ({ glyphs: [], deco: [], stacks: [], width: 0, height: 0, align });

/** One part of a stack (numerator or denominator) placed from x = 0 on `y`. */
function stackPart(cx: PlaceContext, s: string, f: Format, y: number, h: number): { out: Placed[]; w: number } {
  const out: Placed[] = [];
  let x = 0;
  for (const ch of s) {
    const p = place(cx, ch, f, x, y, h);
    out.push(p);
    x += p.advance;
  }
  return { out, w: x };
}

/** A laid-out line into the layout, moved by (dx, dy): its glyphs, its stacks' bars and its decorations. */
function emitLine(out: Layout, l: Line, dx: number, dy: number) {
  // index loops in the per-character paths: a for-of makes an iterator result per item until the loop is optimised,
  // and a first build runs most of the text engine unoptimised
  for (let i = 0; i < l.glyphs.length; i++) {
    const g = l.glyphs[i];
    g.x += dx;
    g.y += dy;
    out.glyphs.push(g);
  }
  for (const s of l.stacks) {
    for (const g of [...s.top, ...s.bottom]) {
      g.x += dx;
      g.y += dy;
      out.glyphs.push(g);
    }
    if (s.kind === '/') out.lines.push({ pts: [s.x + dx, dy + s.f.height / 2, s.x + s.w + dx, dy + s.f.height / 2], color: s.f.color });
    if (s.kind === '#') {
      const x0 = s.x + dx + (s.top.length ? s.top[s.top.length - 1].x - dx + s.top[s.top.length - 1].advance - s.x : 0);
      out.lines.push({ pts: [x0 + s.f.height * 0.05, dy - s.f.height * 0.05, x0 + s.f.height * 0.45, dy + s.f.height * 1.05], color: s.f.color });
    }
  }
  for (const dd of l.deco) {
    const h = dd.f.height;
    if (dd.f.underline) out.lines.push({ pts: [dd.x0 + dx, dy - h * 0.2, dd.x1 + dx, dy - h * 0.2], color: dd.f.color });
    if (dd.f.overline) out.lines.push({ pts: [dd.x0 + dx, dy + h * 1.15, dd.x1 + dx, dy + h * 1.15], color: dd.f.color });
    if (dd.f.strike) out.lines.push({ pts: [dd.x0 + dx, dy + h * 0.5, dd.x1 + dx, dy + h * 0.5], color: dd.f.color });
  }
}

// No closure is made per run in layout and placeText (helpers are module functions taking a context): tsx compiles
// with esbuild's keepNames, so every named closure made costs a name definition, and these run for every text
function layout(run: TextRun, d: Drawing, fonts: FontSet): Layout {
  const cache = layoutCaches.get(fonts);
  if (!cache) return layoutRun(run, d, fonts);
  let L = cache.get(run);
  if (!L) cache.set(run, (L = layoutRun(run, d, fonts)));
  return L;
}

const layoutCaches = new WeakMap<FontSet, WeakMap<TextRun, Layout>>();

/**
 * Each run laid out once with these fonts, however many times it is measured and drawn (a PDF measures every text
 * for the page's extents, then writes its glyphs). Only once the characters the runs use are loaded: a run laid out
 * before a bundled font's subset arrives would keep its missing-glyph boxes.
 */
export function cacheLayouts(fonts: FontSet) {
  if (!layoutCaches.has(fonts)) layoutCaches.set(fonts, new WeakMap());
}

function layoutRun(run: TextRun, d: Drawing, fonts: FontSet): Layout {
  const style = styleFonts(run, fonts);
  const st = textStyle(d, run.style);
  const mtext = run.kind === 'mtext';
  // flatten folds the style's width factor into TEXT runs; MTEXT starts from the style's
  const wf = (run.widthFactor || 1) * (mtext ? st?.widthFactor || 1 : 1);
  const base: Format = {
    height: run.height,
    widthFactor: wf,
    oblique: mtext ? (st?.oblique ?? 0) : run.oblique,
    tracking: 1,
    underline: false,
    overline: false,
    strike: false,
    valign: 0,
    bold: st?.bold,
    italic: st?.italic,
  };
  const extra = extraOf(d, run);
  const items = itemsOf(run, extra, base);
  const primaryDescent = (style.primary ?? fonts.stroke)?.descent ?? 0.33;
  const cx: PlaceContext = { fonts, style, primaryDescent, format: null, override: undefined, shear: 0 };

  const lines: Line[] = [];
  let paraAlign: Line['align'];
  let line: Line = blankLine(paraAlign);
  const wrap = extra?.columns ? extra.columns.width : mtext && (run.boxWidth ?? 0) > 0 ? run.boxWidth! : Infinity;

  for (let ii = 0; ii < items.length; ii++) {
    const it = items[ii];
    if (it.t === 'para') {
      if (it.align) paraAlign = it.align === 'default' ? undefined : it.align;
      lines.push(line);
      line = blankLine(paraAlign);
      if (it.column) line.columnBreak = true;
      continue;
    }
    if (it.t === 'align') {
      paraAlign = it.align === 'default' ? undefined : it.align;
      line.align = paraAlign;
      continue;
    }
    if (it.t === 'stack') {
      const f = it.f, h = f.height * STACK_SCALE;
      const gap = f.height * 0.1;
      let top, bottom, w: number;
      if (it.kind === '#') {
        top = stackPart(cx, it.top, f, f.height * 0.45, h);
        bottom = stackPart(cx, it.bottom, f, 0, h);
        const slash = f.height * 0.5;
        for (const p of bottom.out) p.x += top.w + slash;
        w = top.w + slash + bottom.w;
      } else {
        // numerator above the bar at half the text height, denominator below it
        top = stackPart(cx, it.top, f, f.height / 2 + gap, h);
        bottom = stackPart(cx, it.bottom, f, f.height / 2 - gap - h, h);
        w = Math.max(top.w, bottom.w);
        for (const p of top.out) p.x += (w - top.w) / 2;
        for (const p of bottom.out) p.x += (w - bottom.w) / 2;
      }
      // a stack is part of its word: the line breaks before it only after a space (AutoCAD never splits "1½")
      if (line.width + w > wrap && line.glyphs.length && line.glyphs[line.glyphs.length - 1].ch === ' ') {
        lines.push(line);
        line = blankLine(paraAlign);
      }
      const x = line.width;
      for (const p of [...top.out, ...bottom.out]) p.x += x;
      line.stacks.push({ x, w, f, top: top.out, bottom: bottom.out, kind: it.kind });
      line.width += w + f.height * 0.1;
      line.height = Math.max(line.height, f.height);
      continue;
    }
    const f = it.f;
    if (it.ch === '\t') {
      // tab stops every four text heights
      const stop = 4 * f.height;
      line.width = (Math.floor(line.width / stop + 1e-9) + 1) * stop;
      continue;
    }
    const p = place(cx, it.ch, f, line.width, 0, f.height);
    let cut = -1;
    if (line.width + p.advance > wrap && line.glyphs.length && it.ch !== ' ') {
      // break after the last space, or before this character when it or the previous one is CJK
      for (let k = line.glyphs.length - 1; k >= 0; k--) {
        if (line.glyphs[k].ch === ' ') {
          cut = k + 1;
          break;
        }
      }
      const prev = line.glyphs[line.glyphs.length - 1].ch ?? '';
      // CJK text breaks between any two characters. A Latin word never breaks inside: one longer than the width
      // overflows the box, as in AutoCAD ("+3,230" stays whole, not "+3,23" / "0")
      if (CJK.test(it.ch) || CJK.test(prev)) cut = line.glyphs.length;
    }
    if (cut > 0) {
      const moved = line.glyphs.splice(cut);
      const keepDeco = line.deco;
      while (line.glyphs.length && line.glyphs[line.glyphs.length - 1].ch === ' ') line.glyphs.pop();
      const last = line.glyphs[line.glyphs.length - 1];
      line.width = last ? last.x + last.advance : 0;
      line.deco = keepDeco.map((dd) => ({ ...dd, x1: Math.min(dd.x1, line.width) })).filter((dd) => dd.x1 > dd.x0);
      line.wrapped = true;
      lines.push(line);
      line = blankLine(paraAlign);
      // decorations follow the glyphs that moved (none when the break falls right before this character)
      const shift = moved.length ? moved[0].x : Infinity;
      for (const m of moved) {
        m.x -= shift;
        line.glyphs.push(m);
        line.width = m.x + m.advance;
        line.height = Math.max(line.height, m.h);
      }
      for (const dd of keepDeco) if (dd.x1 > shift) line.deco.push({ ...dd, x0: Math.max(0, dd.x0 - shift), x1: dd.x1 - shift });
      p.x = line.width;
    }
    p.ch = it.ch;
    line.glyphs.push(p);
    if (f.underline || f.overline || f.strike) {
      const lastDeco = line.deco[line.deco.length - 1];
      if (lastDeco && lastDeco.f === f && Math.abs(lastDeco.x1 - p.x) < 1e-9) lastDeco.x1 = p.x + p.advance;
      else line.deco.push({ x0: p.x, x1: p.x + p.advance, f });
    }
    line.width += p.advance;
    line.height = Math.max(line.height, f.height);
  }
  lines.push(line);
  for (const l of lines) if (!l.height) l.height = run.height;

  const out: Layout = { glyphs: [], lines: [], ox: run.x, oy: run.y, rot: (run.rotation * Math.PI) / 180, flipY: !!run.mirrored, flipX: !!extra?.backward, flipYOwn: !!extra?.upsideDown };

  if (!mtext) {
    const l = lines[0];
    const W = l.width;
    const h = run.height;
    let dx = 0, dy = 0;
    const ha = run.halign, va = run.valign;
    if (ha === 1 || ha === 4) dx = -W / 2;
    else if (ha === 2) dx = -W;
    if (ha === 4) dy = -h / 2;
    else if (va === 1) dy = primaryDescent * h;
    else if (va === 2) dy = -h / 2;
    else if (va === 3) dy = -h;
    if ((ha === 3 || ha === 5) && W > 0) {
      const p1 = extra?.p1;
      if (p1) {
        // aligned: the whole text scales to fit between the points; fit: only its width
        const L = Math.hypot(run.x - p1[0], run.y - p1[1]);
        const s = L / W;
        // backward text still spans the two points: mirrored about the second one it runs back to the first
        out.ox = extra?.backward ? run.x : p1[0];
        out.oy = extra?.backward ? run.y : p1[1];
        out.rot = L > 0 ? Math.atan2(run.y - p1[1], run.x - p1[0]) : out.rot;
        for (const g of l.glyphs) {
          g.x *= s;
          g.sx *= s;
          g.advance *= s;
          if (ha === 3) {
            g.h *= s;
            g.descent *= s;
          }
        }
        for (const dd of l.deco) {
          dd.x0 *= s;
          dd.x1 *= s;
          if (ha === 3) dd.f = { ...dd.f, height: dd.f.height * s };
        }
        emitLine(out, l, 0, 0);
        return out;
      }
      dx = -W; // first point unknown: end at the second point with the natural width
    }
    emitLine(out, l, dx, dy);
    return out;
  }

  // MTEXT: attachment 1–9 = (top, middle, bottom) × (left, center, right) of the text box
  const att = Math.min(9, Math.max(1, run.attachment ?? 1));
  const col = (att - 1) % 3, row = Math.floor((att - 1) / 3);
  const boxW = extra?.columns ? extra.columns.width : (run.boxWidth ?? 0) > 0 ? run.boxWidth! : Math.max(...lines.map((l) => l.width));
  const baselines: number[] = [];
  const columnX: number[] = [];
  const cols = extra?.columns;
  let y = -lines[0].height;
  let column = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) {
      y -= LINE_SPACING * (extra?.lineSpacing ?? 1) * lines[i].height;
      // columns: a line that would pass the column height (or follows \N) starts the next column
      if (cols && column < cols.count - 1 && (lines[i].columnBreak || (cols.height > 0 && -y > cols.height + 1e-9))) {
        column++;
        y = -lines[i].height;
      }
    }
    baselines.push(y);
    columnX.push(cols ? column * (cols.width + cols.gutter) : 0);
  }
  const totalH = cols && cols.height > 0 ? cols.height : -Math.min(...baselines);
  const totalW = cols ? cols.count * cols.width + (cols.count - 1) * cols.gutter : boxW;
  const oy = row === 0 ? 0 : row === 1 ? totalH / 2 : totalH;
  const ox = col === 0 ? 0 : col === 1 ? -totalW / 2 : -totalW;
  let frameX0 = Infinity, frameX1 = -Infinity;
  lines.forEach((l, i) => {
    const align = l.align ?? (col === 0 ? 'l' : col === 1 ? 'c' : 'r');
    // trailing spaces do not count when a line is centred or right-aligned
    let w = l.width;
    for (let k = l.glyphs.length - 1; k >= 0 && l.glyphs[k].ch === ' ' && !l.stacks.some((st) => st.x > l.glyphs[k].x); k--) w = l.glyphs[k].x;
    const lx = align === 'c' ? (boxW - w) / 2 : align === 'r' ? boxW - w : 0;
    if (align === 'j' && l.wrapped && l.width < boxW) {
      // justified: the line's spare width shared out over its spaces
      const spaces = l.glyphs.filter((g) => g.ch === ' ').length;
      let seen = 0;
      if (spaces) for (const g of l.glyphs) {
        g.x += ((boxW - l.width) * seen) / spaces;
        if (g.ch === ' ') seen++;
      }
    }
    // \A within the line: characters smaller than the line's tallest move to its middle or top
    for (const g of l.glyphs) {
      const va = g.va ?? 0;
      if (va === 1) g.y += (l.height - g.h) / 2;
      else if (va === 2) g.y += l.height - g.h;
    }
    emitLine(out, l, ox + columnX[i] + lx, oy + baselines[i]);
    frameX0 = Math.min(frameX0, ox + columnX[i] + lx);
    frameX1 = Math.max(frameX1, ox + columnX[i] + lx + w);
  });
  if (run.frame !== undefined) {
    // the text's box (its width, or wider where a long word overflows it) from the first line's top to the last
    // line's descender, `frame` outside it
    const g = run.frame, last = lines.length - 1;
    const x0 = Math.min(ox, frameX0) - g, x1 = Math.max(ox + totalW, frameX1) + g;
    const y1 = oy + g, y0 = oy + baselines[last] - primaryDescent * lines[last].height - g;
    out.lines.push({ pts: [x0, y0, x1, y0, x1, y1, x0, y1, x0, y0] });
  }
  return out;
}


/** Frame → drawing units. */
function transformer(L: Layout) {
  const c = Math.cos(L.rot), s = Math.sin(L.rot), fy = L.flipY !== !!L.flipYOwn ? -1 : 1, fx = L.flipX ? -1 : 1;
  return (x: number, y: number): [number, number] => {
    const xx = x * fx, yy = y * fy;
    return [L.ox + c * xx - s * yy, L.oy + s * xx + c * yy];
  };
}

/**
 * One glyph of a text run placed in drawing units by an affine map of the glyph's frame (cap height 1, origin on
 * the baseline): x' = a gx + c gy + e, y' = b gx + d gy + f. The scene draws a glyph used many times as instances
 * of one mesh instead of baking its strokes and triangles for every character.
 */
export interface PlacedGlyph {
  glyph: Glyph;
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  /** 0xRRGGBB */
  color: number;
  /** the character it draws (a PDF writes it as text) */
  ch?: string;
}

/** A text run as placed glyphs plus the strokes that are not glyphs (missing-glyph boxes, underlines, fraction bars). */
export interface TextGlyphs {
  glyphs: PlacedGlyph[];
  strokes: number[][];
  /** 0xRRGGBB per stroke */
  colors: number[];
}

type PlacedItem = PlacedGlyph | { box: number[]; color: number };

/** The point (gx, gy) of a placed glyph's frame in drawing units (T: the layout's transformer). */
function glyphPoint(T: (x: number, y: number) => [number, number], g: Placed, gx: number, gy: number): [number, number] {
  return T(g.x + gx * g.sx + gy * g.h * g.shear, g.y + gy * g.h);
}

/** The run's glyphs and missing-glyph boxes in layout order, then its decorations: what textGeometry and textGlyphs share. */
function placeText(run: TextRun, d: Drawing, fonts: FontSet) {
  const L = layout(run, d, fonts);
  const T = transformer(L);
  const items: PlacedItem[] = [];
  let anyColor = false;
  // glyph frame → drawing units as one affine map per glyph: x' = a gx + c gy + e, y' = b gx + d gy + f
  const cr = Math.cos(L.rot), sr = Math.sin(L.rot), fy = L.flipY !== !!L.flipYOwn ? -1 : 1, fx = L.flipX ? -1 : 1;
  for (let gi = 0; gi < L.glyphs.length; gi++) {
    const g = L.glyphs[gi];
    const color = g.color ?? run.color;
    if (g.color !== undefined && g.color !== run.color) anyColor = true;
    if (!g.glyph) {
      // no font has the character: an empty box the size of a capital, so the text still shows something is there
      const ch = g.ch ?? 'x';
      if (ch.trim() === '' || ch === '\u00a0') continue;
      const w = g.advance / (g.sx || 1) - 0.15;
      const box: number[] = [];
      for (const [bx, by] of [[0.05, 0], [w, 0], [w, 1], [0.05, 1], [0.05, 0]]) box.push(...glyphPoint(T, g, bx, by));
      items.push({ box, color });
      continue;
    }
    // the glyph's origin: T(glyphPoint(g, 0, 0)) written out, the same operations without a [x, y] per glyph
    const ox = (g.x + 0 * g.sx + 0 * g.h * g.shear) * fx, oy = (g.y + 0 * g.h) * fy;
    const e = L.ox + cr * ox - sr * oy, f = L.oy + sr * ox + cr * oy;
    const a = cr * g.sx * fx, b = sr * g.sx * fx;
    const lx = g.h * g.shear * fx, ly = g.h * fy;
    items.push({ glyph: g.glyph, a, b, c: cr * lx - sr * ly, d: sr * lx + cr * ly, e, f, color, ...(g.ch !== undefined ? { ch: g.ch } : {}) });
  }
  const deco: { pts: number[]; color: number }[] = [];
  for (const l of L.lines) {
    const pts: number[] = [];
    for (let i = 0; i < l.pts.length; i += 2) pts.push(...T(l.pts[i], l.pts[i + 1]));
    deco.push({ pts, color: l.color ?? run.color });
    if (l.color !== undefined && l.color !== run.color) anyColor = true;
  }
  return { items, deco, anyColor };
}

/** The strokes and filled triangles of one text run, in drawing units. */
export function textGeometry(run: TextRun, d: Drawing, fonts: FontSet): TextGeometry {
  const { items, deco, anyColor } = placeText(run, d, fonts);
  const out: TextGeometry = { strokes: [], triangles: [] };
  const colors: number[] = [];
  const triColors: number[] = [];
  let outlines: TextGeometry['outlines'] = [];
  for (const it of items) {
    if ('box' in it) {
      out.strokes.push(it.box);
      colors.push(it.color);
      continue;
    }
    const { glyph, a, b, c, d: dd, e, f, color } = it;
    for (const s of glyph.strokes ?? []) {
      const pts: number[] = new Array(s.length);
      for (let i = 0; i < s.length; i += 2) {
        pts[i] = a * s[i] + c * s[i + 1] + e;
        pts[i + 1] = b * s[i] + dd * s[i + 1] + f;
      }
      out.strokes.push(pts);
      colors.push(color);
    }
    const t = glyph.triangles;
    if (t?.length) {
      const tri = out.triangles;
      for (let i = 0; i < t.length; i += 2) tri.push(a * t[i] + c * t[i + 1] + e, b * t[i] + dd * t[i + 1] + f);
      // (per-triangle colours are handed out only when some part of the text has its own colour)
      if (anyColor) for (let i = 0; i < t.length; i += 6) triColors.push(color);
      if (glyph.rings && outlines) {
        const rings = glyph.rings.map((r) => {
          const pts: number[] = new Array(r.length);
          for (let i = 0; i < r.length; i += 2) {
            pts[i] = a * r[i] + c * r[i + 1] + e;
            pts[i + 1] = b * r[i] + dd * r[i + 1] + f;
          }
          return pts;
        });
        outlines.push({ rings, triangles: t.length / 6 });
      } else outlines = undefined;
    }
  }
  for (const l of deco) {
    out.strokes.push(l.pts);
    colors.push(l.color);
  }
  if (anyColor) {
    out.colors = colors;
    out.triangleColors = triColors;
  }
  if (outlines?.length) out.outlines = outlines;
  return out;
}

/**
 * One text run as placed glyphs (for instanced drawing) and the other strokes, each with its colour. `blanks`: keep
 * glyphs without ink (spaces), which a PDF writes as text.
 */
export function textGlyphs(run: TextRun, d: Drawing, fonts: FontSet, blanks = false): TextGlyphs {
  const { items, deco } = placeText(run, d, fonts);
  const out: TextGlyphs = { glyphs: [], strokes: [], colors: [] };
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if ('box' in it) {
      out.strokes.push(it.box);
      out.colors.push(it.color);
    } else if (blanks || it.glyph.strokes?.length || it.glyph.triangles?.length) out.glyphs.push(it);
  }
  for (const l of deco) {
    out.strokes.push(l.pts);
    out.colors.push(l.color);
  }
  return out;
}

/**
 * The text's box in drawing units: each visible character's cell (advance × descender … cap height) placed and
 * rotated, plus decorations (underlines, fraction bars). Cheaper than the geometry, and what extents, picking and find-text zoom need.
 */
export function textBounds(run: TextRun, d: Drawing, fonts: FontSet): TextBox {
  const L = layout(run, d, fonts);
  const T = transformer(L);
  const b: TextBox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const add = ([x, y]: [number, number]) => {
    if (x < b.minX) b.minX = x;
    if (x > b.maxX) b.maxX = x;
    if (y < b.minY) b.minY = y;
    if (y > b.maxY) b.maxY = y;
  };
  for (const g of L.glyphs) {
    if (g.ch !== undefined && g.ch.trim() === '') continue; // blanks have no ink to pick or fit
    const sh = g.shear;
    add(T(g.x - g.descent * sh, g.y - g.descent));
    add(T(g.x + g.advance - g.descent * sh, g.y - g.descent));
    add(T(g.x + g.h * sh, g.y + g.h));
    add(T(g.x + g.advance + g.h * sh, g.y + g.h));
  }
  for (const l of L.lines) for (let i = 0; i < l.pts.length; i += 2) add(T(l.pts[i], l.pts[i + 1]));
  if (b.minX === Infinity) add(T(0, 0));
  return b;
}
