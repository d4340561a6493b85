/**
 * The memory all drawing workers of this process may hold at once (scene, compare, thumbnail and, later, conversion
 * workers, with the DWG reader processes they start). A job reserves its worker's limit before it starts and gives
 * it back when it ends; a job that does not fit waits — it never fails for it — and waiting jobs are served in
 * the order they asked, so a large reservation is not starved by small ones behind it.
 */
export interface MemoryBudget {
  readonly totalMb: number;
  /** MB reserved by running jobs */
  readonly inUseMb: number;
  /** jobs waiting for room */
  readonly waiting: number;
  /** Waits until `mb` fits, reserves it and returns the release (calling it more than once is harmless). */
  reserve(mb: number): Promise<() => void>;
  /** `fn` under a reservation of `mb`, released however it ends */
  run<T>(mb: number, fn: () => Promise<T>): Promise<T>;
}

export function createMemoryBudget(totalMb: number): MemoryBudget {
  let inUseMb = 0;
  const queue: { mb: number; grant(): void }[] = [];

  function admit() {
    while (queue.length && inUseMb + queue[0]!.mb <= totalMb) {
      const next = queue.shift()!;
      inUseMb += next.mb;
      next.grant();
    }
  }

  function reserve(mb: number): Promise<() => void> {
    // a request above the whole budget could never be served: it runs alone instead of waiting forever
    const want = Math.min(mb, totalMb);
    return new Promise((resolve) => {
      queue.push({
        mb: want,
        grant: () => {
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            inUseMb -= want;
            admit();
          });
        },
      });
      admit();
    });
  }

  return {
    totalMb,
    get inUseMb() {
      return inUseMb;
    },
    get waiting() {
      return queue.length;
    },
    reserve,
    async run(mb, fn) {
      const release = await reserve(mb);
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
