/**
 * Entry of its own, loaded by index.html on the viewer's paths beside the app (see early-frame.ts for why):
 * decodes the scene the inline script asked for and draws it before the app boots.
 */
import type { Scene } from '@cadcloud/cad/scene';
import { SceneLoad, streamInto } from './scene-load.ts';
import { GlRenderer } from './gl-renderer.ts';
import { fitView, isEmptyScene, LW_KEY, openLayers, THEME_KEY } from './view-fit.ts';
import { markWholeFrame, type EarlyPaint } from './early-frame.ts';
import { isPhone } from '../../lib/device.ts';

/**
 * The viewer's frame, empty: a bar of the viewer bar's height and the canvas below it, as styles.css lays out the
 * real one (`.viewer`, `.viewer-bar`), in inline styles because the stylesheet may not have arrived yet.
 */
function skeleton(phone: boolean, light: boolean) {
  const el = (tag: string, style: string) => {
    const e = document.createElement(tag);
    e.style.cssText = style;
    return e;
  };
  const root = el('div', `position:fixed;inset:0;display:flex;flex-direction:column;z-index:100;background:${light ? '#fff' : '#212830'}`);
  root.dataset.early = '1';
  const bar = el('div', `flex:none;box-sizing:border-box;height:${phone ? 41 : 45}px;background:#fff;border-bottom:1px solid #e5e7eb`);
  const body = el('div', 'flex:1;position:relative;min-height:0');
  const canvas = el('canvas', 'position:absolute;inset:0;width:100%;height:100%;display:block') as HTMLCanvasElement;
  body.appendChild(canvas);
  root.append(bar, body);
  document.body.appendChild(root);
  return { root, canvas };
}

/** Whether the viewer will have its phone layout: /webH5/item always; a share's drawing on a phone (ShareViewPage). */
const phoneLayout = (e: EarlyPaint) => (e.shareToken ? isPhone() : location.pathname.startsWith('/webH5'));

/**
 * The viewer's frame with a GL renderer in it: null without WebGL2 (the viewer then says so). The scene's storage is
 * allocated by `streamInto` (allocating it here too made every first frame allocate it twice).
 */
function frame(scene: Scene, light: boolean, phone: boolean) {
  const { root, canvas } = skeleton(phone, light);
  try {
    const renderer = new GlRenderer(canvas);
    return { root, canvas, renderer, view: fitView(scene.meta, canvas.clientWidth, canvas.clientHeight) };
  } catch {
    root.remove();
    return null;
  }
}

/**
 * Draws the scene as it arrives: the first batch at once, then at most every REDRAW_MS while more arrive (a frame of
 * a large drawing costs real time on a software rasteriser), and the whole. The first frame opens the app's gate.
 */
function paintAsItArrives(e: EarlyPaint) {
  const light = localStorage.getItem(THEME_KEY) === '1';
  const weights = localStorage.getItem(LW_KEY) === '1';
  e.load.head.then((scene) => {
    // an empty model space: the viewer opens the drawing's sheet instead (a paper layout is another request)
    if (isEmptyScene(scene)) return;
    const f = frame(scene, light, phoneLayout(e));
    if (!f) return;
    e.painted = { canvas: f.canvas, renderer: f.renderer, skeleton: f.root, view: f.view, scene };
    let drawn = 0, timer = 0, drawnBatches = -1;
    const draw = () => {
      clearTimeout(timer);
      timer = 0;
      if (e.taken) return;
      // the entity table and texts after the last batch change nothing on screen: a frame that shows every batch is
      // the whole drawing (a second render of it cost a large drawing ~100 ms here)
      const first = !drawn, whole = e.load.reader.allBatches;
      if (!whole || drawnBatches !== e.load.reader.batches) f.renderer.render(f.view, openLayers(scene.meta), light, weights);
      drawnBatches = e.load.reader.batches;
      drawn = performance.now();
      if (first) performance.mark('cad:gl-uploaded');
      requestAnimationFrame(() => {
        if (first) performance.mark('cad:first-frame');
        // the app may boot now: its modules take the main thread for a few hundred ms, so a scene whose last batches
        // are arriving is drawn whole first, unless they take longer than APP_WAITS_MS
        if (whole) {
          markWholeFrame();
          window.__cadGateOpen?.();
        } else if (first) setTimeout(() => window.__cadGateOpen?.(), APP_WAITS_MS);
      });
    };
    const batch = () => {
      // the last batch is drawn at once: waiting for the entity table behind it (a floor plan's 1.6 MB of JSON) or
      // REDRAW_MS left the drawing unfinished for ~400 ms, past the app's boot
      if (!drawn || e.load.reader.allBatches) draw();
      else timer ||= window.setTimeout(draw, Math.max(0, REDRAW_MS - (performance.now() - drawn)));
    };
    try {
      streamInto(f.renderer, e.load, { batch, whole: draw });
    } catch {
      // the GL could not take the scene (a texture over its limits): the viewer tries, and says what went wrong
      delete e.painted;
      f.renderer.dispose();
      f.root.remove();
      return;
    }
    // a scene already whole, or batches already there when the head was taken: draw them now
    if (e.load.reader.done || e.load.reader.batches) draw();
  }, () => undefined); // no scene (an error answer): the app reads and shows it
}

const REDRAW_MS = 400;
/** longest wait of the app's boot for the rest of a scene after its first frame */
const APP_WAITS_MS = 250;

function start() {
  const pre = window.__cadScene;
  if (!pre) return;
  performance.mark('cad:painter');
  const e: EarlyPaint = { fileId: pre.fileId, versionId: pre.versionId, shareToken: pre.shareToken, load: new SceneLoad(pre.res) };
  paintAsItArrives(e);
  // the app may boot once the frame is drawn (above), or when there is none (no scene, an error, no WebGL2, an empty
  // model space): a painted frame opens the gate itself, after its render
  const open = () => window.__cadGateOpen?.();
  e.load.done.then(() => e.painted || open(), open);
  window.__cadEarly = e;
  delete window.__cadScene;
}

start();
