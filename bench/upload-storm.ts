/**
 * Upload storm (issue 14 item 13): many users uploading at once through the real HTTP API (multipart up to 8 MB,
 * chunked above, every 2nd file a generated DXF the server thumbnails and builds a scene of), the server in its own
 * process on SQLite and local disk, its RSS sampled every 100 ms; then the background jobs the uploads queued, then
 * a settling pause. Prints baseline, peak and after-settling RSS. Never part of the test suite (the small version
 * is apps/server/src/security/upload-memory.test.ts).
 *
 *   npx tsx bench/upload-storm.ts [users=10] [filesPerUser=3] [maxMB=30]
 *   env: STORM_DRAWING_EVERY (2), STORM_SETTLE_MS (35000: past the scene worker's 30 s idle end); server settings pass through (e.g. MALLOC_ARENA_MAX=)
 */
import { runUploadStorm } from '../apps/server/src/test/upload-storm.ts';

const [users = '10', filesPerUser = '3', maxMB = '30'] = process.argv.slice(2);
const r = await runUploadStorm({
  users: Number(users),
  filesPerUser: Number(filesPerUser),
  minMB: 2,
  maxMB: Number(maxMB),
  drawingEvery: Number(process.env.STORM_DRAWING_EVERY ?? 2),
  settleMs: Number(process.env.STORM_SETTLE_MS ?? 35000),
  jobsWaitMs: 300_000,
  log: (l) => console.error(`[storm] ${l}`),
});
const mb = (x: number) => Math.round(x);
console.log(JSON.stringify({ uploads: r.uploads, uploadedMB: mb(r.uploadedMB), seconds: r.seconds, jobsSeconds: r.jobsSeconds, baselineRss: mb(r.baselineRss), peakRss: mb(r.peakRss), afterRss: mb(r.afterRss), retainedMB: mb(r.afterRss - r.baselineRss), failures: r.failures, jobs: r.jobs }, null, 2));
process.exit(r.failures.length ? 1 : 0);
