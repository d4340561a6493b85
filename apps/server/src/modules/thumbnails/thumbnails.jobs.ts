import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createThumbnailsService, THUMBNAIL_RENDER_JOB, type RenderJobPayload } from './thumbnails.service.ts';

/** thumbnail.render: one per blob; a file that cannot be thumbnailed ends as done with the reason (no retries). */
export function registerThumbnailJobs(queue: JobQueue, deps: AppDeps) {
  const thumbnails = createThumbnailsService(deps);
  queue.register<RenderJobPayload>(THUMBNAIL_RENDER_JOB, (p) => thumbnails.renderJob(p));
}
