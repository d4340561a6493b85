import { z } from 'zod';
import { possessionChallengeSchema, possessionProofSchema } from './transfer.ts';

/**
 * Version history of a file (spec sections 2, 3, 5, 7; route /yun/version/{fileId}). Paths (signed in, owner only):
 *
 *   POST /cloud/v5/version/history                   versionHistoryRequest → versionHistoryResult (materializes V1)
 *   POST /cloud/v5/version/getFileVersionLatestNumber versionFileRequest → versionLatestResult
 *   POST /cloud/v5/version/delete                    versionIdRequest → { deleted }   (not the latest, not the only one)
 *   POST /cloud/v5/version/deleteBatch               versionIdsRequest → { deleted }  (all or nothing)
 *   POST /cloud/v5/version/updateRemark              versionRemarkRequest → versionSchema
 *   POST /cloud/v5/version/back                      versionBackRequest → versionSchema (new V(n+1) 'rollback from Vx')
 *   POST /cloud/v5/version/upload                    multipart fileId, md5?, filedata (one file) → versionSchema;
 *                                                    or JSON {fileId, md5, size, name?} → versionUploadResult (instant)
 *   POST /cloud/v5/version/copy                      versionCopyRequest → versionSchema (bytes of another cloud file)
 *   POST /cloud/v5/version/download                  versionIdRequest → versionDownloadResult (signed URL)
 *   POST /cloud/v5/version/downloadBatchZip          {data:{versionIds}} → application/zip, streamed
 *   GET  /cloud/v5/drawing/scene?fileId&versionId    the viewer on an earlier version
 *
 * A file with no history has one implicit V1 (its current content, 'create drawing'); the first version call writes
 * it down. The file's current content is always the latest version.
 *
 * Storage: the current version counts as the file always did (its size, while the file is private and not in the
 * recycle bin). Every other version adds its size once per distinct content in that file: bytes already counted for
 * that file (its current content or another kept version) add nothing. These extra bytes count from the moment the
 * version is made until the version is deleted or the file is deleted for good (the recycle bin keeps history).
 */

/** Remark types (spec section 3): the text is `versions.remark.<type>` with {0} = remarkFrom. */
export const VERSION_REMARK_TYPES = { create: 1, overwrite: 2, rollback: 3, merged: 4, onlineEdit: 5 } as const;
export type VersionRemarkType = (typeof VERSION_REMARK_TYPES)[keyof typeof VERSION_REMARK_TYPES];
/** relationType: what relationId names. */
export const VERSION_RELATION_TYPES = { none: 0, version: 1, cloudFile: 2 } as const;
/** Section 9: a new version is uploaded one file at a time. */
export const VERSION_UPLOAD_MAX_FILES = 1;
export const VERSION_REMARK_MAX = 200;
export const VERSION_PAGE_MAX = 200;
export const VERSION_BATCH_MAX = 200;

const id = z.string().min(1).max(64);

export const versionSchema = z.object({
  versionId: z.string(),
  id: z.string(),
  fileId: z.string(),
  version: z.number().describe('V<version>, 1-based'),
  versionName: z.string().describe("'V3'"),
  isLatest: z.number().describe('1 for the file\'s current content'),
  sourceName: z.string().describe('file name the bytes arrived with'),
  size: z.number(),
  fileMD5: z.string(),
  updateTime: z.number().describe('epoch ms'),
  updateName: z.string(),
  updateUid: z.string(),
  remarkType: z.number().describe('1 create drawing, 2 overwrite upload, 3 rollback from Vx, 4 merged from VxZx, 5 online edit'),
  remarkFrom: z.string().nullable().describe('x of rollback from Vx'),
  remark: z.string().describe('the user\'s remark'),
  description: z.string().describe("English text of the remark type, e.g. 'rollback from V1'"),
  relationId: z.string().nullable(),
  relationType: z.number(),
});
export type Version = z.infer<typeof versionSchema>;

export const versionHistoryRequest = z.object({
  fileId: id,
  sourceName: z.string().max(255).optional(),
  updateName: z.string().max(255).optional(),
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(VERSION_PAGE_MAX).default(20),
  ctoken: z.any().optional(),
});
export const versionHistoryResult = z.object({
  list: z.array(versionSchema),
  total: z.number(),
  pageNo: z.number(),
  pageSize: z.number(),
  latestNumber: z.number(),
  fileName: z.string(),
  fileId: z.string(),
});
export const versionFileRequest = z.object({ fileId: id, ctoken: z.any().optional() });
export const versionLatestResult = z.object({ fileId: z.string(), version: z.number(), versionId: z.string() });
export const versionIdRequest = z.object({ versionId: id, ctoken: z.any().optional() });
export const versionIdsRequest = z.object({ versionIds: z.array(id).min(1).max(VERSION_BATCH_MAX), ctoken: z.any().optional() });
export const versionRemarkRequest = z.object({ versionId: id, remark: z.string().max(VERSION_REMARK_MAX), ctoken: z.any().optional() });
export const versionBackRequest = z.object({
  versionId: id,
  relationId: z.string().max(64).optional().describe('the file id (checked when given)'),
  relationType: z.coerce.number().int().optional(),
  ctoken: z.any().optional(),
});
export const versionCopyRequest = z.object({ fileId: id.describe('the file that gets the new version'), sourceFileId: z.string().max(64).optional().describe("the cloud file whose bytes become it (missing: 'Please select a file')"), ctoken: z.any().optional() });
export const versionInstantUploadRequest = z.object({
  fileId: id,
  md5: z.string().regex(/^[a-fA-F0-9]{32}$/),
  size: z.coerce.number().int().min(1),
  name: z.string().max(255).optional(),
  ctoken: z.any().optional(),
  possession: possessionProofSchema.optional().describe('the answer to the challenge a call before gave (see transfer.ts)'),
});
export const versionUploadResult = z.object({ exists: z.boolean(), needUpload: z.boolean(), version: versionSchema.nullable(), possession: possessionChallengeSchema.optional() });
export const versionDownloadResult = z.object({ signedUrl: z.string(), downloadUrl: z.string(), name: z.string(), size: z.number() });
export const versionDeleteResult = z.object({ deleted: z.number() });
