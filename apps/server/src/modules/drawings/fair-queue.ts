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
 * A waiting open does not wait for background work already running either, nor share the cores with it (issue 16
 * item 14: 9.95 s after upload vs 1.68 s cold, the open behind a prewarm build that had just started): while an open
 * waits or runs, a running background build is pre-empted —
 * its task's signal aborts (the scene worker ends its thread), and it goes back to the front of its owner's line, to
 * start again from nothing when no open waits. The work lost is bounded: a build is pre-empted `maxPreemptions`
 * times at most, then runs to its end. Other background work (thumbnails) runs through `yielding()`, which stops it
 * the same way when an open comes. No slot is added, so the memory budget holds what it did.
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

/** What a pre-empted task's signal aborts with: the task is run again later, nothing failed. */
export class PreemptedError extends Error {
  constructor() {
    super('pre-empted by an open');
  }
}

/** times one background build or render may be stopped for an open before it is left to finish (its lost work is bounded) */
export const MAX_PREEMPTIONS = 3;

interface Waiting {
  ticket: QueueTicket;
  start(): void;
  /** times this task was stopped for an open */
  preemptions: number;
}

interface Running {
  ticket: QueueTicket;
  /** background when it started: it holds one of the background slots until it ends */
  background: boolean;
  /** stops the task for an open (its signal aborts); undefined once used or when it may not be stopped again */
  preempt?: () => void;
}

/**
 * `concurrency`: tasks running at once; `backgroundSlots` (default all of them): how many of those background tasks may
 * take, the rest being kept for opens (an open then starts at once beside a running background build).
 */
export function createFairQueue(o: { concurrency: number; maxQueuedPerUser: number; maxPreemptions?: number; backgroundSlots?: number }) {
  const maxPreemptions = o.maxPreemptions ?? MAX_PREEMPTIONS;
  const backgroundSlots = Math.min(o.backgroundSlots ?? o.concurrency, o.concurrency);
  /** owners with waiting tasks, in round order (a Map keeps insertion order: served owners go to the back) */
  const waiting = new Map<string, Waiting[]>();
  let running = 0;
  /** tasks running now, with their tickets (a running background build an open joined counts as an open) */
  const active = new Set<Running>();
  /** stops of the background work of other kinds running now (`yielding()`) */
  const yielders = new Set<() => void>();
  const quietWaiters = new Set<() => void>();

  /**
   * The next task: the first owner in turn with an open waiting, else (a background slot free) the first owner in turn
   * whose background build may start: none while an open runs, unless it was stopped for opens as often as it may be.
   */
  function next(): [string, number] | null {
    let backgroundRunning = 0;
    let openRunning = false;
    for (const r of active) {
      if (r.background) backgroundRunning++;
      if (!r.ticket.background) openRunning = true;
    }
    let fallback: [string, number] | null = null;
    for (const [owner, tasks] of waiting) {
      const i = tasks.findIndex((t) => !t.ticket.background);
      if (i >= 0) return [owner, i];
      if (backgroundRunning < backgroundSlots && (!openRunning || tasks[0]!.preemptions >= maxPreemptions)) fallback ??= [owner, 0];
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
    else {
      preemptForOpens();
      for (const stop of [...yielders]) stop();
    }
  }

  function opensWaiting() {
    let n = 0;
    for (const tasks of waiting.values()) for (const t of tasks) if (!t.ticket.background) n++;
    return n;
  }

  /**
   * An open waits or runs: running background builds (those that may still be stopped) stop, so that they neither hold
   * a slot it needs nor take the cores from it beside it (with two cores, a build beside an open made it 4× slower).
   */
  function preemptForOpens() {
    for (const r of active) {
      if (!r.ticket.background || !r.preempt) continue;
      const stop = r.preempt;
      r.preempt = undefined;
      stop();
    }
  }

  function isQuiet() {
    for (const r of active) if (!r.ticket.background) return false;
    return opensWaiting() === 0;
  }

  /**
   * Resolves when no open is waiting or running (at once if none is), or after `maxMs`: background work of other
   * kinds (thumbnails) starts then, so it does not take the machine from someone who waits.
   */
  function quiet(maxMs: number): Promise<void> {
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
}

  return {
    /** Runs `task` when it is `owner`'s turn; rejects with QueueFullError when the owner has too many waiting. */
    run<T>(owner: string, task: (signal: AbortSignal) => Promise<T>, ticket: QueueTicket = { background: false }): Promise<T> {
      const tasks = waiting.get(owner) ?? [];
      if (tasks.length >= o.maxQueuedPerUser) return Promise.reject(new QueueFullError(owner));
      return new Promise<T>((resolve, reject) => {
        const entry: Waiting = {
          ticket,
          preemptions: 0,
          start: () => {
            const stopped = new AbortController();
            const r: Running = { ticket, background: ticket.background };
            // only background work is stopped, and only so often (an open that joins it later makes it an open)
            if (entry.preemptions < maxPreemptions) {
              r.preempt = () => {
                entry.preemptions++;
                stopped.abort(new PreemptedError());
              };
            }
            active.add(r);
            const settle = (then: () => void) => {
              running--;
              active.delete(r);
              then();
              pump();
            };
            task(stopped.signal).then(
              (v) => settle(() => resolve(v)),
              (e) =>
                settle(() => {
                  if (!stopped.signal.aborted) return reject(e);
                  // stopped for an open: first in its owner's line again, started anew when no open waits
                  const line = waiting.get(owner) ?? [];
                  line.unshift(entry);
                  if (!waiting.has(owner)) waiting.set(owner, line);
                }),
            );
          },
        };
        tasks.push(entry);
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
    quiet,
    /**
     * Background work of another kind (a drawing's thumbnail): it starts when `quiet(maxWaitMs)` says so, and when an
     * open comes while it runs its signal aborts (the work ends at once, giving back its memory reservation) and it
     * starts again at the next quiet moment; after `maxPreemptions` stops it is left to finish.
     */
    async yielding<T>(maxWaitMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      for (let stops = 0; ; stops++) {
        await quiet(maxWaitMs);
        const stopped = new AbortController();
        const stop = () => stopped.abort(new PreemptedError());
        if (stops < maxPreemptions) yielders.add(stop);
        try {
          return await work(stopped.signal);
        } catch (e) {
          if (!stopped.signal.aborted) throw e;
        } finally {
          yielders.delete(stop);
        }
      }
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
