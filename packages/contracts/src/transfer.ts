import { z } from 'zod';
import { itemSchema } from './cloud.ts';

const md5 = z.string().regex(/^[a-fA-F0-9]{32}$/, 'md5 must be 32 hex digits');
/** What an upload does when a live file of its name is in the target folder: 'rename' (default) keeps both as "name (1).ext", 'version' makes it the next version of that file ('overwrite upload'). */
export const uploadConflictSchema = z.enum(['rename', 'version']);
export type UploadConflict = z.infer<typeof uploadConflictSchema>;
const placement = { parentId: z.string().min(1).max(64).default('0'), relativePath: z.string().max(4096).optional(), name: z.string().max(1000), conflict: uploadConflictSchema.optional() };

export const detectUploadRequest = z.object({ ...placement, md5, size: z.coerce.number().int().min(0) });
export const detectUploadResult = z.object({ exists: z.boolean(), needUpload: z.boolean(), item: itemSchema.nullable() });
export const detectUploadBatchRequest = z.object({ files: z.array(detectUploadRequest).min(1).max(500) });
export const uploadInitRequest = detectUploadRequest;
export const uploadInitResult = z.object({ uploadId: z.string().nullable(), chunkSize: z.number(), received: z.number(), item: itemSchema.nullable() });
export const uploadIdRequest = z.object({ uploadId: z.string().min(1).max(64) });
export const uploadCompleteResult = z.object({ complete: z.boolean(), received: z.number().optional(), item: itemSchema.nullable() });
export const directInitResult = z.object({ uploadId: z.string().nullable(), url: z.string().nullable(), headers: z.record(z.string(), z.string()).nullable(), method: z.string().optional(), item: itemSchema.nullable() });

export const downloadRequest = z.object({ fileId: z.string().min(1).max(64), shareId: z.string().optional(), uid: z.string().optional(), ctoken: z.any().optional() });
export const downloadResult = z.object({ signedUrl: z.string(), downloadUrl: z.string(), name: z.string(), size: z.number() });
export const batchZipRequest = z.object({ fileIds: z.array(z.string().min(1).max(64)).max(10_000).default([]), folderIds: z.array(z.string().min(1).max(64)).max(10_000).default([]), language: z.string().optional() });
export const zipTaskSchema = z.object({ taskId: z.string(), taskType: z.number(), status: z.number(), name: z.string(), progress: z.number(), size: z.number().nullable(), createTimestamp: z.number(), response: z.string().nullable() });
export const taskIdRequest = z.object({ taskId: z.string().min(1).max(64) });
export const taskListRequest = z.object({ taskType: z.coerce.number().int().optional() });
