import { useEffect, useState } from 'react';
import { filesApi } from './api.ts';

let cached: Promise<{ webUploadFileSize: number }> | null = null;

/** The server's upload limit (getConfParamsByType type 2, fetched once). */
export function useUploadLimit(): number {
  const [limit, setLimit] = useState(200 * 1024 * 1024);
  useEffect(() => {
    cached ??= filesApi.config();
    cached.then((c) => setLimit(c.webUploadFileSize), () => undefined);
  }, []);
  return limit;
}
