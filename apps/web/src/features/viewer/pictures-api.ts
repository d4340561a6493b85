import { DRAWING_IMAGE_PATH } from '@cadcloud/contracts';
import { clientType } from '../../lib/device.ts';
import type { SceneAccess } from './scene-api.ts';

/**
 * The picture an IMAGE of the drawing shows (GET /cloud/v5/drawing/image), with the same access as its scene.
 * Null when the server answers with its envelope instead (not in the owner's drive, no permission) or the
 * network fails: the viewer then keeps the frame and lists the name.
 */
export async function fetchPicture(fileId: string, file: string, layout: string, access: SceneAccess = {}): Promise<Blob | null> {
  const q = new URLSearchParams({ fileId, name: file, layout });
  if (access.shareToken) q.set('shareToken', access.shareToken);
  if (access.versionId) q.set('versionId', access.versionId);
  try {
    const res = await fetch(`${DRAWING_IMAGE_PATH}?${q}`, { credentials: 'same-origin', headers: { 'x-client-type': clientType() } });
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/')) return null;
    return await res.blob();
  } catch {
    return null;
  }
}
