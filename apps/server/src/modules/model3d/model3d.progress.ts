/**
 * A conversion's progress written to its row at most once per `minIntervalMs` (the worker may report a hundred times in
 * a second; a few writes a second are plenty for a panel polled every 5 s). The latest report is the one written: a
 * report inside the interval waits for its end (trailing), replacing any report still waiting. Writes never overlap
 * and never come after `stop()`, so a late percent cannot overwrite the stage that follows (store, done, failed).
 */
export function throttledProgress(write: (percent: number, stage: string) => Promise<unknown>, minIntervalMs = 250) {
  let lastAt = 0;
  let pending: { percent: number; stage: string } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let last = '';
  const flush = () => {
    timer = undefined;
    if (!pending || stopped) return;
    const p = pending;
    pending = null;
    lastAt = Date.now();
    // a failed progress write is no failed conversion: the next report tries again
    chain = chain.then(() => write(p.percent, p.stage)).catch(() => undefined);
  };
  return {
    report(percent: number, stage: string) {
      // the same again (the server's first "parse" and the worker's own) is no news: no write
      if (stopped || `${percent} ${stage}` === last) return;
      last = `${percent} ${stage}`;
      pending = { percent, stage };
      if (timer) return;
      const wait = lastAt + minIntervalMs - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    /** drops what waits and resolves once the write under way (if any) is done */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      pending = null;
      await chain;
    },
  };
}
