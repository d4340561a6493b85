import { z } from 'zod';
import { itemSchema } from './cloud.ts';
import { SHARE_CODE_KINDS } from './share-extraction.ts';

export * from './share-extraction.ts';

/**
 * Shares (spec sections 2–5): the spec shows no share paths, so these are ours, in the `/cloud/v5/share/...` family:
 *
 *   POST /cloud/v5/share/create            shareCreateRequest → shareSchema          (signed in, own private items only)
 *   POST /cloud/v5/share/list              shareListRequest → shareListResult        (the sharer's shares, /yun/share)
 *   POST /cloud/v5/share/update            shareUpdateRequest → shareSchema          (password 4 digits, valid days 0–99)
 *   POST /cloud/v5/share/cancel            shareIdsRequest → { cancelled }
 *   POST /cloud/v5/share/email             shareEmailRequest → { sent }              ('email send fail')
 *   POST /cloud/v5/share/getInfoByRand     shareRandRequest → sharePublicInfo        (no ticket; 'This share no longer exists' + reason)
 *   POST /cloud/v5/easyShare/getInfoByRand shareRandRequest → sharePublicInfo        (no ticket; temporary shares)
 *   POST /cloud/v5/share/challenge         shareRandRequest → shareChallengeResult   (no ticket; the proof of work extract may ask for)
 *   POST /cloud/v5/share/extract           shareExtractRequest → shareAccessResult   (no ticket; per-client backoff, proof of work; share-extraction.ts)
 *   POST /cloud/v5/share/files             shareFilesRequest → shareFilesResult      (shareToken; browse into shared folders)
 *   POST /cloud/v5/share/download          shareFileRequest → shareDownloadResult    (shareToken + download right)
 *   POST /cloud/v5/file/share/copyFoldersAndFiles  shareCopyRequest → { copied }     (signed in + shareToken + save right)
 *   POST /cloud/v5/file/getProductItemById shareFileRequest → item                   (no ticket; public item or reachable by shareToken)
 *   GET  /cloud/v5/drawing/scene?fileId&layout&shareToken                            (the viewer in share mode)
 *
 * A share token is what extraction returns: it proves the code (and password) were given, names the share and expires
 * with it. Clients send it as `shareToken` in the data (or header `x-share-token` on GET).
 */

/** Section 5: an extraction password is exactly 4 letters or digits. */
export const SHARE_PASSWORD = /^[A-Za-z0-9]{4}$/;
/** Section 5: a password set later on an existing share must be 4 digits ('Password must be 4 digits'). */
export const SHARE_PASSWORD_DIGITS = /^[0-9]{4}$/;
/** Section 9: valid days input 0–99; 0 means the share never expires. Default 7 (help text). */
export const SHARE_DAYS_MAX = 99;
export const SHARE_DAYS_DEFAULT = 7;
/** Section 9: the extraction code is 4 digits (English help) or 6 digits (Korean help); ours also 8 letters/digits. */
export const SHARE_CODE = /^([0-9]{4}|[0-9]{6}|[2-9a-hjkmnp-z]{8})$/;
/** Recipients of one share/email call. */
export const SHARE_EMAIL_RECIPIENTS_MAX = 20;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const SHARE_KINDS = ['link', 'easy', 'email', 'group'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];
/** Why a share no longer exists (shown with 'This share no longer exists'). */
export const SHARE_GONE_REASONS = ['cancelled', 'expired', 'deleted'] as const;
export type ShareGoneReason = (typeof SHARE_GONE_REASONS)[number];

const id = z.string().min(1).max(64);
const ids = z.array(id).max(10_000).default([]);
const flag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => v === true || v === 1 || v === '1' || v === 'true');
const days = z.coerce.number().int().min(0).max(SHARE_DAYS_MAX);

export const shareRightsSchema = z.object({
  canView: z.boolean().describe('always true: a share can be opened'),
  canDownload: z.boolean(),
  canSave: z.boolean().describe('save to my cloud (share/copyFoldersAndFiles)'),
  showNotes: z.boolean().describe('annotations shown to the recipient'),
});
export type ShareRights = z.infer<typeof shareRightsSchema>;

export const shareSchema = z.object({
  shareId: z.string(),
  rand: z.string().describe('the random part of every share address'),
  kind: z.enum(SHARE_KINDS),
  code: z.string().describe('extraction code: 4 or 6 digits, or 8 letters/digits'),
  codeKind: z.enum(SHARE_CODE_KINDS),
  password: z.string().describe("'' when none"),
  validDays: z.number().describe('0: never expires'),
  shareTime: z.number().describe('epoch ms'),
  expiresAt: z.number().nullable().describe('epoch ms; null when validDays is 0'),
  remainingMs: z.number().nullable().describe('null when it never expires; 0 when expired'),
  state: z.enum(['active', 'cancelled', 'expired', 'deleted']),
  rights: shareRightsSchema,
  url: z.string().describe('desktop address /share/{rand} (absolute)'),
  shareUrl: z.string().describe('same as url (the spec moved url to shareUrl)'),
  h5Url: z.string().describe('/webH5/share/{shareId}/{rand}, or /webH5/simple/{rand} for temporary shares'),
  linkToken: z.string().describe('base64url JSON {fileId, from, isShare, rand, position}'),
  items: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), fileType: z.number(), size: z.number() })),
});
export type Share = z.infer<typeof shareSchema>;

export const shareCreateRequest = z.object({
  fileIds: ids,
  folderIds: ids,
  kind: z.enum(['link', 'easy']).default('link'),
  validDays: days.default(SHARE_DAYS_DEFAULT),
  password: z.string().max(16).default('').describe("'' or 4 letters/digits"),
  codeKind: z.enum(SHARE_CODE_KINDS).optional().describe('digits4, digits6 or alnum8; omitted: the shortest the validity allows (share-extraction.ts); a shorter one is refused'),
  canDownload: flag,
  canSave: flag,
  showNotes: flag,
});
export const shareListRequest = z.object({ pageNo: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(1000).default(50) });
export const shareListResult = z.object({ list: z.array(shareSchema), total: z.number() });
export const shareUpdateRequest = z.object({ shareId: id, password: z.string().max(16).optional().describe("4 digits, or '' to remove"), validDays: days.optional() });
export const shareIdsRequest = z.object({ shareIds: z.array(id).min(1).max(1000) });
export const shareEmailRequest = z.object({
  shareId: id,
  emails: z.array(z.string().max(320)).max(1000).default([]).describe(`at most ${SHARE_EMAIL_RECIPIENTS_MAX} addresses (more: 'email send fail' with the reason)`),
  language: z.string().max(8).optional(),
});
export const shareRandRequest = z.object({ rand: z.string().min(1).max(64) });
export const sharePublicInfo = z.object({
  shareId: z.string(),
  rand: z.string(),
  kind: z.enum(SHARE_KINDS),
  ownerName: z.string(),
  needsPassword: z.boolean(),
  codeKind: z.enum(SHARE_CODE_KINDS).describe('what the code looks like (length, digits or letters)'),
  shareTime: z.number(),
  expiresAt: z.number().nullable(),
  itemCount: z.number(),
});
export const shareChallengeResult = z.object({
  challenge: z.string(),
  bits: z.number().describe('leading zero bits SHA-256(challenge + ":" + proof) must have; 0: no proof needed now'),
  expiresAt: z.number(),
});
export const shareExtractRequest = z.object({
  rand: z.string().min(1).max(64),
  code: z.string().max(16).default(''),
  password: z.string().max(16).default(''),
  challenge: z.string().max(512).optional().describe('from share/challenge, once the share asks for a proof (share.proofRequired)'),
  proof: z.string().max(32).optional(),
});
export const shareAccessResult = z.object({
  shareToken: z.string(),
  share: sharePublicInfo,
  rights: shareRightsSchema,
  items: z.array(itemSchema).describe('the shared items themselves (top level)'),
});
export const shareFilesRequest = z.object({ shareToken: z.string().min(1), folderId: id.optional().describe('a folder inside the share; omitted: the top level') });
export const shareFilesResult = z.object({ list: z.array(itemSchema), total: z.number(), path: z.array(z.object({ id: z.string(), name: z.string() })) });
export const shareFileRequest = z.object({ shareToken: z.string().optional(), fileId: id });
export const shareDownloadResult = z.object({ signedUrl: z.string(), downloadUrl: z.string(), name: z.string(), size: z.number() });
export const shareCopyRequest = z.object({ shareToken: z.string().min(1), fileIds: ids, folderIds: ids, targetFolderId: id.default('0') });
