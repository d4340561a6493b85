/**
 * Call style 3 (spec section 7): the signed and encrypted POST, one implementation for the server (Node 20's
 * WebCrypto) and the browser. The scheme (README "Call style 3"):
 *   secret  32 random bytes per session, from POST /global/v5/common/getRsaKey (call style 4), base64url
 *   salt    6 random characters [A-Za-z0-9] per request (header x-salt); date: ms since epoch (header x-request-date)
 *   keys    HKDF-SHA256(ikm = secret, salt = salt, info = "cadcloud-style3") → 64 bytes: AES-256-GCM key ‖ HMAC key
 *   key     base64url(iv(12) ‖ AES-GCM(JSON {data, clientInfo, style, secret}, aad = date + "\n" + salt))
 *   sign    base64url(HMAC-SHA256(mac key, "req\n" + date + "\n" + salt + "\n" + key))
 * The answer is `{sign, key}` as well: key = the encrypted `{rtnCode, bizData, msg}`, sign over "res\n" + … so a
 * request can never pass for an answer. Only standard primitives; nothing here is secret but the session's secret.
 */

export const SIGNED_PATH_PREFIX = '/secure';
/** the fixed request id every style-3 call carries (header x-sign-request-id) */
export const SIGNED_REQUEST_ID = 'cadcloud-style3-v1';
export const SIGNED_HEADERS = { date: 'x-request-date', requestId: 'x-sign-request-id', agent: 'x-client-agent', salt: 'x-salt' } as const;
/** a request whose date is further than this from the server's clock is refused (and replays are remembered this long) */
export const SIGNED_MAX_SKEW_MS = 5 * 60_000;
export const SALT_PATTERN = /^[A-Za-z0-9]{6}$/;
/**
 * Codes of the signed API the client acts on (spec section 8): these log the user out; 0215009 and invoice paths are
 * silent (returned to the caller, no toast); every other failure shows the server's msg.
 */
export const SIGNED_LOGOUT_CODES = ['0000005', '1000005', '1000008'] as const;
export const SIGNED_SILENT_CODES = ['0215009'] as const;

export interface SignedEnvelope {
  sign: string;
  key: string;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function randomSalt(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  // 256 % 62 leaves a slight bias: irrelevant for a replay nonce that is paired with the date
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

export function newSessionSecret(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(32)));
}

interface SaltKeys {
  aes: CryptoKey;
  mac: CryptoKey;
}

/** The two keys of one request, derived from the session's secret and the request's salt. */
export async function deriveSaltKeys(secret: string, salt: string): Promise<SaltKeys> {
  const ikm = await crypto.subtle.importKey('raw', fromB64url(secret), 'HKDF', false, ['deriveBits']);
  const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: enc.encode(salt), info: enc.encode('cadcloud-style3') }, ikm, 512));
  const aes = await crypto.subtle.importKey('raw', bits.slice(0, 32), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const mac = await crypto.subtle.importKey('raw', bits.slice(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return { aes, mac };
}

const signedText = (dir: 'req' | 'res', date: string, salt: string, key: string) => enc.encode(`${dir}\n${date}\n${salt}\n${key}`);

async function seal(keys: SaltKeys, dir: 'req' | 'res', date: string, salt: string, payload: unknown): Promise<SignedEnvelope> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: enc.encode(`${date}\n${salt}`) }, keys.aes, enc.encode(JSON.stringify(payload))));
  const body = new Uint8Array(iv.length + ct.length);
  body.set(iv);
  body.set(ct, iv.length);
  const key = b64url(body);
  const sign = b64url(new Uint8Array(await crypto.subtle.sign('HMAC', keys.mac, signedText(dir, date, salt, key))));
  return { sign, key };
}

/** 'sign': the signature does not match (签名失败); 'key': signed right but the key cannot be read. */
export class SignedCallError extends Error {
  constructor(readonly reason: 'sign' | 'key') {
    super(reason === 'sign' ? 'signature mismatch' : 'unreadable key');
  }
}

async function open<T>(keys: SaltKeys, dir: 'req' | 'res', date: string, salt: string, env: SignedEnvelope): Promise<T> {
  let sig: Uint8Array<ArrayBuffer>;
  try {
    sig = fromB64url(env.sign);
  } catch {
    throw new SignedCallError('sign');
  }
  // HMAC verify compares in constant time
  if (!(await crypto.subtle.verify('HMAC', keys.mac, sig, signedText(dir, date, salt, env.key)))) throw new SignedCallError('sign');
  try {
    const body = fromB64url(env.key);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: body.slice(0, 12), additionalData: enc.encode(`${date}\n${salt}`) }, keys.aes, body.slice(12));
    return JSON.parse(dec.decode(plain)) as T;
  } catch {
    throw new SignedCallError('key');
  }
}

export const sealRequest = (keys: SaltKeys, date: string, salt: string, payload: unknown) => seal(keys, 'req', date, salt, payload);
export const sealResponse = (keys: SaltKeys, date: string, salt: string, payload: unknown) => seal(keys, 'res', date, salt, payload);
export const openRequest = <T>(keys: SaltKeys, date: string, salt: string, env: SignedEnvelope) => open<T>(keys, 'req', date, salt, env);
export const openResponse = <T>(keys: SaltKeys, date: string, salt: string, env: SignedEnvelope) => open<T>(keys, 'res', date, salt, env);

/** What the client does with a signed answer's code (spec section 8). */
export function signedAnswerAction(rtnCode: string, path: string): 'ok' | 'logout' | 'silent' | 'toast' {
  if (rtnCode === '0000000') return 'ok';
  if ((SIGNED_LOGOUT_CODES as readonly string[]).includes(rtnCode)) return 'logout';
  if ((SIGNED_SILENT_CODES as readonly string[]).includes(rtnCode) || /^(\/secure)?\/invoice\//.test(path)) return 'silent';
  return 'toast';
}
