import type { Drawing } from '../model/drawing.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { pairValue } from '../dxf/reader.ts';
import { inkColor } from './prepare.ts';
import { normalStyle, styledPen, type PlotStyle, type PlotStyleTable } from './plot-style.ts';

/**
 * Named plot styles (STB) in a named-plot-style drawing: each entity prints with the style its 390 points at, else
 * (ByLayer: no 390) its layer's; a name the table lacks, or none at all, prints with "Normal". The pens are put on
 * the flattened geometry before it is drawn, so the PDF writer then applies only the colour mode.
 *
 * What is not followed: an entity inside a block is styled by the top-level entity that draws it (or its own layer
 * when it has one), not by a 390 of its own; ByBlock (380 = 1) is treated as ByLayer.
 */
export function hasNamedPlotStyles(d: Drawing, table: PlotStyleTable | undefined): table is PlotStyleTable {
  return table?.kind === 'stb' && !!d.plotStyleNames;
}

export function applyNamedPlotStyles(d: Drawing, flat: Flattened, table: PlotStyleTable, dark: boolean): Flattened {
  const names = d.plotStyleNames ?? {};
  const byName = new Map<string, PlotStyle>();
  for (const s of table.styles) if (!byName.has(s.name.toLowerCase())) byName.set(s.name.toLowerCase(), s);
  const normal = normalStyle(table);
  const styleOf = (handle: string | undefined) => (handle === undefined ? undefined : byName.get((names[handle] ?? '').toLowerCase()));
  const layerStyle = new Map(d.layers.map((l) => [l.name.toUpperCase(), styleOf(l.plotStyle)]));
  // the 390s of the entities that have one, by handle (model and paper space, and the layouts' blocks)
  const own = new Map<string, string>();
  const scan = (es: Drawing['entities']) => {
    for (const e of es) {
      const h = e.handle === undefined ? undefined : pairValue(e, 390);
      if (h !== undefined) own.set(e.handle!, String(h));
    }
  };
  scan(d.entities);
  for (const b of d.blocks) scan(b.entities);
  const entityStyle = flat.entities.map((ref) => (ref.handle !== undefined && own.has(ref.handle) ? styleOf(own.get(ref.handle)) : undefined));
  const styleFor = (entity: number, layer: string) => entityStyle[entity] ?? layerStyle.get(layer.toUpperCase()) ?? normal;
  // the colour as printed (white on paper is black) before the style screens or greys it
  const pen = (color: number, lineweight: number | undefined, entity: number, layer: string) => {
    const style = styleFor(entity, layer);
    if (!style) return { color, lineweight };
    const p = styledPen(inkColor(color, dark), lineweight ?? 0, style);
    return { color: p.color, lineweight: lineweight === undefined && style.lineweight === undefined ? undefined : p.lineweight };
  };
  return {
    ...flat,
    polylines: flat.polylines.map((p) => ({ ...p, ...pen(p.color, p.lineweight, p.entity, p.layer) })),
    ...(flat.curves ? { curves: flat.curves.map((c) => ({ ...c, ...pen(c.color, c.lineweight, c.entity, c.layer) })) } : {}),
    texts: flat.texts.map((t) => ({ ...t, color: pen(t.color, 0, t.entity, t.layer).color })),
  };
}
