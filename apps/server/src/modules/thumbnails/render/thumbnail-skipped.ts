/**
 * A file that gets no thumbnail (unreadable, too large, too slow, nothing to draw). Expected, not a fault:
 * the job logs the reason and ends as done, so it is never retried; thumbkey stays empty and the file untouched.
 */
export class ThumbnailSkipped extends Error {
  override name = 'ThumbnailSkipped';
}

/**
 * Out of time: maybe the file, maybe a busy machine. Unlike a skip, the job fails and the queue tries once more
 * later (attempts: 2); after that it stays failed and is not queued again.
 */
export class ThumbnailTimeout extends Error {
  override name = 'ThumbnailTimeout';
}
