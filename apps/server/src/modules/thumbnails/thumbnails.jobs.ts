import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createThumbnailsService, THUMBNAIL_PICTURES_INDEX_JOB, THUMBNAIL_PICTURES_JOB, THUMBNAIL_RENDER_JOB, type PicturesJobPayload, type RenderJobPayload } from './thumbnails.service.ts';

/**
 * thumbnail.render: one per blob; a file that cannot be thumbnailed ends as done with the reason (no retries).
 * thumbnail.pictures: pictures came, went or moved in one user's drive; that user's drawings naming them are drawn again.
 * thumbnail.picturesIndex: once, the picture names older renders noted as JSON go into the drawing_pictures table.
 */
export function registerThumbnailJobs(queue: JobQueue, deps: AppDeps) {
  const thumbnails = createThumbnailsService(deps);
  queue.register<RenderJobPayload>(THUMBNAIL_RENDER_JOB, (p) => thumbnails.renderJob(p));
  queue.register<PicturesJobPayload>(THUMBNAIL_PICTURES_JOB, (p) => thumbnails.picturesJob(p));
  queue.register(THUMBNAIL_PICTURES_INDEX_JOB, () => thumbnails.picturesIndexJob());
}

/** Queues the one-time index of older renders' picture names (a fixed id: every process may ask, it runs once). */
export async function indexPictureNamesOnce(queue: JobQueue) {
  await queue.enqueue(THUMBNAIL_PICTURES_INDEX_JOB, {}, { jobId: THUMBNAIL_PICTURES_INDEX_JOB.replace('.', '-'), attempts: 3 });
}
