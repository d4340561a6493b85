import { useCallback, useEffect, useRef, useState } from 'react';
import { TaskStatus, UNZIP_POLL_MS } from '@cadcloud/contracts';
import { isRunning, unzipApi, unzipEvents, type UnzipTask } from './api.ts';

/**
 * The user's decompressions (`zip/task/list {taskType: 2}`), looked at again every UNZIP_POLL_MS (the spec's 5 s
 * timer) while one waits or unpacks, and whenever decompressions start. A task seen running that is now successful
 * tells the drive (`unzipEvents.extracted`), so the list showing its archive shows the new folder.
 */
/** Tasks started or seen running here, whose success is still to be told (module-wide: the flow that started one adds it). */
const watched = new Set<string>();
export const watchUnzip = (taskId: string) => void watched.add(taskId);

export function useUnzipTasks() {
  const [list, setList] = useState<UnzipTask[]>([]);
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    let next: UnzipTask[];
    try {
      next = (await unzipApi.list()).list;
    } catch {
      return [];
    }
    if (!alive.current) return next;
    for (const t of next) {
      if (isRunning(t)) watched.add(t.taskId);
      else if (watched.delete(t.taskId) && t.status === TaskStatus.SUCCESS && t.unzip) unzipEvents.extracted(t.unzip.fileId);
    }
    setList(next);
    return next;
  }, []);
  useEffect(() => {
    alive.current = true;
    void refresh();
    const off = unzipEvents.onChanged(() => void refresh());
    return () => {
      alive.current = false;
      off();
    };
  }, []);
  const running = list.some(isRunning);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, UNZIP_POLL_MS);
    return () => clearInterval(timer);
  }, [running]);
  return { list, running, refresh };
}
