import { createHmac } from 'node:crypto';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';
import { sameText } from '../../infra/http/same-text.ts';

/**
 * Download links (spec call style 8, issue 14 item 12): what every "signedUrl" of the API is. A link names *why* its
 * holder may have the bytes — a grant such as "file F of user U" or "file F through share S" — not the bytes
 * themselves, lives `DOWNLOAD_LINK_TTL_SECONDS` (default 5 minutes) and is checked again by the module that issued
 * it each time it is used: a cancelled share, a binned or deleted file, a deleted version, a member who left the
 * group end every link at once. Then the local-disk driver streams the bytes itself; the S3 driver answers a
 * redirect to a presigned URL of `DOWNLOAD_REDIRECT_TTL_SECONDS` (default 60 s; a presigned URL cannot be revoked,
 * so that is the most a revoked grant can still serve, and only to whoever was redirected before the revocation).
 *
 *   addDownloadGrant(deps, 'version', async (g, { uid }) => ({ key, name }))   // from the module's routes; throw to refuse
 *   downloadLink(deps, { k: 'version', u: uid, v: versionId })                 // → { url } (absolute)
 *
 * A grant is signed, not encrypted: its holder can read it. Grants that carry `b` (the blob's MD5, so a link stops
 * when the file's content changes) are only issued to someone allowed to download those very bytes, so the MD5
 * tells them nothing they cannot compute (issue 14 item 1: no answer gives another user's MD5 otherwise).
 */
export type DownloadGrant = { k: string } & Record<string, string | number>;
export interface GrantedObject {
  /** storage key of the bytes */
  key: string;
  /** the download's file name */
  name: string;
}
/** Checks a grant at the moment its link is used; throws an appError (the refusal's reason) when it no longer holds. */
export type DownloadGrantCheck = (grant: DownloadGrant, requester: { uid?: string }) => Promise<GrantedObject>;

export const DOWNLOAD_LINK_PATH = '/cloud/v5/download/object';

// per app (deps object), so parallel test apps never see each other's checks
const registries = new WeakMap<object, Map<string, DownloadGrantCheck>>();
const secrets = new WeakMap<object, string>();

export function addDownloadGrant(deps: AppDeps, kind: string, check: DownloadGrantCheck): void {
  const m = registries.get(deps) ?? new Map<string, DownloadGrantCheck>();
  m.set(kind, check);
  registries.set(deps, m);
}

function sign(deps: AppDeps, body: string) {
  let s = secrets.get(deps);
  if (!s) secrets.set(deps, (s = persistentSecret(deps.config.dataDir, 'download-link')));
  return createHmac('sha256', s).update(body).digest('base64url');
}

/** A link for `grant`, usable for the configured minutes. */
export function downloadLink(deps: AppDeps, grant: DownloadGrant, now = Date.now()): { url: string; expiresAt: number } {
  const expiresAt = now + deps.config.downloadLinkTtlSeconds * 1000;
  const body = Buffer.from(JSON.stringify({ ...grant, x: expiresAt })).toString('base64url');
  return { url: `${deps.config.publicUrl}${DOWNLOAD_LINK_PATH}?g=${body}.${sign(deps, body)}`, expiresAt };
}

/** What a link grants now: its storage key and name; 'The download link is no longer valid' or the grant's reason otherwise. */
export async function resolveDownloadLink(deps: AppDeps, link: string, requester: { uid?: string }, now = Date.now()): Promise<GrantedObject> {
  const [body, mac] = link.split('.');
  if (!body || !mac || !sameText(mac, sign(deps, body))) throw appError('download.linkExpired');
  let grant: DownloadGrant & { x?: unknown };
  try {
    grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw appError('download.linkExpired');
  }
  if (typeof grant.x !== 'number' || grant.x <= now) throw appError('download.linkExpired');
  const check = registries.get(deps)?.get(String(grant.k));
  if (!check) throw appError('download.linkExpired');
  return check(grant, requester);
}
