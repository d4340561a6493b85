import { RTN_SUCCESS, RTN_NOT_SIGNED_IN } from '@cadcloud/contracts';
import { currentLanguage } from './i18n.ts';
import { clientType } from './device.ts';

/**
 * A non-success answer: `msg` is the server's localized text, shown as an error toast by callers (`errorToast`).
 * `silent`: the spec says no toast for it (the signed API's log-out and silent codes, section 8).
 */
export class ApiError extends Error {
  constructor(
    readonly rtnCode: string,
    message: string,
    readonly code?: string,
    readonly silent = false,
  ) {
    super(message);
  }
}

/** Toasts a failed call's message, unless the answer is one the spec keeps silent (signed API, section 8). */
export function toastFailure(message: { error(text: string): unknown }, e: unknown): void {
  if (e instanceof ApiError && e.silent) return;
  message.error((e as Error)?.message ?? String(e));
}

export function clientInfo() {
  return { clientType: clientType(), clientVersion: '1.0.0', appVersion: '1.0.0', language: currentLanguage() };
}

/** Code 101: not signed in. The session is gone, so go through the login site and come back here. */
let leaving = false;
export function goToLogin() {
  // several calls can answer 101 at once: leave once; what the tab kept of the old session goes (the language stays)
  if (leaving) return;
  leaving = true;
  sessionStorage.clear();
  const back = window.location.pathname + window.location.search;
  window.location.assign(`/api/auth/login?returnTo=${encodeURIComponent(back)}&clientType=${clientType()}&lang=${currentLanguage()}`);
}

/** Call style 2: `{data, clientInfo}` → `{rtnCode, bizData, msg}`; the ticket cookie identifies the user. */
export async function call<T = any>(path: string, data: unknown = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data, clientInfo: clientInfo() }), credentials: 'same-origin' });
  } catch {
    throw new ApiError('100', 'Network Error!');
  }
  const body = await res.json().catch(() => null);
  if (!body) throw new ApiError(String(res.status), 'Network Error!');
  if (body.rtnCode === RTN_NOT_SIGNED_IN) {
    goToLogin();
    throw new ApiError(body.rtnCode, body.msg);
  }
  if (body.rtnCode !== RTN_SUCCESS) throw new ApiError(body.rtnCode, body.msg, body.bizData?.code);
  return body.bizData as T;
}

/** Multipart POST (call style 5) of one file after `fields`, with upload progress (fetch has none); the envelope's bizData. */
export function uploadMultipart<T = any>(path: string, fields: Record<string, string>, file: File, onProgress: (pct: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept-language', clientInfo().language);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText);
        if (body.rtnCode === '0000000') {
          onProgress(100);
          resolve(body.bizData);
        } else {
          if (body.rtnCode === '101') goToLogin();
          reject(new ApiError(body.rtnCode, body.msg, body.bizData?.code));
        }
      } catch {
        reject(new ApiError(String(xhr.status), 'Network Error!'));
      }
    };
    xhr.onerror = () => reject(new ApiError('100', 'Network Error!'));
    const form = new FormData();
    // fields first: the server reads them before it streams the file
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('filedata', file, file.name);
    xhr.send(form);
  });
}

/**
 * A call whose answer is a zip (call style 7): the archive as a blob URL and its file name (`fallbackName` when the
 * answer names none); a JSON answer is the error envelope.
 */
export async function postForZip(path: string, data: unknown, fallbackName: string): Promise<{ url: string; name: string }> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data, clientInfo: clientInfo() }), credentials: 'same-origin' });
  } catch {
    throw new ApiError('100', 'Network Error!');
  }
  if (!(res.headers.get('content-type') ?? '').includes('application/zip')) {
    const body = await res.json().catch(() => null);
    if (body?.rtnCode === '101') goToLogin();
    throw new ApiError(body?.rtnCode ?? String(res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
  }
  const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  return { url: URL.createObjectURL(await res.blob()), name: name ? decodeURIComponent(name) : fallbackName };
}
