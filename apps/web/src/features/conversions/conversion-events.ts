/** Someone started conversions: the task panel's conversion tab and the lists showing statuses look again. */
const listeners = new Set<() => void>();
export const conversionEvents = {
  changed() {
    listeners.forEach((l) => l());
  },
  subscribe(fn: () => void) {
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  },
};
