import { decodeScene, type Scene } from '@cadcloud/cad/scene';
import { RTN_NOT_SIGNED_IN } from '@cadcloud/contracts';
import { ApiError, goToLogin } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { clientType } from '../../lib/device.ts';
import type {} from './early-frame.ts'; // window.__cadEarly

/** How a viewer that does not own the drawing may see it: a share token (from share extraction). */
export interface SceneAccess {
  shareToken?: string;
  /** an earlier version of the owner's file (version history preview) */
  versionId?: string;
}

/** GET one layout's compiled scene; a JSON answer is the spec's error envelope, thrown as an ApiError. */
export async function fetchScene(fileId: string, layout: string, onProgress?: (loaded: number, total: number) => void, o: { whole?: boolean } & SceneAccess = {}): Promise<Scene> {
  const url = `/cloud/v5/drawing/scene?fileId=${encodeURIComponent(fileId)}&layout=${encodeURIComponent(layout)}&lang=${currentLanguage()}${o.shareToken ? `&shareToken=${encodeURIComponent(o.shareToken)}` : ''}${o.versionId ? `&versionId=${encodeURIComponent(o.versionId)}` : ''}`;
  return readScene(fetch(url, { credentials: 'same-origin', headers: { 'x-client-type': clientType() } }), onProgress, o);
}

/** The scene in an answer to the scene request (see fetchScene; index.html starts one before the app loads). */
async function readScene(answer: Promise<Response>, onProgress?: (loaded: number, total: number) => void, o: { whole?: boolean } & SceneAccess = {}): Promise<Scene> {
  let res: Response;
  try {
    res = await answer;
  } catch {
    throw new ApiError('100', 'Network Error!');
  }
  if (!(res.headers.get('content-type') ?? '').includes('cadcloud.scene')) {
    const body = await res.json().catch(() => null);
    if (body?.rtnCode === RTN_NOT_SIGNED_IN && !o.shareToken) goToLogin(); // a share visitor stays on the share page
    throw new ApiError(String(body?.rtnCode ?? res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
  }
  // while the app boots the main thread is busy: let the browser fill one buffer without waking us per chunk
  if (o.whole) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    performance.mark('cad:scene-received');
    const scene = decodeScene(bytes);
    performance.mark('cad:scene-decoded');
    return scene;
  }
  // read with progress into one buffer sized by content-length (no second copy of a large scene); progress
  // is reported per whole percent, so a 10 MB scene does not re-render the page for every network chunk
  const total = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body!.getReader();
  let bytes = new Uint8Array(total || 1 << 20);
  let loaded = 0;
  let shown = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.length > bytes.length) {
      const bigger = new Uint8Array(Math.max(bytes.length * 2, loaded + value.length));
      bigger.set(bytes.subarray(0, loaded));
      bytes = bigger;
    }
    bytes.set(value, loaded);
    loaded += value.length;
    const pct = total ? Math.floor((loaded / total) * 100) : -1;
    if (pct !== shown) {
      shown = pct;
      onProgress?.(loaded, total);
    }
  }
  if (loaded !== bytes.length) bytes = bytes.subarray(0, loaded);
  // user-timing marks: the viewer benchmark (bench/viewer.bench.ts) splits an open into transfer, decode, upload
  performance.mark('cad:scene-received');
  const scene = decodeScene(bytes);
  performance.mark('cad:scene-decoded');
  return scene;
}

/**
 * A scene asked for while the app is still booting: opening /yun/view/{id} or /webH5/item/{id} starts the
 * download at once (the request does not depend on React or on the user's details, the cookie is enough),
 * and the viewer takes it over when it mounts. Only the Model scene of that one file is prefetched.
 */
let early: { fileId: string; versionId?: string; scene: Promise<Scene> } | null = null;

export function prefetchSceneFor(pathname: string) {
  // the early painter read the answer and drew it (production builds): its scene, or the answer when not a scene
  const painted = window.__cadEarly;
  if (painted) {
    const scene = painted.scene.then((s) => s ?? readScene(painted.res, undefined, { whole: true }));
    scene.catch(() => undefined); // the viewer reports it when it takes the promise
    early = { fileId: painted.fileId, versionId: painted.versionId, scene };
    return;
  }
  // what the inline script in index.html started, when no painter took it (development server)
  const html = window.__cadScene;
  if (html) {
    delete window.__cadScene;
    const scene = readScene(html.res, undefined, { whole: true });
    scene.catch(() => undefined); // the viewer reports it when it takes the promise
    early = { fileId: html.fileId, versionId: html.versionId, scene };
    return;
  }
  const m = /^\/(?:yun\/view|webH5\/item)\/([^/?#]+)/.exec(pathname);
  // an earlier version (?versionId=) is not the file's current scene
  if (!m || /[?&]versionId=/.test(window.location.search)) return;
  const entry: NonNullable<typeof early> = { fileId: decodeURIComponent(m[1]), scene: Promise.resolve(null as never) };
  entry.scene = fetchScene(entry.fileId, 'Model', undefined, { whole: true });
  entry.scene.catch(() => undefined); // the viewer reports it when it takes the promise
  early = entry;
}

/** The prefetched scene when it is the one asked for (taken once), else a fresh request. */
export function loadScene(fileId: string, layout: string, onProgress?: (loaded: number, total: number) => void, access: SceneAccess = {}): Promise<Scene> {
  if (early && early.fileId === fileId && layout === 'Model' && !access.shareToken && (access.versionId ?? '') === (early.versionId ?? '')) {
    const e = early;
    early = null;
    return e.scene;
  }
  return fetchScene(fileId, layout, onProgress, access);
}
