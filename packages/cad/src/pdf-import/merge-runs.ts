import type { GlyphRun } from './page-content.ts';

/**
 * Glyph runs merged into strings: PDF writers place a text word by word, glyph by glyph or kern by kern (TJ arrays,
 * one Tj per character), and a drawing wants one TEXT per string. A run joins the one before it when both share font,
 * size, angle, colour, layer and visibility and it starts where the other ended on the same baseline (a gap wider
 * than a quarter of the em becomes a space, a gap wider than 1.5 em starts a new text).
 */
export function mergeRuns(runs: GlyphRun[]): GlyphRun[] {
  const out: GlyphRun[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && joins(last, r)) {
      const gap = along(last, r.x, r.y);
      const sep = gap > 0.25 * last.size && !last.text.endsWith(' ') && !r.text.startsWith(' ') ? ' ' : '';
      last.text += sep + r.text;
      last.endX = r.endX;
      last.endY = r.endY;
      continue;
    }
    out.push({ ...r });
  }
  // blanks alone say nothing; blanks at the ends move nothing a reader sees
  return out.filter((r) => r.text.trim().length).map(trimEnd);
}

/** A run without its trailing blanks, its end drawn back by their share of the run's advance. */
function trimEnd(r: GlyphRun): GlyphRun {
  const text = r.text.replace(/\s+$/, '');
  if (text.length === r.text.length || !r.text.length) return r;
  const keep = text.length / r.text.length;
  return { ...r, text, endX: r.x + (r.endX - r.x) * keep, endY: r.y + (r.endY - r.y) * keep };
}

/** distance from the end of `a` to (x, y), along `a`'s baseline */
function along(a: GlyphRun, x: number, y: number): number {
  return (x - a.endX) * Math.cos(a.angle) + (y - a.endY) * Math.sin(a.angle);
}

function joins(a: GlyphRun, b: GlyphRun): boolean {
  if (a.font !== b.font || a.color !== b.color || a.layer !== b.layer || a.invisible !== b.invisible) return false;
  if (Math.abs(a.size - b.size) > 0.02 * a.size || Math.abs(a.widthFactor - b.widthFactor) > 0.02) return false;
  if (Math.abs(Math.atan2(Math.sin(a.angle - b.angle), Math.cos(a.angle - b.angle))) > 0.01) return false;
  const off = -(b.x - a.endX) * Math.sin(a.angle) + (b.y - a.endY) * Math.cos(a.angle);
  if (Math.abs(off) > 0.1 * a.size) return false;
  const gap = along(a, b.x, b.y);
  return gap > -0.3 * a.size && gap < 1.5 * a.size;
}
