import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createDrawingsService } from './drawings.service.ts';
import { sharedSceneBuilder } from './scene-builder.ts';
import { drawingFonts } from './drawing-fonts.ts';
import { isViewableName } from './viewable.ts';

export const SCENE_PREWARM_JOB = 'drawing.prewarm';

/**
 * After an upload the Model scene is built in the background, so the user's first open is a cache hit.
 * A drawing that cannot be read ends as done (the viewer shows the error when it is opened).
 */
export function registerDrawingJobs(queue: JobQueue, deps: AppDeps) {
  const drawings = createDrawingsService(deps, sharedSceneBuilder(deps), drawingFonts(deps));
  queue.register<{ uid: string; fileId: string }>(SCENE_PREWARM_JOB, async (p) => {
    try {
      const s = await drawings.scene({ uid: p.uid, fileId: p.fileId }, 'Model');
      if (!(s.body instanceof Uint8Array)) (s.body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      // the job is done when the scene is in the cache, not only built
      await s.stored;
      return { cached: s.cached };
    } catch (e) {
      return { skipped: (e as Error).message };
    }
  });
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
