import type { GlyphRun, PageContent } from './page-content.ts';
import { apply } from './matrix.ts';

/** What pdf.js tells of an annotation (page.getAnnotations()). */
export interface AnnotationData {
  subtype?: string;
  rect?: number[];
  titleObj?: { str?: string };
  contentsObj?: { str?: string };
  subject?: string;
}

/** AutoCAD's PDF export (EPDFSHX = 1) writes SHX text as strokes and the string as a comment with this title. */
const SHX_TITLE = /autocad\s*shx\s*text/i;

/**
 * Texts recovered from "AutoCAD SHX Text" comments: each comment's contents are the string, its rectangle the
 * text's box (horizontal, or vertical when the box stands upright). The strokes that drew it are dropped: every
 * stroked-only path lying wholly inside a comment's box (grown by a tenth of its height).
 */
export function recoverShxText(annotations: AnnotationData[], content: PageContent, pageMatrix: readonly number[]): GlyphRun[] {
  const texts: GlyphRun[] = [];
  const boxes: [number, number, number, number][] = [];
  for (const a of annotations) {
    const title = `${a.titleObj?.str ?? ''} ${a.subject ?? ''}`;
    const text = (a.contentsObj?.str ?? '').replace(/\s+/g, ' ').trim();
    if (!SHX_TITLE.test(title) || !text || !a.rect || a.rect.length < 4) continue;
    // the rectangle as the page is shown (moved to its corner, turned by /Rotate)
    const [ax, ay] = apply(pageMatrix, a.rect[0], a.rect[1]), [bx, by] = apply(pageMatrix, a.rect[2], a.rect[3]);
    const x0 = Math.min(ax, bx), x1 = Math.max(ax, bx), y0 = Math.min(ay, by), y1 = Math.max(ay, by);
    const w = x1 - x0, h = y1 - y0;
    if (!(w > 0 && h > 0)) continue;
    const upright = h > w * 1.2 && text.length > 1;
    const size = (upright ? w : h) / 0.716; // the box holds the capitals: the em is larger
    texts.push({
      text, x: upright ? x1 : x0, y: y0, endX: upright ? x1 : x1, endY: upright ? y1 : y0, size, angle: upright ? Math.PI / 2 : 0, widthFactor: 1,
      font: 'SHX', bold: false, italic: false, color: '#000000', layer: null, invisible: false,
    });
    const grow = 0.1 * Math.min(w, h);
    boxes.push([x0 - grow, y0 - grow, x1 + grow, y1 + grow]);
  }
  if (boxes.length) {
    const inside = (p: [number, number]) => boxes.some(([a, b, c, d]) => p[0] >= a && p[0] <= c && p[1] >= b && p[1] <= d);
    content.shapes = content.shapes.filter((s) => {
      if (s.fill || !s.stroke) return true;
      for (const sp of s.subpaths) {
        if (!inside(sp.start)) return true;
        for (const seg of sp.segs) if (!inside(seg.to)) return true;
      }
      // the text's colour and layer are those of the strokes it replaces
      const t = texts.find((t) => inside([t.x, t.y]) || inside([t.endX, t.endY]));
      if (t && t.layer === null) {
        t.layer = s.layer;
        t.color = s.strokeColor;
      }
      return false;
    });
  }
  return texts;
}

/**
 * Text laid invisibly over the strokes that draw it (render mode 3: AutoCAD's EPDFSHX and our own PDF export write SHX
 * text so, to keep it searchable): the text is what comes back, so the stroke-only paths wholly inside its box (the
 * baseline from start to end, a fifth of the em below to the em above) are dropped. Returns the runs, made visible.
 */
export function dropStrokesUnderInvisibleText(content: PageContent, runs: GlyphRun[]): GlyphRun[] {
  const hidden = runs.filter((r) => r.invisible);
  if (!hidden.length) return runs;
  const boxes = hidden.map((r) => {
    const c = Math.cos(r.angle), s = Math.sin(r.angle);
    const len = (r.endX - r.x) * c + (r.endY - r.y) * s;
    return { r, c, s, len };
  });
  const inside = (p: [number, number]) =>
    boxes.some(({ r, c, s, len }) => {
      const dx = p[0] - r.x, dy = p[1] - r.y;
      const u = dx * c + dy * s, v = -dx * s + dy * c;
      return u >= -0.1 * r.size && u <= len + 0.1 * r.size && v >= -0.25 * r.size && v <= 1.05 * r.size;
    });
  content.shapes = content.shapes.filter((sh) => {
    if (sh.fill || !sh.stroke) return true;
    for (const sp of sh.subpaths) {
      if (!inside(sp.start)) return true;
      for (const seg of sp.segs) if (!inside(seg.to)) return true;
    }
    return false;
  });
  return runs.map((r) => (r.invisible ? { ...r, invisible: false } : r));
}
