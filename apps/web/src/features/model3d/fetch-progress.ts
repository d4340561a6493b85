/** Bytes of a download so far, and all of them when the server said (content-length). */
export interface Received {
  loaded: number;
  total: number | null;
}

/**
 * A GLB read as it streams in, telling how many bytes arrived (the viewer shows it: a 5-million-triangle model is tens
 * of MB). The body is read chunk by chunk from the response's stream and joined once at the end.
 */
export async function fetchWithProgress(url: string, onProgress: (r: Received) => void, signal?: AbortSignal): Promise<ArrayBuffer> {
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) throw new Error(String(res.status));
  const total = Number(res.headers.get('content-length')) || null;
  if (!res.body) return res.arrayBuffer();
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out.buffer;
}
