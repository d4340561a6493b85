/**
 * One scene download, read as it arrives (format 4 comes in batches). Whoever draws it — the early painter before
 * the app boots, then the viewer — `listen`s; there is one listener at a time, so handing the stream over between
 * two chunks loses nothing, and a listener that comes late catches up from what has arrived (`streamInto`).
 */
import { loadedPrimitives, SceneReader, type Scene, type SceneArrayKey, type SceneEvent } from '@cadcloud/cad/scene';
import type { GlRenderer } from './gl-renderer.ts';

/** An answer to the scene request that is not a scene (the spec's error envelope): the caller reads `res`. */
export class NotAScene extends Error {
  constructor(readonly res: Response) {
    super('not a scene');
  }
}

type Listener = (events: SceneEvent[]) => void;

export class SceneLoad {
  readonly reader = new SceneReader();
  /** the scene once its head has arrived: every array allocated, filled as the batches come */
  readonly head: Promise<Scene>;
  /** the whole scene */
  readonly done: Promise<Scene>;
  loaded = 0;
  total = 0;
  private listener: Listener | null = null;
  private progress: ((loaded: number, total: number) => void) | null = null;

  constructor(readonly res: Promise<Response>) {
    let headOf: (s: Scene) => void = () => undefined;
    this.head = new Promise((resolve) => (headOf = resolve));
    this.done = this.read(headOf);
    // a failure before the head fails the head too
    this.head = Promise.race([this.head, this.done]);
    this.head.catch(() => undefined);
    this.done.catch(() => undefined);
  }

  private async read(headOf: (s: Scene) => void): Promise<Scene> {
    const res = await this.res;
    if (!(res.headers.get('content-type') ?? '').includes('cadcloud.scene') || !res.body) throw new NotAScene(res);
    this.total = Number(res.headers.get('content-length') ?? 0);
    const body = res.body.getReader();
    for (;;) {
      const { done, value } = await body.read();
      if (done) break;
      const events = this.reader.push(value);
      this.loaded += value.length;
      if (events.length && events[0].kind === 'head') {
        performance.mark('cad:scene-head');
        headOf(this.reader.scene!);
      }
      if (!this.reader.done && events.some((e) => e.kind === 'batch') && this.reader.batches === 1) performance.mark('cad:first-batch');
      this.listener?.(events);
      this.progress?.(this.loaded, this.total);
    }
    if (!this.reader.done) throw new Error('truncated scene');
    // user-timing marks: the viewer benchmark (bench/viewer.bench.ts) splits an open into its phases
    performance.mark('cad:scene-received');
    performance.mark('cad:scene-decoded');
    return this.reader.scene!;
  }

  /** Replaces the listener (the viewer taking the stream over from the early painter). */
  listen(fn: Listener | null) {
    this.listener = fn;
  }

  onProgress(fn: ((loaded: number, total: number) => void) | null) {
    this.progress = fn;
  }
}

const FILLED: SceneArrayKey[] = ['linePositions', 'lineSegmentColors', 'lineWeights', 'triPositions', 'triangleColors', 'glyphLinePositions', 'glyphTriPositions', 'glyphInstances', 'curves', 'blockInstances'];

/**
 * Feeds a download into a renderer from now on: what has arrived goes to the GPU at once (unless the renderer
 * already holds it: `adopted`), every later slice as it comes; `batch` is called when more of the drawing can be
 * drawn, `whole` once it is all there.
 */
export function streamInto(renderer: GlRenderer, load: SceneLoad, o: { adopted?: boolean; batch: () => void; whole: () => void }) {
  const r = load.reader;
  if (!o.adopted) {
    renderer.setScene(r.scene!, !r.done);
    if (!r.done) for (const k of FILLED) renderer.fill(k, 0, r.loaded[k]);
  }
  renderer.setDrawable(r.done ? null : loadedPrimitives(r));
  if (r.done) {
    load.listen(null);
    return;
  }
  load.listen((events) => {
    let more = false;
    for (const e of events) {
      if (e.kind === 'slice') renderer.fill(e.key, e.offset, e.length);
      else if (e.kind === 'batch') more = true;
      else if (e.kind === 'end') {
        renderer.setDrawable(null);
        load.listen(null);
        o.whole();
        return;
      }
    }
    if (more) {
      renderer.setDrawable(loadedPrimitives(r));
      o.batch();
    }
  });
}
