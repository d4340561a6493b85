import type { JobQueue } from '../queue/queue.types.ts';
import { jobDuration, jobRuns, watchQueueDepth } from './metrics.ts';

/** The queue with every handler timed and counted (metrics.ts); the queue's depth is read at each scrape. */
export function instrumentQueue(queue: JobQueue): JobQueue {
  watchQueueDepth(() => queue.counts());
  const register = queue.register.bind(queue);
  queue.register = (name, handler) =>
    register(name, async (payload, ctx) => {
      const end = jobDuration.startTimer({ name });
      try {
        const r = await handler(payload as never, ctx);
        jobRuns.inc({ name, outcome: 'completed' });
        return r;
      } catch (e) {
        jobRuns.inc({ name, outcome: 'failed' });
        throw e;
      } finally {
        end();
      }
    });
  return queue;
}
