import type { Scene } from '@cadcloud/cad/scene';
import { isEmptyScene } from './view-fit.ts';

/** Entity types whose shape is ACIS data (3D solids, regions, bodies, surfaces): unreadable ones are all a layout may hold. */
const ACIS = new Set(['REGION', '3DSOLID', 'BODY', 'SURFACE', 'PLANESURFACE', 'EXTRUDEDSURFACE', 'LOFTEDSURFACE', 'REVOLVEDSURFACE', 'SWEPTSURFACE', 'NURBSURFACE']);

export type BlankReason = { key: 'viewer.blank.solids' | 'viewer.blank.notDrawn' | 'viewer.blank.layersOff' | 'viewer.blank.empty'; list?: string };

/**
 * Why a layout that is fully loaded shows nothing, or null when something is drawn: it holds only 3D solids that
 * could not be read, only other things not drawn (listed), nothing at all, or its content lies on layers that are
 * all off or frozen (in the file, or switched off here). The viewer says so instead of showing a blank canvas.
 */
export function blankReason(scene: Scene, visible: ReadonlySet<number>): BlankReason | null {
  const { meta } = scene;
  if (isEmptyScene(scene)) {
    // content the file keeps on layers that are off or frozen: the most useful thing to say
    if (meta.layerOmitted) return { key: 'viewer.blank.layersOff' };
    const notDrawn = Object.entries(meta.notDrawn).filter(([, n]) => n > 0);
    const list = notDrawn.map(([k, n]) => `${k} ×${n}`).join(', ');
    const whole = notDrawn.filter(([k]) => !k.includes(':'));
    if (whole.length && whole.every(([k]) => ACIS.has(k))) return { key: 'viewer.blank.solids', list };
    if (whole.length) return { key: 'viewer.blank.notDrawn', list };
    return { key: 'viewer.blank.empty' };
  }
  // something is drawn: on which layers (every drawn primitive belongs to an entity, every entity to a layer)
  const index = new Map(meta.layers.map((l, i) => [l.name, i]));
  for (const e of meta.entities) {
    const i = index.get(e.layer);
    if (i === undefined || visible.has(i)) return null;
  }
  return meta.entities.length ? { key: 'viewer.blank.layersOff' } : null;
}
