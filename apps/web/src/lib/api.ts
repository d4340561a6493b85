import { RTN_SUCCESS, RTN_NOT_SIGNED_IN } from '@cadcloud/contracts';
import { currentLanguage } from './i18n.ts';
import { clientType } from './device.ts';

/** A non-success answer: `msg` is the server's localized text, shown as an error toast by callers. */
export class ApiError extends Error {
  constructor(
    readonly rtnCode: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
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
