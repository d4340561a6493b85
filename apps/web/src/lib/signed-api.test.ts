// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deriveSaltKeys, newSessionSecret, openRequest, sealResponse, SIGNED_HEADERS, SIGNED_REQUEST_ID } from '@cadcloud/contracts/signed-call';

const secret = newSessionSecret();
vi.mock('./api.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  goToLogin: vi.fn(),
  call: vi.fn(async (path: string) => {
    if (path !== '/global/v5/common/getRsaKey') throw new Error(`unexpected style-2 call ${path}`);
    return { aesSecretKey: secret };
  }),
}));

const api = await import('./api.ts');
const { handleSignedAnswer, secureCall } = await import('./signed-api.ts');
const goToLogin = vi.mocked(api.goToLogin);

describe('the signed API error handler (spec section 8)', () => {
  beforeEach(() => goToLogin.mockClear());

  for (const code of ['0000005', '1000005', '1000008']) {
    it(`${code} logs the user out, without a toast`, () => {
      let err: unknown;
      try {
        handleSignedAnswer({ rtnCode: code, msg: 'gone', bizData: {} }, '/cloud/v5/font/list');
      } catch (e) {
        err = e;
      }
      expect(goToLogin).toHaveBeenCalledTimes(1);
      expect(err).toBeInstanceOf(api.ApiError);
      expect((err as InstanceType<typeof api.ApiError>).silent).toBe(true);
      const message = { error: vi.fn() };
      api.toastFailure(message, err);
      expect(message.error).not.toHaveBeenCalled();
    });
  }

  it('0215009 and invoice paths are returned to the caller silently; other codes are toasted', () => {
    const outcome = (code: string, path: string) => {
      try {
        handleSignedAnswer({ rtnCode: code, msg: `msg ${code}`, bizData: { code: 'x' } }, path);
      } catch (e) {
        const message = { error: vi.fn() };
        api.toastFailure(message, e);
        return { rtnCode: (e as InstanceType<typeof api.ApiError>).rtnCode, toasts: message.error.mock.calls.map((c) => c[0]) };
      }
      return null;
    };
    expect(outcome('0215009', '/cloud/v5/font/list')).toEqual({ rtnCode: '0215009', toasts: [] });
    expect(outcome('1000404', '/invoice/v5/record/list')).toEqual({ rtnCode: '1000404', toasts: [] });
    expect(outcome('1000404', '/cloud/v5/font/rename')).toEqual({ rtnCode: '1000404', toasts: ['msg 1000404'] });
    expect(goToLogin).not.toHaveBeenCalled();
    expect(handleSignedAnswer({ rtnCode: '0000000', msg: 'success', bizData: { total: 3 } }, '/cloud/v5/font/list')).toEqual({ total: 3 });
  });
});

describe('secureCall', () => {
  let tamper = false;
  beforeEach(() => {
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    sessionStorage.clear();
    // a stand-in for the server: opens the request with the session secret, answers sealed (or with a broken sign)
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      const h = init.headers as Record<string, string>;
      expect(h[SIGNED_HEADERS.requestId]).toBe(SIGNED_REQUEST_ID);
      expect(h[SIGNED_HEADERS.salt]).toMatch(/^[A-Za-z0-9]{6}$/);
      const keys = await deriveSaltKeys(secret, h[SIGNED_HEADERS.salt]);
      const req = await openRequest<{ data: { id: string }; clientInfo: { language: string } }>(keys, h[SIGNED_HEADERS.date], h[SIGNED_HEADERS.salt], JSON.parse(String(init.body)));
      expect(url).toBe('/secure/cloud/v5/font/rename');
      expect(req.clientInfo.language).toBeTruthy();
      const sealed = await sealResponse(keys, h[SIGNED_HEADERS.date], h[SIGNED_HEADERS.salt], { rtnCode: '0000000', bizData: { id: req.data.id }, msg: 'success' });
      return new Response(JSON.stringify(tamper ? { ...sealed, sign: sealed.sign.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) } : sealed));
    }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tamper = false;
  });

  it('round-trips through the signed scheme and caches the secret', async () => {
    expect(await secureCall('/cloud/v5/font/rename', { id: 'f1', name: 'a.ttf' })).toEqual({ id: 'f1' });
    expect(await secureCall('/cloud/v5/font/rename', { id: 'f2', name: 'b.ttf' })).toEqual({ id: 'f2' });
    expect(vi.mocked(api.call)).toHaveBeenCalledTimes(1);
  });

  it('refuses an answer whose sign does not check: 签名失败', async () => {
    tamper = true;
    localStorage.setItem('cadcloud.lang', 'zh');
    await expect(secureCall('/cloud/v5/font/rename', { id: 'f1', name: 'a.ttf' })).rejects.toMatchObject({ rtnCode: '1000006' });
  });
});
