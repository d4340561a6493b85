/**
 * The section plane: a clipping plane across X, Y or Z of the model's bounding box, moved by a slider (0–1 of the box)
 * and flipped. three's Plane keeps points where normal·p + constant ≥ 0; the plane is given here as (normal, constant).
 */
export type Axis = 'x' | 'y' | 'z';
export interface Box {
  min: readonly [number, number, number];
  max: readonly [number, number, number];
}
export interface PlaneSpec {
  normal: [number, number, number];
  constant: number;
}

const AXIS_INDEX: Record<Axis, 0 | 1 | 2> = { x: 0, y: 1, z: 2 };

/** Where along `axis` the plane is for slider position `t` (clamped to 0–1). */
export function sectionPosition(box: Box, axis: Axis, t: number): number {
  const i = AXIS_INDEX[axis];
  const c = Math.min(1, Math.max(0, t));
  return box.min[i] + (box.max[i] - box.min[i]) * c;
}

/**
 * The plane at slider `t`: unflipped it keeps the part below the position (normal −axis), flipped the part above.
 */
export function sectionPlane(box: Box, axis: Axis, t: number, flip: boolean): PlaneSpec {
  const i = AXIS_INDEX[axis];
  const pos = sectionPosition(box, axis, t);
  const normal: [number, number, number] = [0, 0, 0];
  normal[i] = flip ? 1 : -1;
  return { normal, constant: flip ? -pos : pos };
}

/** Whether a point is kept (drawn) by the plane. */
export function keeps(plane: PlaneSpec, p: readonly [number, number, number]): boolean {
  return plane.normal[0] * p[0] + plane.normal[1] * p[1] + plane.normal[2] * p[2] + plane.constant >= 0;
}
