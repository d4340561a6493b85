import type { Drawing, Entity } from './model/drawing.ts';
import { defaultLayout, flattenLayout, layoutNames } from './geometry/layout.ts';

const VERSION_NAMES: Record<string, string> = {
  // AC1009 is the format of both R11 and R12 (DWG and DXF alike)
  AC1006: 'R10', AC1009: 'R11/R12', AC1012: 'R13', AC1014: 'R14', AC1015: '2000', AC1018: '2004', AC1021: '2007', AC1024: '2010', AC1027: '2013', AC1032: '2018',
};

/** The facts `cad info` prints: what the file is, what it holds, what it needs and what is not drawn yet. */
export function drawingInfo(d: Drawing) {
  const layout = defaultLayout(d);
  const fonts = new Set<string>();
  for (const s of d.textStyles) {
    if (s.font) fonts.add(s.font);
    if (s.bigFont) fonts.add(s.bigFont);
  }
  let total = 0;
  const walk = (list: Entity[]) => {
    for (const e of list) {
      total++;
      if (e.children) walk(e.children);
    }
  };
  walk(d.entities);
  for (const b of d.blocks) walk(b.entities);
  return {
    format: d.format,
    binary: d.binary,
    version: d.header.version,
    release: VERSION_NAMES[d.header.version] ?? 'unknown',
    codePage: d.header.codePage,
    units: d.header.units,
    // model space extents; AutoCAD writes min > max (±1e20) when model space is empty: none then
    extents: d.header.extMin && d.header.extMax && d.header.extMin.x <= d.header.extMax.x ? { min: d.header.extMin, max: d.header.extMax } : null,
    layers: d.layers.map((l) => ({ name: l.name, color: l.color, linetype: l.linetype, on: l.on, frozen: l.frozen, locked: l.locked })),
    // as the viewer lists them: Model, then the paper layouts (an R12 file's one paper space is Layout1)
    layouts: layoutNames(d),
    textStyles: d.textStyles.map((s) => ({ name: s.name, font: s.font, bigFont: s.bigFont })),
    fontFiles: [...fonts].sort(),
    blocks: d.blocks.length,
    entities: { total, byType: Object.fromEntries(Object.entries(d.counts).sort()) },
    // what `cad render`, the viewer and the thumbnail leave out of the layout they open first: the same flattening
    // of the same layout, so the counts agree everywhere (entity types the reader does not know are among them)
    notDrawnLayout: layout,
    notDrawn: notDrawnIn(d, layout),
  };
}

/**
 * The entities a layout leaves undrawn, by type (`TYPE:part` for a part of one): its flattening's report, which the
 * renderers, the scene (the viewer) and the thumbnails show for the same layout.
 */
export function notDrawnIn(d: Drawing, layout: string = defaultLayout(d)): Record<string, number> {
  const flat = flattenLayout(d, layout);
  return flat ? Object.fromEntries(Object.entries(flat.skipped).sort()) : {};
}
