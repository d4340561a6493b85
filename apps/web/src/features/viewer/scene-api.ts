import { decodeScene, type Scene } from '@cadcloud/cad/scene';
import { RTN_NOT_SIGNED_IN } from '@cadcloud/contracts';
import { ApiError, goToLogin } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { clientType } from '../../lib/device.ts';

/** GET one layout's compiled scene; a JSON answer is the spec's error envelope, thrown as an ApiError. */
export async function fetchScene(fileId: string, layout: string, onProgress?: (loaded: number, total: number) => void): Promise<Scene> {
  const url = `/cloud/v5/drawing/scene?fileId=${encodeURIComponent(fileId)}&layout=${encodeURIComponent(layout)}&lang=${currentLanguage()}`;
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', headers: { 'x-client-type': clientType() } });
  } catch {
    throw new ApiError('100', 'Network Error!');
  }
  if (!(res.headers.get('content-type') ?? '').includes('cadcloud.scene')) {
    const body = await res.json().catch(() => null);
    if (body?.rtnCode === RTN_NOT_SIGNED_IN) goToLogin();
    throw new ApiError(String(body?.rtnCode ?? res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
  }
  // read with progress: large scenes are tens of MB
  const total = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    onProgress?.(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  // user-timing marks: the viewer benchmark (bench/viewer.bench.ts) splits an open into transfer, decode, upload
  performance.mark('cad:scene-received');
  const scene = decodeScene(bytes);
  performance.mark('cad:scene-decoded');
  return scene;
}
