/**
 * Scene builds waiting for the worker, served round-robin by user: each user's builds run in the order they came,
 * but the next build is always the next user's in turn, so one user opening many heavy drawings delays another by
 * one build at most, not by all of theirs. A user may have `maxQueuedPerUser` builds waiting; more are refused
 * (`busy`), so nobody can fill the queue.
 *
 * Someone waiting comes before background work (issue 16 item 14: a first open right after an upload took 9 s behind
 * other files' prewarm builds): a build whose ticket says `background` (the prewarm after an upload) runs only when
 * no open is waiting, and an open that joins a waiting background build promotes it (`ticket.background = false`,
 * then `promote()`).
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

/** How a build waits: for someone (an open) or in the background. Changed by its holder; `promote()` makes it count. */
export interface QueueTicket {
  background: boolean;
}

interface Waiting {
  ticket: QueueTicket;
  start(): void;
}

export function createFairQueue(o: { concurrency: number; maxQueuedPerUser: number }) {
  /** owners with waiting tasks, in round order (a Map keeps insertion order: served owners go to the back) */
  const waiting = new Map<string, Waiting[]>();
  let running = 0;
  /** opens running now (what background work elsewhere, the thumbnails, yields to) */
  let openRunning = 0;
  const quietWaiters = new Set<() => void>();

  /** the next task: the first owner in turn with an open waiting, else the first owner in turn */
  function next(): [string, number] | null {
    let fallback: [string, number] | null = null;
    for (const [owner, tasks] of waiting) {
      const i = tasks.findIndex((t) => !t.ticket.background);
      if (i >= 0) return [owner, i];
      fallback ??= [owner, 0];
    }
    return fallback;
  }

  function pump() {
    while (running < o.concurrency) {
      const pick = next();
      if (!pick) break;
      const [owner, i] = pick;
      const tasks = waiting.get(owner)!;
      waiting.delete(owner);
      const [task] = tasks.splice(i, 1);
      if (tasks.length) waiting.set(owner, tasks);
      running++;
      task.start();
    }
    if (isQuiet()) for (const w of [...quietWaiters]) w();
  }

  function isQuiet() {
    if (openRunning > 0) return false;
    for (const tasks of waiting.values()) if (tasks.some((t) => !t.ticket.background)) return false;
    return true;
  }

  return {
    /** Runs `task` when it is `owner`'s turn; rejects with QueueFullError when the owner has too many waiting. */
    run<T>(owner: string, task: () => Promise<T>, ticket: QueueTicket = { background: false }): Promise<T> {
      const tasks = waiting.get(owner) ?? [];
      if (tasks.length >= o.maxQueuedPerUser) return Promise.reject(new QueueFullError(owner));
      return new Promise<T>((resolve, reject) => {
        tasks.push({
          ticket,
          start: () => {
            // counted as an open if it was one when it started (a promoted build is)
            const open = !ticket.background;
            if (open) openRunning++;
            task()
              .then(resolve, reject)
              .finally(() => {
                running--;
                if (open) openRunning--;
                pump();
              });
          },
        });
        if (!waiting.has(owner)) waiting.set(owner, tasks);
        pump();
      });
    },
    /** A ticket changed (a waiting background build became someone's open): serve accordingly. */
    promote: pump,
    /**
     * Resolves when no open is waiting or running (at once if none is), or after `maxMs`: background work of other
     * kinds (thumbnails) starts then, so it does not take the machine from someone who waits.
     */
    quiet(maxMs: number): Promise<void> {
      if (isQuiet()) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          quietWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, maxMs);
        timer.unref?.();
        quietWaiters.add(done);
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
