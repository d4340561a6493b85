import { useCallback, useEffect, useRef, useState } from 'react';
import { CONVERSION_POLL_MS } from '@cadcloud/contracts';
import { message } from 'antd';
import { conversionsApi, IN_TRANSFORM, type Conversion } from './api.ts';
import { conversionEvents } from './conversion-events.ts';

/** The user's conversions, looked at again every 5 s (the spec's polling timer) while one is converting, and whenever conversions start. */
export function useConversions(enabled = true) {
  const [list, setList] = useState<Conversion[]>([]);
  const [loaded, setLoaded] = useState(false);
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    try {
      const r = await conversionsApi.list(1, 50);
      if (alive.current) {
        setList(r.list);
        setLoaded(true);
      }
      return r.list;
    } catch {
      return [];
    }
  }, []);
  useEffect(() => {
    alive.current = true;
    if (enabled) void refresh();
    const off = conversionEvents.subscribe(() => void refresh());
    return () => {
      alive.current = false;
      off();
    };
  }, [enabled]);
  const running = list.some((c) => c.transformStatus === IN_TRANSFORM);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, CONVERSION_POLL_MS);
    return () => clearInterval(timer);
  }, [running]);
  const retry = async (c: Conversion) => {
    try {
      await conversionsApi.retry(c.taskId);
      conversionEvents.changed();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  return { list, loaded, running, refresh, retry };
}
