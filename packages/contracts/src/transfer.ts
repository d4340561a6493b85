import { z } from 'zod';
import { itemSchema } from './cloud.ts';

const md5 = z.string().regex(/^[a-fA-F0-9]{32}$/, 'md5 must be 32 hex digits');
/** What an upload does when a live file of its name is in the target folder: 'rename' (default) keeps both as "name (1).ext", 'version' makes it the next version of that file ('overwrite upload'). */
export const uploadConflictSchema = z.enum(['rename', 'version']);
export type UploadConflict = z.infer<typeof uploadConflictSchema>;
const placement = { parentId: z.string().min(1).max(64).default('0'), relativePath: z.string().max(4096).optional(), name: z.string().max(1000), conflict: uploadConflictSchema.optional() };


/**
 * Proof of possession for instant upload. Knowing a file's MD5 and size is not having the file (shares and the
 * public library once showed both), so bytes stored for someone else are placed in the caller's drive only after
 * the caller proves to hold them: an instant-upload call (detectUpload, detectUploadBatch, upload/init,
 * upload/direct/init, JSON version/upload) for bytes the caller does not already own answers needUpload with a
 * `possession` challenge, and the same call repeated with `possession: {token, proof}` places them when the proof
 * is right. The challenge is given for every MD5 and size, stored or not, and a wrong proof answers exactly like
 * bytes that are not stored, so no answer tells whether anyone holds them.
 *
 * proof = lower-case hex MD5 of: the UTF-8 bytes of `nonce`, then the file's bytes of each range in order
 * (`start` inclusive, `length` bytes). MD5, not SHA-256, because browsers on plain-http addresses have no
 * crypto.subtle and the web client already carries an MD5; the nonce comes first, so the file's own MD5 (public
 * knowledge) does not help to compute it, and without the bytes of the ranges it cannot be computed at all.
 */
export const possessionRangeSchema = z.object({ start: z.number().int().min(0), length: z.number().int().min(1) });
export const possessionChallengeSchema = z.object({
  token: z.string().describe('signed; send it back as possession.token'),
  nonce: z.string().describe('hashed first, before the ranges'),
  ranges: z.array(possessionRangeSchema).describe('byte ranges of the file, hashed in this order'),
  expiresAt: z.number().describe('epoch ms'),
});
export type PossessionChallenge = z.infer<typeof possessionChallengeSchema>;
export const possessionProofSchema = z.object({ token: z.string().min(1).max(2000), proof: md5 });
export type PossessionProof = z.infer<typeof possessionProofSchema>;
const possession = { possession: possessionProofSchema.optional().describe('the answer to a challenge this call gave before') };
const challengeOut = { possession: possessionChallengeSchema.optional().describe('present when the bytes may be placed after a proof (any bytes the caller does not own: it says nothing about whether they are stored)') };

export const detectUploadRequest = z.object({ ...placement, md5, size: z.coerce.number().int().min(0), ...possession });
export const detectUploadResult = z.object({ exists: z.boolean().describe('true only when the item was placed'), needUpload: z.boolean(), item: itemSchema.nullable(), ...challengeOut });
export const detectUploadBatchRequest = z.object({ files: z.array(detectUploadRequest).min(1).max(500) });
export const detectUploadBatchResult = z.object({ list: z.array(detectUploadResult.extend({ name: z.string(), msg: z.string().optional(), rtnCode: z.string().optional() })) });
export const uploadInitRequest = detectUploadRequest;
export const uploadInitResult = z.object({ uploadId: z.string().nullable(), chunkSize: z.number(), received: z.number(), item: itemSchema.nullable(), ...challengeOut });
export const uploadIdRequest = z.object({ uploadId: z.string().min(1).max(64) });
export const uploadCompleteResult = z.object({ complete: z.boolean(), received: z.number().optional(), item: itemSchema.nullable() });
export const directInitResult = z.object({ uploadId: z.string().nullable(), url: z.string().nullable(), headers: z.record(z.string(), z.string()).nullable(), method: z.string().optional(), item: itemSchema.nullable(), ...challengeOut });

export const downloadRequest = z.object({ fileId: z.string().min(1).max(64), shareId: z.string().optional(), uid: z.string().optional(), ctoken: z.any().optional() });
export const downloadResult = z.object({ signedUrl: z.string(), downloadUrl: z.string(), name: z.string(), size: z.number() });
export const batchZipRequest = z.object({ fileIds: z.array(z.string().min(1).max(64)).max(10_000).default([]), folderIds: z.array(z.string().min(1).max(64)).max(10_000).default([]), language: z.string().optional() });
export const zipTaskSchema = z.object({ taskId: z.string(), taskType: z.number(), status: z.number(), name: z.string(), progress: z.number(), size: z.number().nullable(), createTimestamp: z.number(), response: z.string().nullable() });
export const taskIdRequest = z.object({ taskId: z.string().min(1).max(64) });
export const taskListRequest = z.object({ taskType: z.coerce.number().int().optional() });
