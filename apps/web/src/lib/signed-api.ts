import { RTN_SUCCESS } from '@cadcloud/contracts';
import { deriveSaltKeys, openResponse, randomSalt, sealRequest, signedAnswerAction, SIGNED_HEADERS, SIGNED_PATH_PREFIX, SIGNED_REQUEST_ID } from '@cadcloud/contracts/signed-call';
import { serverMessage } from '@cadcloud/i18n';
import { ApiError, call, clientInfo, goToLogin } from './api.ts';
import { currentLanguage } from './i18n.ts';

/**
 * Call style 3 in the browser (spec section 7; scheme in packages/contracts/src/signed-call.ts, WebCrypto only):
 * the session's secret comes from getRsaKey (call style 4) once and is cached in sessionStorage, which goToLogin
 * clears with the session. WebCrypto exists only in secure contexts (https, localhost): elsewhere the same call
 * goes as style 2, which every signed endpoint answers as well.
 */
const SECRET_KEY = 'cadcloud.aesSecretKey';
let asking: Promise<string> | null = null;

export function signedCallsAvailable(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && !!globalThis.crypto?.subtle;
}

async function sessionSecret(): Promise<string> {
  const cached = sessionStorage.getItem(SECRET_KEY);
  if (cached) return cached;
  asking ??= call<{ aesSecretKey: string }>('/global/v5/common/getRsaKey', {})
    .then((r) => {
      sessionStorage.setItem(SECRET_KEY, r.aesSecretKey);
      return r.aesSecretKey;
    })
    .finally(() => {
      asking = null;
    });
  return asking;
}

interface Answer {
  rtnCode: string;
  bizData?: { code?: string } & Record<string, unknown>;
  msg: string;
}

/**
 * The signed API's rule for an answer (spec section 8): 0000005, 1000005, 1000008 log the user out; 0215009 and
 * invoice paths are returned to the caller silently; any other failure is thrown for the caller to toast.
 */
export function handleSignedAnswer<T>(answer: Answer, path: string): T {
  const action = signedAnswerAction(answer.rtnCode, path);
  if (action === 'ok') return answer.bizData as T;
  if (action === 'logout') {
    sessionStorage.removeItem(SECRET_KEY);
    goToLogin();
  }
  throw new ApiError(answer.rtnCode, answer.msg, answer.bizData?.code, action !== 'toast');
}

export async function secureCall<T = any>(path: string, data: unknown = {}): Promise<T> {
  if (!signedCallsAvailable()) return call<T>(path, data);
  const secret = await sessionSecret();
  const date = String(Date.now());
  const salt = randomSalt();
  const keys = await deriveSaltKeys(secret, salt);
  const sealed = await sealRequest(keys, date, salt, { data, clientInfo: clientInfo(), style: 3, secret: 1 });
  let res: Response;
  try {
    res = await fetch(SIGNED_PATH_PREFIX + path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [SIGNED_HEADERS.date]: date, [SIGNED_HEADERS.salt]: salt, [SIGNED_HEADERS.requestId]: SIGNED_REQUEST_ID, [SIGNED_HEADERS.agent]: `CADCloud-Web/1.0.0 ${clientInfo().clientType}` },
      body: JSON.stringify(sealed),
    });
  } catch {
    throw new ApiError('100', 'Network Error!');
  }
  const body = (await res.json().catch(() => null)) as (Answer & { sign?: string; key?: string }) | null;
  if (!body) throw new ApiError(String(res.status), 'Network Error!');
  let answer: Answer = body;
  if (typeof body.sign === 'string' && typeof body.key === 'string') {
    try {
      answer = await openResponse<Answer>(keys, date, salt, { sign: body.sign, key: body.key });
    } catch {
      // an answer that is not signed with this request's key is not believed
      answer = { rtnCode: '1000006', msg: serverMessage('errors.sign.failed', currentLanguage()), bizData: { code: 'sign.failed' } };
    }
  } else if (body.rtnCode === RTN_SUCCESS) {
    // a success must come sealed: a clear one did not come from the signed endpoint
    answer = { rtnCode: '1000006', msg: serverMessage('errors.sign.failed', currentLanguage()), bizData: { code: 'sign.failed' } };
  }
  return handleSignedAnswer<T>(answer, path);
}
