/**
 * The baseline page of the viewer benchmark: dxf-viewer 1.0.49 (three.js) loads `?file=<url>` as its own example
 * does, in the main thread (no web worker: nothing is copied between threads, the shortest path to a frame),
 * with one TrueType font for text. `window.__bench` reports the first frame: the `Load()` promise (which
 * resolves after its first `Render()`) plus one requestAnimationFrame, in ms since navigation start.
 */
import { DxfViewer } from 'dxf-viewer';
import * as three from 'three';

interface BenchState { frame?: number; loaded?: number; error?: string; viewer?: DxfViewer }
const state: BenchState = {};
(window as unknown as { __bench: BenchState }).__bench = state;

const params = new URLSearchParams(location.search);
const file = params.get('file');
const view = document.getElementById('view')!;
// the same canvas size as our viewer's (the bench passes it): both rasterise the same number of pixels
if (params.get('w') && params.get('h')) Object.assign(view.style, { width: `${params.get('w')}px`, height: `${params.get('h')}px` });
const viewer = new DxfViewer(view, {
  clearColor: new three.Color('#212830'),
  autoResize: true,
  // the product's canvas keeps its buffer too (the browser tests read pixels back)
  preserveDrawingBuffer: true,
});
state.viewer = viewer;
if (file) {
  viewer
    .Load({ url: file, fonts: params.getAll('font') })
    .then(() => {
      state.loaded = performance.now();
      requestAnimationFrame(() => (state.frame = performance.now()));
    })
    .catch((e: Error) => (state.error = String(e?.stack ?? e)));
}
