import { randomBytes, randomInt } from 'node:crypto';
import {
  EMAIL, MAX_FOLDER_DEPTH, ROOT_FOLDER_ID, SHARE_CODE_ALPHABET, SHARE_CODE_LENGTH, SHARE_DAYS_DEFAULT, SHARE_DAYS_MAX, SHARE_EMAIL_RECIPIENTS_MAX, SHARE_PASSWORD, SHARE_PASSWORD_DIGITS,
  allowedCodeKinds, codeKindOf, codeOutlasts, isValidItemName, normalizeShareCode, requiredBits,
  type ExtractionModel, type ShareCodeKind, type ShareGoneReason, type ShareKind,
} from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { sameText } from '../../infra/http/same-text.ts';
import { reserveUserMail, returnUserMail } from '../../infra/mail/mail-budget.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';
import { createFilesService, type Actor } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { presentItem } from '../files/items.presenter.ts';
import { folderLevels } from '../files/folder-levels.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import type { DrawingRequest, DrawingSource } from '../drawings/drawing-access.ts';
import { createGroupsService } from '../groups/groups.service.ts';
import { addDownloadGrant, downloadLink } from '../downloads/download-links.ts';
import { createSharesRepository, type ShareItemRow, type ShareRow } from './shares.repository.ts';
import { createExtractGuardRepository } from './extract-guard.repository.ts';
import { createShareChallenges } from './share-challenge.ts';
import { shareMail } from './share-mail.ts';
import { createShareTokens } from './share-token.ts';

const DAY_MS = 24 * 3600 * 1000;
/** A share token lives at most this long (and never past the share's own expiry); then the visitor extracts again. */
const TOKEN_TTL_MS = DAY_MS;
/**
 * The per-client part of the extraction guard (contracts share-extraction.ts has the per-share part and the
 * arithmetic): `freeFailures` wrong codes, then each next attempt waits 1 s, 2 s, 4 s, … at most `maxDelayMs`;
 * forgotten `forgetMs` after the last one. `holdMs`: one client's attempts are answered one at a time.
 */
export const CLIENT_BACKOFF = { freeFailures: 3, maxDelayMs: 3_600_000, forgetMs: DAY_MS, holdMs: 10_000 } as const;
/** How long a client waits after its `failures`-th wrong code before the next one is answered. */
export function backoffMs(failures: number): number {
  return failures < CLIENT_BACKOFF.freeFailures ? 0 : Math.min(CLIENT_BACKOFF.maxDelayMs, 1000 * 2 ** (failures - CLIENT_BACKOFF.freeFailures));
}

export type ShareState = 'active' | 'cancelled' | 'expired' | 'deleted';
export interface ShareRights {
  canDownload: boolean;
  canSave: boolean;
  showNotes: boolean;
}
export interface NewShareRecord {
  fileIds?: string[];
  folderIds?: string[];
  kind: ShareKind;
  groupId?: string | null;
  rights: ShareRights;
  /** 0–99; 0 never expires */
  validDays: number;
  /** '' (default) or 4 letters/digits */
  password?: string;
  /** omitted: the shortest the validity (and password) allows */
  codeKind?: ShareCodeKind;
}

// per app (deps object): tests move the clock of one app without touching others
const clocks = new WeakMap<object, () => number>();
/** Tests: make every shares service of this app read time from `now` (expiry, tokens, rate limits). */
export function setSharesClock(deps: AppDeps, now: (() => number) | undefined): void {
  if (now) clocks.set(deps, now);
  else clocks.delete(deps);
}

/** As the drive lists them: folders first, then by name. */
const sortItems = (rows: ItemRow[]) => rows.sort((x, y) => x.kind - y.kind || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) || (x.id < y.id ? -1 : 1));
const goneError = (reason: ShareGoneReason) => appError(reason === 'cancelled' ? 'share.cancelled' : reason === 'expired' ? 'share.expired' : 'share.deleted', [], { reason });
const b64 = (s: string) => Buffer.from(s).toString('base64url');
function newCode(kind: ShareCodeKind): string {
  if (kind !== 'alnum8') return String(randomInt(0, 10 ** SHARE_CODE_LENGTH[kind])).padStart(SHARE_CODE_LENGTH[kind], '0');
  return Array.from({ length: SHARE_CODE_LENGTH.alnum8 }, () => SHARE_CODE_ALPHABET[randomInt(0, SHARE_CODE_ALPHABET.length)]).join('');
}
/**
 * Shares (spec sections 3, 5, 9; issue 4): creating and managing one's shares, public info by rand, extraction
 * with code and password (guarded per client and per share, counters in the database: see `extract`), browsing,
 * download, save-to-my-cloud and viewer access through a share token.
 *
 * For other modules (groups):
 *   const shares = createSharesService(deps);
 *   const row = await shares.createShareRecord(ownerUid, { fileIds, folderIds, kind: 'group', groupId, rights: { canDownload, canSave, showNotes }, validDays: 0 });
 *     → the `shares` row (id, rand, code, …); only the owner's live private items; throws an appError otherwise
 *   const token = await shares.issueShareToken(row.id, uid) → a share token for share/files, share/download,
 *     file/share/copyFoldersAndFiles and the viewer; a group share's token works only for that signed-in member while
 *     they are one; throws 'This share no longer exists' when not active
 *   await shares.findActive(row.id)                    → { share, live } or undefined when it no longer exists
 *   await shares.cancelShareRecord(row.id)             → cancels (every token and download link of it stops at once)
 *   shares.present(row, baseUrl) / shares.stateOf(row) → the contracts' shareSchema / the share's state
 */
export function createSharesService(deps: AppDeps, opts: { now?: () => number } = {}) {
  const repo = createSharesRepository(deps.db);
  const files = createFilesService(deps);
  const items = files.repo;
  const quota = createQuotaService(deps);
  const blobs = createBlobsService(deps);
  const thumbnails = createThumbnailsService(deps);
  const groups = createGroupsService(deps);
  const guard = createExtractGuardRepository(deps.db);
  const now = () => (opts.now ?? clocks.get(deps) ?? Date.now)();
  let secret: string | undefined;
  const tokens = createShareTokens(() => (secret ??= persistentSecret(deps.config.dataDir, 'share-token')), now);
  let challengeSecret: string | undefined;
  const challenges = createShareChallenges(() => (challengeSecret ??= persistentSecret(deps.config.dataDir, 'share-challenge')), now);
  const model: ExtractionModel = {
    baseBits: deps.config.sharePowBaseBits,
    failuresPerBit: deps.config.sharePowFailuresPerBit,
    freeFailures: deps.config.shareFreeFailures,
    windowMs: 3_600_000,
    attackerHashRate: deps.config.shareAttackerHashRate,
  };

  /** Live shared items of a share (top level), in the order shared. */
  async function liveItems(share: ShareRow, links?: ShareItemRow[]): Promise<ItemRow[]> {
    const l = links ?? (await repo.itemsOf([share.id]));
    const rows = await items.findOwned(share.uid, l.map((x) => x.item_id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return sortItems(l.map((x) => byId.get(x.item_id)).filter((r): r is ItemRow => !!r));
  }

  function stateOf(share: ShareRow, liveCount: number, at = now()): ShareState {
    if (share.cancelled_at !== null) return 'cancelled';
    if (share.expires_at !== null && at >= Number(share.expires_at)) return 'expired';
    if (liveCount === 0) return 'deleted';
    return 'active';
  }

  /** The share with its live items, or the 'no longer exists' error with its reason. */
  async function requireActive(share: ShareRow | undefined) {
    if (!share) throw appError('share.notFound');
    const live = await liveItems(share);
    const state = stateOf(share, live.length);
    if (state !== 'active') throw goneError(state);
    return { share, live };
  }

  function rightsOf(s: ShareRow) {
    return { canView: true, canDownload: s.can_download === 1, canSave: s.can_save === 1, showNotes: s.show_notes === 1 };
  }

  function present(s: ShareRow, live: ItemRow[], baseUrl: string) {
    const at = now();
    const state = stateOf(s, live.length, at);
    const expiresAt = s.expires_at === null ? null : Number(s.expires_at);
    const url = s.kind === 'easy' ? `${baseUrl}/easyShare/${s.rand}` : `${baseUrl}/share/${s.rand}`;
    const h5Url = s.kind === 'easy' ? `${baseUrl}/webH5/simple/${s.rand}` : `${baseUrl}/webH5/share/${s.id}/${s.rand}`;
    return {
      shareId: s.id,
      rand: s.rand,
      kind: s.kind as ShareKind,
      code: s.code,
      codeKind: codeKindOf(s.code),
      password: s.password,
      validDays: s.valid_days,
      shareTime: Number(s.created_at),
      expiresAt,
      remainingMs: expiresAt === null ? null : Math.max(0, expiresAt - at),
      state,
      rights: rightsOf(s),
      url,
      shareUrl: url,
      h5Url,
      // the link opens the first shared file (or the first folder when only folders are shared)
      linkToken: b64(JSON.stringify({ fileId: (live.find((r) => r.kind === 1) ?? live[0])?.id ?? '', from: 'share', isShare: 1, rand: s.rand, position: 0 })),
      items: live.map((r) => ({ id: r.id, name: r.name, type: r.kind === 0 ? 'folder' : r.type, fileType: r.kind, size: Number(r.size) })),
      ...(s.group_id ? { groupId: s.group_id } : {}),
    };
  }

  async function publicInfo(s: ShareRow, itemCount: number) {
    return {
      shareId: s.id,
      rand: s.rand,
      kind: s.kind as ShareKind,
      ownerName: await repo.ownerName(s.uid),
      needsPassword: s.password !== '',
      codeKind: codeKindOf(s.code),
      shareTime: Number(s.created_at),
      expiresAt: s.expires_at === null ? null : Number(s.expires_at),
      itemCount,
    };
  }

  function checkDays(v: unknown): number {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > SHARE_DAYS_MAX) throw appError('share.daysInvalid');
    return n;
  }

  /**
   * The item a share token reaches: a shared item itself, or a live descendant of a shared folder (every folder
   * between them live). Undefined when the item is outside the share.
   */
  async function reachable(share: ShareRow, live: ItemRow[], itemId: string): Promise<{ row: ItemRow; path: ItemRow[] } | undefined> {
    const top = live.find((r) => r.id === itemId);
    if (top) return { row: top, path: top.kind === 0 ? [top] : [] };
    const folders = new Set(live.filter((r) => r.kind === 0).map((r) => r.id));
    if (!folders.size) return undefined;
    const row = await items.findOne(share.uid, itemId);
    if (!row || row.parent_id === ROOT_FOLDER_ID) return undefined;
    const chain = await items.ancestors(share.uid, row.parent_id); // nearest first
    const path: ItemRow[] = row.kind === 0 ? [row] : [];
    for (const a of chain) {
      if (a.deleted_at !== null || a.kind !== 0) return undefined;
      path.unshift(a);
      if (folders.has(a.id)) return { row, path };
    }
    return undefined;
  }

  /**
   * The share behind a token, for the caller `uid` (signed in, or undefined). Cancel, expiry and deletion take effect
   * at once: the share is read again on every call. A group share's token is its member's own: another user, or
   * nobody signed in, is refused, and so is the member once they have left the group.
   */
  async function fromToken(token: string | undefined, uid: string | undefined) {
    const t = tokens.verify(token);
    if (!t) throw appError('share.tokenInvalid');
    if (t.uid !== undefined && t.uid !== uid) throw appError('share.tokenInvalid');
    return requireAudience(await repo.findById(t.shareId), t.uid);
  }
  /** The active share, when `uid` may see it: anyone for a link share, a current member for a group share. */
  async function requireAudience(found: ShareRow | undefined, uid: string | undefined) {
    const ctx = await requireActive(found);
    if (ctx.share.kind === 'group') {
      if (!uid || !ctx.share.group_id) throw appError('share.tokenInvalid');
      await groups.requireMember(uid, ctx.share.group_id);
    }
    return ctx;
  }

  /** A shared file the share still lets its holder download. */
  async function downloadable(ctx: { share: ShareRow; live: ItemRow[] }, fileId: string) {
    if (ctx.share.can_download !== 1) throw appError('share.noDownload');
    const hit = await reachable(ctx.share, ctx.live, fileId);
    if (!hit || hit.row.kind !== 1 || !hit.row.blob_md5) throw appError('item.notFound');
    if (hit.row.freeze === 1) throw appError('file.frozen');
    return hit.row;
  }
  /** A link or easy share by its rand (group shares have a rand too, but are never opened by it). */
  async function linkShareByRand(rand: string) {
    const s = await repo.findByRand(rand);
    return s && s.kind !== 'group' ? s : undefined;
  }

  function checkCode(kind: ShareCodeKind, password: string, validDays: number) {
    if (!codeOutlasts(kind, password, validDays, model)) throw appError('share.codeTooShort');
  }

  const service = {
    stateOf: (s: ShareRow, liveCount: number) => stateOf(s, liveCount),
    present,

    /** Creates a share of the owner's own live private items (any kind). Throws an appError on a rule; the row otherwise. */
    async createShareRecord(ownerUid: string, o: NewShareRecord): Promise<ShareRow> {
      const ids = [...new Set([...(o.fileIds ?? []), ...(o.folderIds ?? [])])];
      if (!ids.length) throw appError('share.createFailed');
      const days = checkDays(o.validDays);
      const password = o.password ?? '';
      if (password !== '' && !SHARE_PASSWORD.test(password)) throw appError('share.passwordInvalid');
      // group shares are never extracted with a code (members open them), so any code does
      const codeKind = o.codeKind ?? (o.kind === 'group' ? 'alnum8' : (allowedCodeKinds(days, password, model)[0] ?? 'alnum8'));
      if (o.kind !== 'group') checkCode(codeKind, password, days);
      const rows = await items.findOwned(ownerUid, ids);
      if (rows.length !== ids.length) throw appError('share.createFailed');
      if (rows.some((r) => r.private_type !== '1')) throw appError('share.notPrivate');
      const at = now();
      const share: ShareRow = {
        id: newId(),
        rand: randomBytes(12).toString('base64url'),
        uid: ownerUid,
        kind: o.kind,
        group_id: o.groupId ?? null,
        code: newCode(codeKind),
        password,
        valid_days: days,
        created_at: at,
        expires_at: days === 0 ? null : at + days * DAY_MS,
        cancelled_at: null,
        can_download: o.rights.canDownload ? 1 : 0,
        can_save: o.rights.canSave ? 1 : 0,
        show_notes: o.rights.showNotes ? 1 : 0,
      };
      const byId = new Map(rows.map((r) => [r.id, r]));
      try {
        await repo.insert(share, ids.map((id) => ({ share_id: share.id, item_id: id, kind: byId.get(id)!.kind })));
      } catch {
        throw appError('share.createFailed');
      }
      return share;
    },

    /**
     * A share token for an active share (what extraction returns); 'This share no longer exists' otherwise. `uid`
     * binds it to that user (group shares: the member who opened it).
     */
    async issueShareToken(shareId: string, uid?: string): Promise<string> {
      const { share } = await requireActive(await repo.findById(shareId));
      const exp = Math.min(now() + TOKEN_TTL_MS, share.expires_at === null ? Infinity : Number(share.expires_at));
      return tokens.issue(share.id, exp, uid);
    },

    /** The active share with its live items, or undefined when it no longer exists (cancelled, expired, emptied). */
    async findActive(shareId: string) {
      const share = await repo.findById(shareId);
      if (!share) return undefined;
      const live = await liveItems(share);
      return stateOf(share, live.length) === 'active' ? { share, live } : undefined;
    },

    /** The download links' check (registered once per app, by the routes): see `download`. */
    registerGrants() {
      addDownloadGrant(deps, 'share', async (g, { uid }) => {
        // a link of a group share is its member's alone (their session), like the token it came from
        if (g.u !== undefined && g.u !== uid) throw appError('share.tokenInvalid');
        const row = await downloadable(await requireAudience(await repo.findById(String(g.s)), uid), String(g.f));
        if (row.blob_md5 !== g.b) throw appError('item.notFound');
        return { key: blobKey(row.blob_md5), name: row.name };
      });
    },

    /** Cancels a share whoever owns it (callers check ownership); tokens and download links stop working at once. */
    async cancelShareRecord(shareId: string): Promise<void> {
      await repo.cancel([shareId], now());
    },

    // ---- the sharer's calls ----

    async create(actor: Actor, o: { fileIds: string[]; folderIds: string[]; kind: 'link' | 'easy'; validDays?: unknown; password: string; codeKind?: ShareCodeKind; canDownload: boolean; canSave: boolean; showNotes: boolean }, baseUrl: string) {
      files.assertNotFrozen(actor);
      const days = o.validDays === undefined || o.validDays === null ? SHARE_DAYS_DEFAULT : checkDays(o.validDays);
      const row = await service.createShareRecord(actor.id, {
        fileIds: o.fileIds, folderIds: o.folderIds, kind: o.kind, validDays: days, password: o.password, codeKind: o.codeKind,
        rights: { canDownload: o.canDownload, canSave: o.canSave, showNotes: o.showNotes },
      });
      return present(row, await liveItems(row), baseUrl);
    },

    async list(uid: string, o: { pageNo: number; pageSize: number }, baseUrl: string) {
      const { rows, total } = await repo.listOwned(uid, { offset: (o.pageNo - 1) * o.pageSize, limit: o.pageSize });
      const links = await repo.itemsOf(rows.map((r) => r.id));
      const live = new Map((await items.findOwned(uid, [...new Set(links.map((l) => l.item_id))])).map((r) => [r.id, r]));
      const list = rows.map((s) => {
        const mine = sortItems(links.filter((l) => l.share_id === s.id).map((l) => live.get(l.item_id)).filter((r): r is ItemRow => !!r));
        return present(s, mine, baseUrl);
      });
      return { list, total };
    },

    async requireOwn(uid: string, shareId: string) {
      const [s] = await repo.findOwned(uid, [shareId]);
      if (!s) throw appError('share.notFound');
      return s;
    },

    /**
     * Password: 4 digits, or '' to remove it. Valid days: the expiry is recomputed from the share time
     * (expiresAt = shareTime + validDays; 0 never expires), so the list's "share time + valid days" always holds;
     * lengthening an expired share's days revives it. A cancelled share cannot be changed.
     */
    async update(uid: string, o: { shareId: string; password?: string; validDays?: unknown }, baseUrl: string) {
      const s = await service.requireOwn(uid, o.shareId);
      if (s.cancelled_at !== null) throw goneError('cancelled');
      const patch: Partial<ShareRow> = {};
      if (o.password !== undefined) {
        if (o.password !== '' && !SHARE_PASSWORD_DIGITS.test(o.password)) throw appError('share.passwordDigits');
        patch.password = o.password;
      }
      if (o.validDays !== undefined) {
        const days = checkDays(o.validDays);
        patch.valid_days = days;
        patch.expires_at = days === 0 ? null : Number(s.created_at) + days * DAY_MS;
      }
      // a longer validity or no password may need a longer code than this share has: refused, the code stays
      if (s.kind !== 'group') checkCode(codeKindOf(s.code), patch.password ?? s.password, patch.valid_days ?? s.valid_days);
      if (Object.keys(patch).length) await repo.update(s.id, patch);
      const row = { ...s, ...patch };
      return present(row, await liveItems(row), baseUrl);
    },

    async cancel(uid: string, shareIds: string[]) {
      const own = await repo.findOwned(uid, [...new Set(shareIds)]);
      if (own.length !== new Set(shareIds).size) throw appError('share.notFound');
      return { cancelled: await repo.cancel(own.map((s) => s.id), now()) };
    },

    /**
     * Sends an own active share to at most SHARE_EMAIL_RECIPIENTS_MAX addresses, one message each, within the sender's
     * hourly and daily budget (counted per message in the database; 'email send fail' with the reason beyond it). The
     * mail is the product's: its sender and subject are fixed, its link points at PUBLIC_URL (never at the host the
     * request named); the body says which user sent it (name and account e-mail, quoted and escaped) and lists the files.
     */
    async email(uid: string, o: { shareId: string; emails: string[]; language?: string }) {
      const to = [...new Set(o.emails.map((e) => e.trim()).filter(Boolean))];
      if (!to.length) throw appError('share.emailRequired');
      if (to.length > SHARE_EMAIL_RECIPIENTS_MAX) throw appError('share.emailTooMany', [SHARE_EMAIL_RECIPIENTS_MAX]);
      if (to.some((e) => !EMAIL.test(e))) throw appError('share.emailInvalid');
      const s = await service.requireOwn(uid, o.shareId);
      const live = await liveItems(s);
      const state = stateOf(s, live.length);
      if (state !== 'active') throw goneError(state);
      const p = present(s, live, deps.config.publicUrl);
      const limits = { perHour: deps.config.shareEmailPerHour, perDay: deps.config.shareEmailPerDay };
      const over = await reserveUserMail(deps.db, uid, to.length, limits, now());
      if (over === 'hour') throw appError('share.emailHourLimit', [limits.perHour]);
      if (over === 'day') throw appError('share.emailDayLimit', [limits.perDay]);
      const msg = shareMail(o.language, { sender: await repo.owner(uid), url: p.url, code: s.code, password: s.password, names: live.map((r) => r.name), expiresAt: p.expiresAt });
      let sent = 0;
      try {
        for (const addr of to) {
          await deps.mailer.send({ to: addr, ...msg });
          sent++;
        }
      } catch {
        await returnUserMail(deps.db, uid, to.length - sent);
        throw appError('share.emailFailed');
      }
      return { sent };
    },

    // ---- visitors (no ticket) ----

    /** Public facts of an active link share; 'This share no longer exists' with the reason otherwise. */
    async infoByRand(rand: string) {
      const { share, live } = await requireActive(await linkShareByRand(rand));
      return publicInfo(share, live.length);
    },

    /** A proof-of-work challenge for extracting this share; `bits` is what an attempt needs now (0: none yet). */
    async challenge(rand: string) {
      const { share } = await requireActive(await linkShareByRand(rand));
      return challenges.issue(share.id, requiredBits(await guard.shareFailures(share.id, now(), model.windowMs), model));
    },

    /**
     * Code (and password when set) → a share token, behind the extraction guard (contracts share-extraction.ts):
     *  1. the client (`clientKey`: an IPv4 address, an IPv6 /64) takes its turn: after 3 wrong codes each next
     *     attempt waits 1, 2, 4 … s (at most an hour), answered at once with 'try again in N s' (share.tryLater,
     *     bizData.retryAfter) without reading the code;
     *  2. the attempt is counted against the share before anything is compared (a success takes it back); when the
     *     share's recent failures ask for it, the attempt must carry a proof of work of a challenge (share/challenge)
     *     of at least the bits needed now, each challenge used once; without one: share.proofRequired (bizData.bits),
     *     again without reading the code;
     *  3. then code and password: a wrong pair counts for the client (bizData.retryAfter when a wait follows) and
     *     stays counted for the share. Which of the two was wrong is not said (the password multiplies the space).
     * A correct code with a valid proof is always accepted, whatever other clients sent. Group shares are opened by
     * their members (group/openShare), never extracted.
     */
    async extract(o: { rand: string; code: string; password: string; challenge?: string; proof?: string }, client: string) {
      const found = await linkShareByRand(o.rand);
      if (!found) throw appError('share.notFound');
      const at = now();
      const early = stateOf(found, 1, at);
      if (early !== 'active') throw goneError(early);
      const turn = await guard.claimClient(found.id, client, at, CLIENT_BACKOFF.holdMs, CLIENT_BACKOFF.forgetMs);
      if (!turn) {
        const wait = Math.max(1, Math.ceil(((await guard.clientNextAt(found.id, client)) - at) / 1000));
        throw appError('share.tryLater', [wait], { retryAfter: wait });
      }
      let counted = false;
      let failed = false;
      try {
        const { share, live } = await requireActive(found);
        const before = await guard.countShareAttempt(share.id, at, model.windowMs);
        counted = true;
        const bits = requiredBits(before, model);
        if (bits > 0) {
          const p = challenges.verify(o.challenge, o.proof, share.id);
          if (!p || p.bits < bits || !(await guard.useChallenge(p.id, share.id, p.expiresAt, at))) throw appError('share.proofRequired', [], { bits });
        }
        const codeOk = sameText(normalizeShareCode(o.code), share.code);
        const passwordOk = share.password === '' || sameText(o.password, share.password);
        if (!codeOk || !passwordOk) {
          // stays counted against the share; the client waits before its next attempt
          counted = false;
          failed = true;
          const failures = turn.failures + 1;
          const wait = backoffMs(failures);
          await guard.clientFailed(share.id, client, failures, at, at + wait);
          throw appError(share.password === '' ? 'share.wrongCode' : 'share.wrongCodeOrPassword', [], wait ? { retryAfter: Math.ceil(wait / 1000) } : undefined);
        }
        counted = false;
        await guard.uncountShareAttempt(share.id);
        await guard.clearClient(share.id, client);
        return {
          shareToken: await service.issueShareToken(share.id),
          share: await publicInfo(share, live.length),
          rights: rightsOf(share),
          // no caller is known here (extraction needs no sign-in): nobody's MD5 (items.presenter.ts)
          items: live.map((r) => presentItem(r, null)),
        };
      } catch (e) {
        if (counted) await guard.uncountShareAttempt(found.id);
        if (!failed) await guard.releaseClient(found.id, client, at);
        throw e;
      }
    },

    /** Browse: the top level, or a folder inside the share (live descendants only). `uid`: the signed-in caller. */
    async files(token: string, folderId: string | undefined, uid: string | undefined) {
      const { share, live } = await fromToken(token, uid);
      if (!folderId || folderId === ROOT_FOLDER_ID) {
        return { list: live.map((r) => presentItem(r, uid)), total: live.length, path: [] };
      }
      const hit = await reachable(share, live, folderId);
      if (!hit || hit.row.kind !== 0) throw appError('item.notFound');
      const { rows, total } = await items.listChildren(share.uid, folderId, { offset: 0, limit: 10_000 });
      return { list: rows.map((r) => presentItem(r, uid)), total, path: hit.path.map((r) => ({ id: r.id, name: r.name })) };
    },

    /**
     * A download link (download-links.ts) of a file the share lets its holder download. The link is checked again
     * when used: share still active, file still live, in the share and unchanged; a group share's link only for
     * the member it was given to, while they are one.
     */
    async download(token: string, fileId: string, uid: string | undefined) {
      const ctx = await fromToken(token, uid);
      const row = await downloadable(ctx, fileId);
      const { url } = downloadLink(deps, { k: 'share', s: ctx.share.id, f: row.id, b: row.blob_md5!, ...(ctx.share.kind === 'group' && uid ? { u: uid } : {}) });
      return { signedUrl: url, downloadUrl: url, name: row.name, size: Number(row.size) };
    },

    /**
     * Save to my cloud: copies the chosen shared items (folders with everything live below them) into the
     * caller's folder as new items on the same blobs. The whole copy's bytes are reserved at once ('Not enough
     * space' when they do not fit); name clashes at the target get " (1)".
     */
    async copy(actor: Actor, o: { shareToken: string; fileIds: string[]; folderIds: string[]; targetFolderId: string }) {
      // a frozen account takes nothing in (spec section 4), whatever the link
      files.assertNotFrozen(actor);
      const { share, live } = await fromToken(o.shareToken, actor.id);
      if (share.can_save !== 1) throw appError('share.noSave');
      await files.requireFolder(actor.id, o.targetFolderId);
      const chosen = [...new Set([...o.fileIds, ...o.folderIds])];
      if (!chosen.length) throw appError('request.invalid');
      const roots: ItemRow[] = [];
      for (const id of chosen) {
        const hit = await reachable(share, live, id);
        if (!hit) throw appError('item.notFound');
        roots.push(hit.row);
      }
      const trees = await items.subtree(share.uid, roots.filter((r) => r.kind === 0).map((r) => r.id));
      // a chosen item inside another chosen folder comes with that folder (climbing to a chosen folder, not round a loop back to itself)
      const inTree = new Map(trees.map((r) => [r.id, r]));
      const chosenIds = new Set(roots.map((r) => r.id));
      const insideAnother = (r: ItemRow) => {
        let at = inTree.get(r.parent_id);
        for (let level = 0; at && at.id !== r.id && level <= MAX_FOLDER_DEPTH; level++) {
          if (chosenIds.has(at.id)) return true;
          at = inTree.get(at.parent_id);
        }
        return false;
      };
      const tops = roots.filter((r) => !insideAnother(r));
      const topIds = new Set(tops.map((r) => r.id));
      // parents before children: a breadth-first order from the tops, each item once (a parent loop in the sharer's tree ends it)
      const children = new Map<string, ItemRow[]>();
      for (const r of trees) {
        if (topIds.has(r.id)) continue;
        const list = children.get(r.parent_id);
        if (list) list.push(r);
        else children.set(r.parent_id, [r]);
      }
      const copies = [...tops];
      const queued = new Set(topIds);
      for (let qi = 0; qi < copies.length; qi++) {
        for (const c of children.get(copies[qi].id) ?? []) {
          if (queued.has(c.id)) continue;
          queued.add(c.id);
          copies.push(c);
        }
      }
      // a name that would be refused today (a device name, a control character) does not enter the caller's drive
      if (copies.some((r) => !isValidItemName(r.name))) throw appError('name.invalid');
      const bytes = copies.filter((r) => r.kind === 1).reduce((a, r) => a + Number(r.size), 0);
      await quota.reserve(actor.id, bytes, 'upload.noSpace');
      const md5s = copies.filter((r) => r.kind === 1 && r.blob_md5).map((r) => r.blob_md5!);
      // references first: a failure below leaves one reference too many (a kept object), never one too few
      for (const m of md5s) await blobs.addRef(m);
      const at = now();
      const newIds = new Map(copies.map((r) => [r.id, newId()]));
      let copiedFiles: { id: string; uid: string; name: string; type: string; blob_md5: string | null; thumbkey: string | null }[] = [];
      try {
        // one drive write of the caller's: the target folder is still there, and the tops take free names in it
        copiedFiles = await files.driveWrite(actor.id, async (trx) => {
          await files.requireFolder(actor.id, o.targetFolderId, trx);
          await files.assertRoomBelow(actor.id, o.targetFolderId, folderLevels(topIds, copies), trx);
          const copied: typeof copiedFiles = [];
          for (const r of copies) {
            const parent = topIds.has(r.id) ? o.targetFolderId : newIds.get(r.parent_id)!;
            const name = topIds.has(r.id) ? await files.freeName(actor.id, parent, r.name, r.kind, true, 'name.duplicateFile', undefined, trx) : r.name;
            // named column by column: a copy is a new private item of the caller, nothing of the original's life comes along
            await items.insert({
              id: newIds.get(r.id)!, uid: actor.id, parent_id: parent, kind: r.kind, name, type: r.type, size: r.size, blob_md5: r.blob_md5, version: 1, descp: r.descp,
              private_type: '1', freeze: 0, thumbkey: r.thumbkey, transform_status: r.transform_status, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0,
              created_at: at, modified_at: at, deleted_at: null, trash_root: null, trash_parent_id: null,
            }, trx);
            if (r.kind === 1) copied.push({ id: newIds.get(r.id)!, uid: actor.id, name, type: r.type, blob_md5: r.blob_md5, thumbkey: r.thumbkey });
          }
          return copied;
        });
      } catch (e) {
        await quota.release(actor.id, bytes);
        await blobs.release(md5s);
        throw e;
      }
      // the sharer's pictures stay the sharer's: copied drawings show the caller's, copied pictures may be ones the caller's drawings name
      await thumbnails.afterCopy(actor.id, copiedFiles);
      return { copied: tops.length, items: tops.map((r) => newIds.get(r.id)!) };
    },

    /** file/getProductItemById: a public item (privateType '0'), or one the share token reaches. */
    async productItem(fileId: string, token: string | undefined, uid: string | undefined) {
      if (token) {
        const { share, live } = await fromToken(token, uid);
        const hit = await reachable(share, live, fileId);
        if (hit) return presentItem(hit.row, uid, { userName: await repo.ownerName(share.uid) });
      }
      const pub = await repo.findPublicItem(fileId);
      if (!pub) throw appError('item.notFound');
      return presentItem(pub, uid, { userName: await repo.ownerName(pub.uid) });
    },

    /**
     * A file a share token reaches, for a view made from its bytes (the 3D model's GLB): the share, its owner and the
     * live row; undefined outside the share. A bad, stale or foreign token is refused with its reason.
     */
    async sharedFile(token: string | undefined, fileId: string, uid: string | undefined) {
      const ctx = await fromToken(token, uid);
      const hit = await reachable(ctx.share, ctx.live, fileId);
      if (!hit || hit.row.kind !== 1 || !hit.row.blob_md5) return undefined;
      return { shareId: ctx.share.id, ownerUid: ctx.share.uid, group: ctx.share.kind === 'group', row: hit.row };
    },
    /** The same when a link made from it is used: the share still active and reaching the file, a group's member still one. */
    async sharedFileById(shareId: string, fileId: string, uid: string | undefined) {
      const ctx = await requireAudience(await repo.findById(shareId), uid);
      const hit = await reachable(ctx.share, ctx.live, fileId);
      if (!hit || hit.row.kind !== 1 || !hit.row.blob_md5) return undefined;
      return { ownerUid: ctx.share.uid, row: hit.row };
    },

    /** Viewer access through a share token: a shared file, or a file inside a shared folder; the owner's fonts. */
    async drawingAccess(req: DrawingRequest): Promise<DrawingSource | undefined> {
      if (!req.shareToken) return undefined;
      // a bad or stale token is refused with its reason ('This share no longer exists: …', re-enter the code)
      const ctx = await fromToken(req.shareToken, req.uid);
      const hit = await reachable(ctx.share, ctx.live, req.fileId);
      if (!hit || hit.row.kind !== 1 || !hit.row.blob_md5) return undefined;
      return { name: hit.row.name, size: Number(hit.row.size), freeze: hit.row.freeze, blobMd5: hit.row.blob_md5, fontsOwner: ctx.share.uid };
    },
  };
  return service;
}

export type SharesService = ReturnType<typeof createSharesService>;
