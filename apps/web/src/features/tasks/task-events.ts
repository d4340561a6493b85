import type { TaskTab } from './TaskPanel.tsx';

/** Lets any screen open the task panel on a tab (after queuing an upload or a zip). */
const listeners = new Set<(tab: TaskTab) => void>();
export const taskEvents = {
  open(tab: TaskTab) {
    listeners.forEach((l) => l(tab));
  },
  subscribe(fn: (tab: TaskTab) => void) {
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  },
};
