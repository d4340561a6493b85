import { useCallback, useEffect, useRef, useState } from 'react';
import { TransformStatus, type Model3dTask } from '@cadcloud/contracts';
import { model3dApi, MODEL3D_POLL_MS } from './api.ts';

/** Tells the open lists that 3D conversions started (the drive's convert action, a retry in the list). */
const listeners = new Set<() => void>();
export const model3dTaskEvents = {
  changed() {
    listeners.forEach((l) => l());
  },
  subscribe(fn: () => void) {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  },
};

/**
 * The user's 3D conversions (list3D), looked at again every 5 s only while one converts, and whenever conversions
 * start. A retry converts the file again (transformBatch3D), its server message shown by the caller.
 */
export function useModel3dTasks() {
  const [list, setList] = useState<Model3dTask[]>([]);
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    try {
      const r = await model3dApi.list();
      if (alive.current) setList(r.list);
      return r.list;
    } catch {
      return [];
    }
  }, []);
  useEffect(() => {
    alive.current = true;
    void refresh();
    const off = model3dTaskEvents.subscribe(() => void refresh());
    return () => {
      alive.current = false;
      off();
    };
  }, []);
  const running = list.some((c) => c.transformStatus === TransformStatus.IN_TRANSFORM);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, MODEL3D_POLL_MS);
    return () => clearInterval(timer);
  }, [running]);
  const retry = async (c: Model3dTask) => {
    await model3dApi.transform([c.fileId]);
    model3dTaskEvents.changed();
  };
  return { list, running, refresh, retry };
}
