import { defineConfig, envInt } from '../../infra/config/config.ts';

/**
 * Unfinished uploads (issue 14 item 9): each open session holds the quota of the chunks it received, a user may
 * keep only a few open, and one left idle is removed (its part file and its hold) by the housekeeping sweep.
 * The spec's client runs at most 3 uploads at once; an interrupted one resumes its own session, so 5 leaves room.
 */
export const uploadsConfig = defineConfig({
  uploadSessionsPerUser: { env: 'UPLOAD_SESSIONS_PER_USER', schema: envInt(5, 1, 1000), doc: 'chunked/direct upload sessions a user may have open at once (a further upload/init is refused with upload.tooManySessions)' },
  uploadSessionIdleMinutes: { env: 'UPLOAD_SESSION_IDLE_MINUTES', schema: envInt(30, 1, 7 * 24 * 60), doc: 'a chunked upload that receives nothing for this long is removed with its bytes and the quota they held' },
});
