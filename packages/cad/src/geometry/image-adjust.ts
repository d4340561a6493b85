import type { Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';

/** IMAGEADJUST of an IMAGE, each 0–100: brightness (50 unchanged), contrast (50 unchanged), fade (0 unchanged). */
export interface ImageAdjust {
  brightness: number;
  contrast: number;
  fade: number;
}

/** An IMAGE's 281/282/283 when any differs from the defaults; undefined otherwise (and for WIPEOUT), so nothing extra travels. */
export function imageAdjust(e: Entity): ImageAdjust | undefined {
  if (e.type !== 'IMAGE') return undefined;
  const n = (code: number, def: number) => {
    const v = Number(pairValue(e, code) ?? def);
    return Number.isFinite(v) ? Math.min(100, Math.max(0, v)) : def;
  };
  const a = { brightness: n(281, 50), contrast: n(282, 50), fade: n(283, 0) };
  return a.brightness === 50 && a.contrast === 50 && a.fade === 0 ? undefined : a;
}
