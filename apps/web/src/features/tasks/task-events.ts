import type { TaskTab } from './TaskPanel.tsx';

/** Lets any screen show the task panel, on a given tab or (none given) on the first non-empty one. */
const listeners = new Set<(tab?: TaskTab) => void>();
export const taskEvents = {
  open(tab?: TaskTab) {
    listeners.forEach((l) => l(tab));
  },
  subscribe(fn: (tab?: TaskTab) => void) {
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  },
};
