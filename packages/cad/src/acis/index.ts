import type { Drawing, Entity } from '../model/drawing.ts';
import { parseSab } from './sab.ts';
import { decodeDxfSat, parseSat } from './sat.ts';
import type { AcisModel } from './records.ts';
import { acisEdges } from './wireframe.ts';

export type { AcisModel, AcisRecord, Token } from './records.ts';
export { parseSat, decodeDxfSat } from './sat.ts';
export { isComplete } from './records.ts';
export { parseSab } from './sab.ts';
export { acisEdges } from './wireframe.ts';

/** The entities whose shape is ACIS data (AcDbModelerGeometry and the AutoCAD surfaces built on it). */
export const ACIS_TYPES = new Set(['REGION', '3DSOLID', 'BODY', 'SURFACE', 'PLANESURFACE', 'EXTRUDEDSURFACE', 'LOFTEDSURFACE', 'REVOLVEDSURFACE', 'SWEPTSURFACE', 'NURBSURFACE']);

/**
 * An entity's ACIS model: the SAB bytes kept for its handle (ACDSDATA of a 2013+ DXF; the AcDs storage of a 2013+
 * DWG; the DWG object reader's binary data), else its SAT text (groups 1 and 3: R13–2010 DXF, and what LibreDWG's
 * DXF gives for DWG). Only whole data counts: a model cut short is not drawn (null), whichever form it came in.
 * Null when it has neither, or they do not parse.
 */
export function acisModelOf(e: Entity, d: Pick<Drawing, 'acisData'>): AcisModel | null {
  // binary data, where kept, is the whole model (LibreDWG's SAT of R2007+ DWG solids can be cut short)
  const sab = e.handle !== undefined ? d.acisData?.[e.handle] : undefined;
  const fromSab = sab ? parseSab(sab) : null;
  if (fromSab?.complete) return fromSab;
  const lines: string[] = [];
  for (const [code, v] of e.pairs) {
    if (code === 1) lines.push(String(v));
    else if (code === 3 && lines.length) lines[lines.length - 1] += String(v);
  }
  const fromSat = lines.length ? parseSat(decodeDxfSat(lines)) : null;
  return fromSat?.complete ? fromSat : null;
}

/** The entity's edges seen from above (x, y polylines), or null when it has no readable ACIS data or no edge. */
export function acisWireframe(e: Entity, d: Pick<Drawing, 'acisData'>, tol: number): number[][] | null {
  const model = acisModelOf(e, d);
  const edges = model ? acisEdges(model, tol) : [];
  return edges.length ? edges : null;
}
