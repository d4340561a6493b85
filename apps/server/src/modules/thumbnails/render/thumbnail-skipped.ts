/**
 * A file that gets no thumbnail (unreadable, too large, too slow, nothing to draw). Expected, not a fault:
 * the job logs the reason and ends as done, so it is never retried; thumbkey stays empty and the file untouched.
 */
export class ThumbnailSkipped extends Error {
  override name = 'ThumbnailSkipped';
}
