import type { z } from 'zod';
import type { GroupListResult, Item, Share, ShareCodeKind, ShareRights, sharePublicInfo, shareAccessResult, shareChallengeResult, shareFilesResult, shareDownloadResult } from '@cadcloud/contracts';
import { MODEL3D_PATHS, RTN_SUCCESS, type Model3dStatus } from '@cadcloud/contracts';
import { ApiError, call, clientInfo } from '../../lib/api.ts';
import { clientType } from '../../lib/device.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { solveProof, type ProofProgress } from './proof-of-work.ts';

export type { Share, ShareRights };
export type SharePublicInfo = z.infer<typeof sharePublicInfo>;
export type ShareAccess = z.infer<typeof shareAccessResult>;
export type ShareFiles = z.infer<typeof shareFilesResult>;
export type ShareDownload = z.infer<typeof shareDownloadResult>;
export type ShareChallenge = z.infer<typeof shareChallengeResult>;

/** A refused share call: the server's message plus what else it answered (e.g. why a share is gone). */
export class ShareError extends ApiError {
  constructor(
    rtnCode: string,
    message: string,
    code: string | undefined,
    readonly data: Record<string, unknown> | null,
  ) {
    super(rtnCode, message, code);
  }
}

/**
 * Call style 2 for the share pages. Unlike `call` it keeps the whole bizData of a refusal (the reason a share is
 * gone) and never leaves for the login site on its own: a visitor on a share page stays where they are.
 */
async function publicCall<T>(path: string, data: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data, clientInfo: clientInfo() }), credentials: 'same-origin' });
  } catch {
    throw new ShareError('100', 'Network Error!', undefined, null);
  }
  const body = await res.json().catch(() => null);
  if (!body) throw new ShareError(String(res.status), 'Network Error!', undefined, null);
  if (body.rtnCode !== RTN_SUCCESS) throw new ShareError(body.rtnCode, body.msg, body.bizData?.code, body.bizData ?? null);
  return body.bizData as T;
}

/**
 * Why a share is gone, read from a refusal: 'cancelled' | 'expired' | 'deleted' (the server's bizData.reason),
 * 'unknown' for a share that never existed, null when the refusal is something else (wrong code, network …).
 */
export function goneReason(e: unknown): string | null {
  if (!(e instanceof ApiError)) return null;
  const data = e instanceof ShareError ? e.data : null;
  const reason = data?.reason as string | undefined;
  if (reason && ['cancelled', 'expired', 'deleted'].includes(reason)) return reason;
  const m = /^share\.(cancelled|expired|deleted|notFound)$/.exec(e.code ?? '');
  if (!m) return null;
  return m[1] === 'notFound' ? 'unknown' : m[1];
}

export interface CreateShare {
  fileIds: string[];
  folderIds: string[];
  validDays: number;
  password: string;
  codeKind?: ShareCodeKind;
  canDownload: boolean;
  canSave: boolean;
  showNotes: boolean;
  kind?: 'link' | 'easy';
}

/** The share API (packages/contracts/src/shares.ts) and the group share of packages/contracts/src/groups.ts. */
export const sharesApi = {
  // the sharer (signed in)
  create: (o: CreateShare) => call<Share>('/cloud/v5/share/create', o),
  list: (pageNo = 1, pageSize = 1000) => call<{ list: Share[]; total: number }>('/cloud/v5/share/list', { pageNo, pageSize }),
  update: (shareId: string, o: { password?: string; validDays?: number }) => call<Share>('/cloud/v5/share/update', { shareId, ...o }),
  cancel: (shareIds: string[]) => call<{ cancelled: number }>('/cloud/v5/share/cancel', { shareIds }),
  email: (shareId: string, emails: string[]) => call<{ sent: number }>('/cloud/v5/share/email', { shareId, emails, language: currentLanguage() }),
  groups: () => call<GroupListResult>('/cloud/v5/group/list', {}),
  shareToGroups: (o: { groupIds: string[]; fileIds: string[]; folderIds: string[]; canDownload: boolean; canDump: boolean }) => call<{ shared: number }>('/cloud/v5/group/share', o),

  // the recipient (visitor or signed in)
  info: (rand: string, easy = false) => publicCall<SharePublicInfo>(easy ? '/cloud/v5/easyShare/getInfoByRand' : '/cloud/v5/share/getInfoByRand', { rand }),
  challenge: (rand: string) => publicCall<ShareChallenge>('/cloud/v5/share/challenge', { rand }),
  extract: (rand: string, code: string, password: string, proof?: { challenge: string; proof: string }) => publicCall<ShareAccess>('/cloud/v5/share/extract', { rand, code, password, ...proof }),
  files: (shareToken: string, folderId?: string) => publicCall<ShareFiles>('/cloud/v5/share/files', { shareToken, ...(folderId ? { folderId } : {}) }),
  download: (shareToken: string, fileId: string) => publicCall<ShareDownload>('/cloud/v5/share/download', { shareToken, fileId }),
  item: (shareToken: string, fileId: string) => publicCall<Item>('/cloud/v5/file/getProductItemById', { shareToken, fileId }),
  /** a shared 3D model's conversion by the sharer, with its GLB link through the share once converted (/view3d in share mode) */
  status3D: (shareToken: string, fileId: string) => publicCall<Model3dStatus>(MODEL3D_PATHS.shareStatus3D, { shareToken, fileId }),
  /** signed in (checked by the caller first): a 101 here goes through the login site */
  copy: (shareToken: string, fileIds: string[], folderIds: string[], targetFolderId: string) => call<{ copied: number }>('/cloud/v5/file/share/copyFoldersAndFiles', { shareToken, fileIds, folderIds, targetFolderId }),
};

/**
 * Extraction as the share asks for it (contracts share-extraction.ts): a challenge, its proof of work when the share
 * has seen wrong codes lately (solved in web workers, `onProof` told how far), then code and password. When the
 * share asked for more work meanwhile, again with a new challenge. Refusals (wrong code, 'try again in N s', gone)
 * are thrown as the server's ShareError, `data.retryAfter` telling when to try again.
 */
export async function extractShare(rand: string, code: string, password: string, onProof?: (p: ProofProgress & { bits: number }) => void): Promise<ShareAccess> {
  for (let round = 1; ; round++) {
    const c = await sharesApi.challenge(rand);
    const proof = c.bits > 0 ? await solveProof(c.challenge, c.bits, (p) => onProof?.({ ...p, bits: c.bits })) : undefined;
    try {
      return await sharesApi.extract(rand, code, password, proof === undefined ? undefined : { challenge: c.challenge, proof });
    } catch (e) {
      if (round < 5 && e instanceof ShareError && e.code === 'share.proofRequired') continue;
      throw e;
    }
  }
}

/** Seconds until the server answers this client again, from a refusal (share.tryLater, or a wrong code with a wait). */
export function retryAfter(e: unknown): number | null {
  const s = e instanceof ShareError ? Number(e.data?.retryAfter) : NaN;
  return Number.isFinite(s) && s > 0 ? s : null;
}

/** The signed-in user on a public page, or null for a visitor (asked quietly: no trip to the login site). */
export async function whoAmI(): Promise<{ id: string; name: string } | null> {
  try {
    return await publicCall<{ id: string; name: string }>('/user/v5/sysuser/userInfo', {});
  } catch {
    return null;
  }
}

/**
 * Sign in through the login site and come back to `returnTo` (default: this page). Unlike lib/api's goToLogin it
 * keeps this tab's sessionStorage, where the share token of the page lives, so the visitor is not asked for the
 * code again on the way back.
 */
export function signInAndReturn(returnTo = window.location.pathname + window.location.search) {
  window.location.assign(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}&clientType=${clientType()}&lang=${currentLanguage()}`);
}

/** What a tab keeps of an extracted share, per rand, so a reload does not ask for the code again. */
export interface ShareSession {
  shareToken: string;
  rights: ShareRights;
  share: SharePublicInfo;
}
const sessionKey = (rand: string) => `cadcloud.share.${rand}`;

export const shareSession = {
  get(rand: string): ShareSession | null {
    try {
      const s = JSON.parse(sessionStorage.getItem(sessionKey(rand)) ?? 'null') as ShareSession | null;
      // a share that has passed its end is asked for again (the server would refuse the token anyway)
      if (s?.share.expiresAt && s.share.expiresAt < Date.now()) return null;
      return s?.shareToken ? s : null;
    } catch {
      return null;
    }
  },
  set(rand: string, s: ShareSession) {
    sessionStorage.setItem(sessionKey(rand), JSON.stringify(s));
  },
  drop(rand: string) {
    sessionStorage.removeItem(sessionKey(rand));
  },
  /** items the visitor chose to save before signing in, picked up when they come back */
  pendingSave(rand: string, ids?: { fileIds: string[]; folderIds: string[] } | null): { fileIds: string[]; folderIds: string[] } | null {
    const key = `${sessionKey(rand)}.save`;
    if (ids === undefined) {
      try {
        return JSON.parse(sessionStorage.getItem(key) ?? 'null');
      } catch {
        return null;
      }
    }
    if (ids === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(ids));
    return ids;
  },
};

/** Text for the clipboard: the link, the extraction code and (when set) the password. */
export function copyText(t: (k: string, o?: Record<string, unknown>) => string, s: { url: string; code: string; password: string }) {
  return t('shares.copyText', { url: s.url, code: s.code }) + (s.password ? t('shares.copyPassword', { password: s.password }) : '');
}

/** The clipboard API needs a secure context; plain http on a LAN address falls back to a hidden text area. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}
