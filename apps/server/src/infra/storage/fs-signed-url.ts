import { createHmac, timingSafeEqual } from 'node:crypto';

/** Local-disk signed URLs: HMAC-SHA256 over key, expiry and download name, served by fs.routes.ts. */
export const FS_OBJECT_PATH = '/api/storage/object';

function sign(secret: string, key: string, exp: number, name: string): string {
  return createHmac('sha256', secret).update(`${key}\n${exp}\n${name}`).digest('base64url');
}

export function createFsSignedUrl(secret: string, key: string, expiresInSeconds: number, downloadName = ''): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  const q = new URLSearchParams({ key, exp: String(exp), name: downloadName, sig: sign(secret, key, exp, downloadName) });
  return `${FS_OBJECT_PATH}?${q}`;
}

export function verifyFsSignedUrl(query: Record<string, unknown>, secret: string): { key: string; name: string } | null {
  const key = String(query.key ?? '');
  const name = String(query.name ?? '');
  const exp = Number(query.exp);
  const sig = Buffer.from(String(query.sig ?? ''));
  if (!key || !Number.isFinite(exp) || exp < Date.now() / 1000) return null;
  const want = Buffer.from(sign(secret, key, exp, name));
  return sig.length === want.length && timingSafeEqual(sig, want) ? { key, name } : null;
}
