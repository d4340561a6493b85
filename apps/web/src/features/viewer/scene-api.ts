import type { Scene } from '@cadcloud/cad/scene';
import { RTN_NOT_SIGNED_IN } from '@cadcloud/contracts';
import { ApiError, goToLogin } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { clientType } from '../../lib/device.ts';
import { NotAScene, SceneLoad } from './scene-load.ts';
import type {} from './early-frame.ts'; // window.__cadEarly, window.__cadScene

/** How a viewer that does not own the drawing may see it: a share token (from share extraction). */
export interface SceneAccess {
  shareToken?: string;
  /** an earlier version of the owner's file (version history preview) */
  versionId?: string;
}

/** A scene being downloaded: `head` when its first bytes allow drawing to begin, `done` when it is all there; errors as the viewer shows them. */
export interface OpenScene {
  load: SceneLoad;
  head: Promise<Scene>;
  done: Promise<Scene>;
}

function sceneUrl(fileId: string, layout: string, o: SceneAccess) {
  return `/cloud/v5/drawing/scene?fileId=${encodeURIComponent(fileId)}&layout=${encodeURIComponent(layout)}&lang=${currentLanguage()}${o.shareToken ? `&shareToken=${encodeURIComponent(o.shareToken)}` : ''}${o.versionId ? `&versionId=${encodeURIComponent(o.versionId)}` : ''}`;
}

/** A failed download as the viewer reports it: the spec's envelope as an ApiError, no answer as the network error. */
async function explain(e: unknown, o: SceneAccess): Promise<never> {
  if (e instanceof NotAScene) {
    const body = await e.res.json().catch(() => null);
    if (body?.rtnCode === RTN_NOT_SIGNED_IN && !o.shareToken) goToLogin(); // a share visitor stays on the share page
    throw new ApiError(String(body?.rtnCode ?? e.res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
  }
  if (e instanceof TypeError) throw new ApiError('100', 'Network Error!');
  throw e;
}

function opened(load: SceneLoad, o: SceneAccess): OpenScene {
  // the error is read once (the envelope's body can be read only once), whichever promise meets it first
  const done = load.done.catch((e) => explain(e, o));
  const head = load.head.catch(() => done);
  head.catch(() => undefined);
  done.catch(() => undefined);
  return { load, head, done };
}

/** GET one layout's compiled scene; a JSON answer is the spec's error envelope, thrown as an ApiError. */
export function fetchScene(fileId: string, layout: string, o: SceneAccess = {}): OpenScene {
  return opened(new SceneLoad(fetch(sceneUrl(fileId, layout, o), { credentials: 'same-origin', headers: { 'x-client-type': clientType() } })), o);
}

/**
 * A scene asked for while the app is still booting: opening /yun/view/{id} or /webH5/item/{id} starts the
 * download at once (the request does not depend on React or on the user's details, the cookie is enough),
 * and the viewer takes it over when it mounts. Only the Model scene of that one file is prefetched. A share's
 * drawing (/share/{rand}/view/{id}, …) is prefetched by index.html with the share token the tab keeps.
 */
let early: { fileId: string; versionId?: string; shareToken?: string; load: SceneLoad } | null = null;

export function prefetchSceneFor(pathname: string) {
  // the early painter is reading (and drawing) the answer to index.html's request (production builds)
  const painted = window.__cadEarly;
  if (painted) {
    early = { fileId: painted.fileId, versionId: painted.versionId, shareToken: painted.shareToken, load: painted.load };
    return;
  }
  // what the inline script in index.html started, when no painter took it (development server)
  const html = window.__cadScene;
  if (html) {
    delete window.__cadScene;
    early = { fileId: html.fileId, versionId: html.versionId, shareToken: html.shareToken, load: new SceneLoad(html.res) };
    return;
  }
  const m = /^\/(?:yun\/view|webH5\/item)\/([^/?#]+)/.exec(pathname);
  // an earlier version (?versionId=) is not the file's current scene
  if (!m || /[?&]versionId=/.test(window.location.search)) return;
  const fileId = decodeURIComponent(m[1]);
  early = { fileId, load: fetchScene(fileId, 'Model').load };
}

/** The prefetched scene when it is the one asked for (taken once), else a fresh request. */
export function openScene(fileId: string, layout: string, access: SceneAccess = {}): OpenScene {
  // a share's drawing is taken only with the same share's token: the early request was authorised by that token
  if (early && early.fileId === fileId && layout === 'Model' && (access.shareToken ?? '') === (early.shareToken ?? '') && (access.versionId ?? '') === (early.versionId ?? '')) {
    const e = early;
    early = null;
    return opened(e.load, access);
  }
  return fetchScene(fileId, layout, access);
}

/** The whole scene (prefetched or fresh), for callers that draw nothing before it is all there. */
export function loadScene(fileId: string, layout: string, onProgress?: (loaded: number, total: number) => void, access: SceneAccess = {}): Promise<Scene> {
  const s = openScene(fileId, layout, access);
  if (onProgress) s.load.onProgress(onProgress);
  return s.done;
}
