/** Counts failures per key in a sliding window; blocks the key after `max` until the window passes. */
export function createAttemptLimiter(o: { max: number; windowMs: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  const fails = new Map<string, number[]>();
  const recent = (key: string) => (fails.get(key) ?? []).filter((t) => now() - t < o.windowMs);
  return {
    blocked(key: string) {
      return recent(key).length >= o.max;
    },
    fail(key: string) {
      const list = recent(key);
      list.push(now());
      fails.set(key, list);
      if (fails.size > 100_000) fails.delete(fails.keys().next().value!);
    },
    reset(key: string) {
      fails.delete(key);
    },
  };
}
