import type { Readable } from 'node:stream';
import { SceneReader } from '@cadcloud/cad/scene';
import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { sharedDrawingsService } from './drawings.service.ts';
import { isViewableName } from './viewable.ts';

export const SCENE_PREWARM_JOB = 'drawing.prewarm';

/** a drawing with more sheets than this has the rest built when they are opened */
const MAX_PREWARMED_LAYOUTS = 16;

/**
 * After an upload the Model scene is built in the background, then the paper layouts' (from the drawing the builder
 * has just read, so a DWG is read once), so the user's first open and first switch to a sheet are cache hits.
 * A drawing that cannot be read ends as done (the viewer shows the error when it is opened).
 */
export function registerDrawingJobs(queue: JobQueue, deps: AppDeps) {
  // the route's service: an open of this drawing joins the build below instead of starting its own
  const drawings = sharedDrawingsService(deps);
  /** one layout's scene in the cache; its layout names when `names` */
  async function prewarm(p: { uid: string; fileId: string }, layout: string, names = false) {
    // background work: an open of any drawing goes first, and an open of this one takes this build to the front
    const s = await drawings.scene({ uid: p.uid, fileId: p.fileId }, layout, { background: true });
    const layouts = names ? await layoutNames(s.body) : [];
    if (!(s.body instanceof Uint8Array)) (s.body as Readable).destroy();
    // done when the scene is in the cache, not only built
    await s.stored;
    return { cached: s.cached, layouts };
  }
  queue.register<{ uid: string; fileId: string }>(SCENE_PREWARM_JOB, async (p) => {
    let model;
    try {
      model = await prewarm(p, 'Model', true);
    } catch (e) {
      return { skipped: (e as Error).message };
    }
    const sheets = model.layouts.filter((l) => l.toLowerCase() !== 'model').slice(0, MAX_PREWARMED_LAYOUTS);
    const failed: string[] = [];
    // one at a time: a user's open waits behind one background build at most (the builder runs them in turn)
    for (const layout of sheets) await prewarm(p, layout).catch(() => failed.push(layout));
    return { cached: model.cached, layouts: sheets.length, failed };
  });
}

/** The layout names in a scene's head (read from the first bytes of a cached scene's stream, or of built bytes). */
async function layoutNames(body: Readable | Uint8Array): Promise<string[]> {
  const reader = new SceneReader();
  const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = body instanceof Uint8Array ? slices(body, 64 * 1024) : body;
  for await (const c of chunks) {
    reader.push(c);
    if (reader.scene) return reader.scene.meta.layouts;
  }
  return [];
}

function* slices(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Called when an upload creates a file: drawings get their scene built ahead of the first open. */
export async function prewarmAfterUpload(deps: AppDeps, item: { id: string; uid: string; name: string; size: number | string }) {
  if (!isViewableName(item.name) || Number(item.size) > deps.config.webOpenFileSize) return;
  try {
    await deps.queue.enqueue(SCENE_PREWARM_JOB, { uid: item.uid, fileId: item.id }, { jobId: `scene-${item.id}`, attempts: 1 });
  } catch (e) {
    console.error(`scene of ${item.id}: could not be queued`, e);
  }
}
