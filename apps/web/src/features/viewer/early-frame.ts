/**
 * The first frame of a drawing link, before the app boots: what the early painter (early-paint.ts) leaves for the viewer.
 *
 * index.html asks for the drawing's Model scene as soon as the page starts (its inline script); this module is a
 * small entry of its own (no React, no antd: ~1/30 of the app's code) that index.html loads first on the viewer's
 * paths. It decodes the answer and draws it into a canvas laid out exactly where the viewer's canvas will be. The
 * viewer then takes the canvas, its WebGL context and the uploaded buffers over (`takeEarlyPaint`): nothing is
 * uploaded twice.
 *
 * The app's modules are not even fetched until this frame is drawn (or cannot be, or a deadline passes): fetching
 * compiles them, on the one main thread the painter needs too, which delayed the frame by ~50 ms, and running the app
 * would delay it by its whole boot (vite.config.ts writes that gate into index.html). A scene whose last batches are
 * still arriving keeps the app waiting up to 250 ms more, to be drawn whole first.
 */
import type { Scene } from '@cadcloud/cad/scene';
import type { GlRenderer, View } from './gl-renderer.ts';
import type { SceneLoad } from './scene-load.ts';

/** What the inline script in index.html started: the scene request of the page's drawing. */
interface HtmlPrefetch {
  fileId: string;
  versionId?: string;
  /** a share's drawing: the token of the share the tab extracted (the request carries it) */
  shareToken?: string;
  res: Promise<Response>;
}

export interface EarlyPaint {
  fileId: string;
  versionId?: string;
  shareToken?: string;
  /** the download, read as it arrives: the viewer takes it over */
  load: SceneLoad;
  /** set once the frame is laid out: the viewer adopts these */
  painted?: { canvas: HTMLCanvasElement; renderer: GlRenderer; skeleton: HTMLElement; view: View; scene: Scene };
  /** the viewer has the canvas: the painter draws no more */
  taken?: boolean;
}

declare global {
  interface Window {
    __cadScene?: HtmlPrefetch;
    __cadEarly?: EarlyPaint;
    /** resolves when the app may boot (read by the gate vite.config.ts writes into index.html) */
    __cadGate?: Promise<void>;
    __cadGateOpen?: () => void;
  }
}

/**
 * The early frame for this drawing, taken once: the viewer moves `canvas` into its own frame and keeps drawing
 * with `renderer`. Null when there was none (another page, a layout other than Model, an error, no WebGL2).
 */
export function takeEarlyPaint(fileId: string, versionId: string | undefined, scene: Scene): EarlyPaint['painted'] | null {
  const e = window.__cadEarly;
  const p = e?.painted;
  if (!e || !p || e.fileId !== fileId || (e.versionId ?? '') !== (versionId ?? '')) return null;
  delete window.__cadEarly;
  if (p.scene !== scene) {
    p.renderer.dispose();
    p.skeleton.remove();
    return null;
  }
  e.taken = true;
  return p;
}

/** Drops an early frame nobody took (the viewer opened another drawing or layout). */
export function dropEarlyPaint() {
  const e = window.__cadEarly;
  if (e?.painted) {
    e.taken = true;
    e.painted.renderer.dispose();
    e.painted.skeleton.remove();
  }
  delete window.__cadEarly;
}

/** The frame that first shows the whole drawing (the benchmark's second figure beside the first frame), marked once. */
export function markWholeFrame() {
  if (!performance.getEntriesByName('cad:whole-frame').length) performance.mark('cad:whole-frame');
}
