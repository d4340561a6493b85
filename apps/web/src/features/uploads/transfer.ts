import type { UploadConflict } from '@cadcloud/contracts';
import { ApiError, call, clientInfo } from '../../lib/api.ts';

export const CHUNK_THRESHOLD = 8 * 1024 * 1024;

export interface UploadTarget {
  parentId: string;
  relativePath?: string;
  name: string;
  md5: string;
  size: number;
  /** a file of this name in the folder: 'rename' (server default) keeps both, 'version' makes this its next version */
  conflict?: UploadConflict;
}

type Progress = (loaded: number) => void;

/** Multipart upload (call style 5) with progress events (fetch has no upload progress). */
export function uploadMultipart(file: Blob, t: UploadTarget, onProgress: Progress, signal?: AbortSignal): Promise<any> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/cloud/v5/file/upload');
    xhr.setRequestHeader('accept-language', clientInfo().language);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText);
        if (body.rtnCode === '0000000') resolve(body.bizData);
        else reject(new ApiError(body.rtnCode, body.msg, body.bizData?.code));
      } catch {
        reject(new ApiError(String(xhr.status), 'Network Error!'));
      }
    };
    xhr.onerror = () => reject(new ApiError('100', 'Network Error!'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('parentId', t.parentId);
    if (t.relativePath) form.append('relativePath', t.relativePath);
    form.append('md5', t.md5);
    form.append('size', String(t.size));
    if (t.conflict) form.append('conflict', t.conflict);
    form.append('filedata', file, t.name);
    xhr.send(form);
  });
}

export interface ChunkDeps {
  init(t: UploadTarget): Promise<{ uploadId: string | null; chunkSize: number; received: number; item: any }>;
  putChunk(uploadId: string, offset: number, bytes: Blob): Promise<{ received: number }>;
  complete(uploadId: string): Promise<{ complete: boolean; received?: number; item: any }>;
  sleep(ms: number): Promise<void>;
}

export const httpChunkDeps: ChunkDeps = {
  init: (t) => call('/cloud/v5/upload/init', t),
  async putChunk(uploadId, offset, bytes) {
    let res: Response;
    try {
      res = await fetch(`/cloud/v5/upload/chunk?uploadId=${encodeURIComponent(uploadId)}&offset=${offset}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes, credentials: 'same-origin' });
    } catch {
      throw new ApiError('100', 'Network Error!');
    }
    const body = await res.json();
    if (body.rtnCode !== '0000000') throw new ApiError(body.rtnCode, body.msg, body.bizData?.code);
    return body.bizData;
  },
  complete: (uploadId) => call('/cloud/v5/upload/complete', { uploadId }),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/**
 * Chunked upload that survives network failures: a failed chunk is retried with backoff, and on each retry
 * the server is asked how much it already has, so the upload continues from there instead of restarting.
 */
export async function uploadChunked(file: Blob, t: UploadTarget, onProgress: Progress, deps: ChunkDeps = httpChunkDeps, signal?: AbortSignal): Promise<any> {
  let session = await deps.init(t);
  if (!session.uploadId) return session.item; // instant upload
  let offset = session.received;
  let failures = 0;
  onProgress(offset);
  while (offset < t.size) {
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const end = Math.min(t.size, offset + session.chunkSize);
    try {
      offset = (await deps.putChunk(session.uploadId!, offset, file.slice(offset, end))).received;
      failures = 0;
      onProgress(offset);
    } catch (e) {
      if (e instanceof ApiError && e.rtnCode !== '100' && !/^5/.test(e.rtnCode)) throw e;
      if (++failures > 8) throw e;
      await deps.sleep(Math.min(30_000, 500 * 2 ** failures));
      session = await deps.init(t).catch(() => session);
      offset = session.received;
    }
  }
  const done = await deps.complete(session.uploadId!);
  if (!done.complete) throw new ApiError('1002004', 'Failed to get file MD5');
  return done.item;
}
