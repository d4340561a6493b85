/**
 * Scene builds waiting for the worker, served round-robin by user: each user's builds run in the order they came,
 * but the next build is always the next user's in turn, so one user opening many heavy drawings delays another by
 * one build at most, not by all of theirs. A user may have `maxQueuedPerUser` builds waiting; more are refused
 * (`busy`), so nobody can fill the queue.
 *
 * Per process, on purpose (issue 16 item 4): it shares out this process's scene workers, whose CPU and memory are
 * this machine's, and the per-user limit bounds this process's queue. With N web processes a user may have N times
 * `maxQueuedPerUser` builds waiting, one queue's worth on each, which is what each process can bear. A cluster-wide
 * count (Redis) would add a round trip to every open and protect nothing a process does not already protect.
 */
export class QueueFullError extends Error {
  constructor(readonly owner: string) {
    super('too many builds waiting');
  }
}

export function createFairQueue(o: { concurrency: number; maxQueuedPerUser: number }) {
  /** owners with waiting tasks, in round order (a Map keeps insertion order: served owners go to the back) */
  const waiting = new Map<string, (() => void)[]>();
  let running = 0;

  function pump() {
    while (running < o.concurrency && waiting.size) {
      const [owner, tasks] = waiting.entries().next().value as [string, (() => void)[]];
      waiting.delete(owner);
      const start = tasks.shift()!;
      if (tasks.length) waiting.set(owner, tasks);
      running++;
      start();
    }
  }

  return {
    /** Runs `task` when it is `owner`'s turn; rejects with QueueFullError when the owner has too many waiting. */
    run<T>(owner: string, task: () => Promise<T>): Promise<T> {
      const tasks = waiting.get(owner) ?? [];
      if (tasks.length >= o.maxQueuedPerUser) return Promise.reject(new QueueFullError(owner));
      return new Promise<T>((resolve, reject) => {
        tasks.push(() => {
          task()
            .then(resolve, reject)
            .finally(() => {
              running--;
              pump();
            });
        });
        if (!waiting.has(owner)) waiting.set(owner, tasks);
        pump();
      });
    },
    /** builds waiting (not running) for `owner`, or for everyone */
    waiting(owner?: string): number {
      if (owner !== undefined) return waiting.get(owner)?.length ?? 0;
      let n = 0;
      for (const t of waiting.values()) n += t.length;
      return n;
    },
  };
}
