/**
 * Entry of its own, loaded by index.html on the viewer's paths beside the app (see early-frame.ts for why):
 * decodes the scene the inline script asked for and draws it before the app boots.
 */
import { loadedPrimitives, SceneReader, type Scene } from '@cadcloud/cad/scene';
import { GlRenderer } from './gl-renderer.ts';
import { fitView, LW_KEY, openLayers, THEME_KEY } from './view-fit.ts';
import type { EarlyPaint } from './early-frame.ts';

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

/** The viewer's frame with the drawing's GL renderer in it: null without WebGL2 (the viewer then says so). */
function frame(scene: Scene, light: boolean) {
  const { root, canvas } = skeleton(location.pathname.startsWith('/webH5'), light);
  try {
    const renderer = new GlRenderer(canvas);
    renderer.setScene(scene, true);
    return { root, canvas, renderer, view: fitView(scene.meta, canvas.clientWidth, canvas.clientHeight) };
  } catch {
    root.remove();
    return null;
  }
}

/**
 * Reads the scene as it arrives and draws it batch by batch: the first batch at once, then at most every
 * REDRAW_MS while more arrive (a frame of a large drawing costs real time on a software rasteriser), and the whole.
 */
async function paintAsItArrives(e: EarlyPaint, res: Response): Promise<Scene | null> {
  if (!(res.headers.get('content-type') ?? '').includes('cadcloud.scene') || !res.body) return null;
  const light = localStorage.getItem(THEME_KEY) === '1';
  const weights = localStorage.getItem(LW_KEY) === '1';
  const reader = new SceneReader();
  const body = res.body.getReader();
  let f: ReturnType<typeof frame> = null;
  let drawn = 0, fresh = false;
  const draw = () => {
    if (!f) return;
    f.renderer.render(f.view, openLayers(reader.scene!.meta), light, weights);
    if (!drawn) {
      performance.mark('cad:gl-uploaded');
      requestAnimationFrame(() => {
        performance.mark('cad:first-frame');
        window.__cadGateOpen?.(); // the app may boot now
      });
    }
    drawn = performance.now();
    fresh = false;
  };
  for (;;) {
    const { done, value } = await body.read();
    if (done) break;
    for (const ev of reader.push(value)) {
      if (ev.kind === 'head') {
        performance.mark('cad:scene-head');
        f = frame(reader.scene!, light);
        if (f) e.painted = { canvas: f.canvas, renderer: f.renderer, skeleton: f.root, view: f.view, scene: reader.scene! };
      } else if (ev.kind === 'slice') f?.renderer.fill(ev.key, ev.offset, ev.length);
      else if (ev.kind === 'batch') {
        if (!drawn) performance.mark('cad:first-batch');
        f?.renderer.setDrawable(loadedPrimitives(reader));
        fresh = true;
      }
    }
    if (fresh && !reader.done && (!drawn || performance.now() - drawn > REDRAW_MS)) draw();
  }
  if (!reader.done) throw new Error('truncated scene');
  performance.mark('cad:scene-received');
  performance.mark('cad:scene-decoded');
  f?.renderer.setDrawable(null);
  draw();
  return reader.scene;
}

const REDRAW_MS = 400;

function start() {
  const pre = window.__cadScene;
  if (!pre) return;
  const e: EarlyPaint = { fileId: pre.fileId, versionId: pre.versionId, res: pre.res, scene: Promise.resolve(null) };
  e.scene = pre.res.then((res) => paintAsItArrives(e, res));
  // the app may boot once the first frame is drawn (above), or when there is none (no scene, an error, no WebGL2)
  const open = () => window.__cadGateOpen?.();
  e.scene.then(open, open);
  window.__cadEarly = e;
  delete window.__cadScene;
}

start();
