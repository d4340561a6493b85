/**
 * The first frame of a drawing link, before the app boots: what the early painter (early-paint.ts) leaves for the viewer.
 *
 * index.html asks for the drawing's Model scene as soon as the page starts (its inline script); this module is a
 * small entry of its own (no React, no antd: ~1/30 of the app's code) that index.html loads beside the app on the
 * viewer's paths. It decodes the answer and draws it into a canvas laid out exactly where the viewer's canvas will
 * be, so the drawing is on screen while the app's 1 MB of code is still being parsed and run. The viewer then takes
 * the canvas, its WebGL context and the uploaded buffers over (`takeEarlyPaint`): nothing is uploaded twice.
 *
 * The app's entry waits for this frame (or for its failure, or a deadline) before it runs, because both share the
 * one main thread: the app's boot would otherwise delay the frame by its whole run (vite.config.ts writes the gate).
 */
import type { Scene } from '@cadcloud/cad/scene';
import type { GlRenderer, View } from './gl-renderer.ts';

/** What the inline script in index.html started: the scene request of the page's drawing. */
interface HtmlPrefetch {
  fileId: string;
  versionId?: string;
  res: Promise<Response>;
}

export interface EarlyPaint {
  fileId: string;
  versionId?: string;
  /** the answer, body unread when it is not a scene (the app reads the error envelope) */
  res: Promise<Response>;
  /** the decoded scene, or null when the answer is not a scene or too large to wait for */
  scene: Promise<Scene | null>;
  /** set once the frame is drawn: the viewer adopts these */
  painted?: { canvas: HTMLCanvasElement; renderer: GlRenderer; skeleton: HTMLElement; view: View; scene: Scene };
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
  return p.scene === scene ? p : (p.renderer.dispose(), p.skeleton.remove(), null);
}

/** Drops an early frame nobody took (the viewer opened another drawing or layout). */
export function dropEarlyPaint() {
  const p = window.__cadEarly?.painted;
  if (p) {
    p.renderer.dispose();
    p.skeleton.remove();
  }
  delete window.__cadEarly;
}

