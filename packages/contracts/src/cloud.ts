import { z } from 'zod';

/** Request and response schemas of the drive endpoints (spec section 7). */
const id = z.string().min(1).max(64);
const ids = z.array(id).max(10_000).default([]);
const page = z.coerce.number().int().min(1).default(1);
const pageSize = (def: number, max = 10_000) => z.coerce.number().int().min(1).max(max).default(def);
const sort = z.enum(['name', 'time', 'size']).optional();
const flag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => v === true || v === 1 || v === '1' || v === 'true');
const types = z.union([z.array(z.string()), z.string()]).optional();
export const ROOT = '0';

export const itemSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().describe("'folder' or the lower-case extension"),
  fileType: z.number().describe('0 Folder, 1 File'),
  size: z.number(),
  version: z.number(),
  versionalias: z.string(),
  descp: z.string(),
  modifytime: z.string(),
  createtime: z.string(),
  modifyTimestamp: z.number(),
  parentId: z.string(),
  uid: z.string(),
  fileMD5: z.string(),
  privateType: z.string(),
  freeze: z.number(),
  thumbkey: z.string(),
  transformStatus: z.number(),
  count: z.number().optional(),
}).passthrough();
export type Item = z.infer<typeof itemSchema>;

export const listResult = z.object({ list: z.array(itemSchema), total: z.number() }).passthrough();

export const unionListRequest = z.object({ parentId: id.default(ROOT), page, pageSize: pageSize(100), q: z.string().max(255).optional(), isGlobal: flag, sort, desc: flag });
export const fileListRequest = z.object({ folderId: id.optional(), page, pageSize: pageSize(100), includeTypes: types, attmask: z.any().optional(), sort, desc: flag });
export const listTypeFilesRequest = z.object({ pageNo: page, pageSize: pageSize(100), includeTypes: types, excludeTypes: types, q: z.string().max(255).optional(), sort, desc: flag });
export const fileIdRequest = z.object({ fileId: id });
export const fileEditRequest = z.object({ fileId: id, name: z.string().max(1000).optional(), descp: z.string().max(2000).optional(), autorename: flag, ctoken: z.any().optional() });
export const folderEditRequest = z.object({ folderId: id.optional(), parentId: id.default(ROOT), name: z.string().max(1000).optional(), descp: z.string().max(2000).optional(), autorename: flag, ctoken: z.any().optional() });
export const folderListRequest = z.object({ parentId: id.default(ROOT), page, pageSize: pageSize(9999), sub: z.any().optional(), attmask: z.any().optional() });
export const folderIdRequest = z.object({ folderId: id.default(ROOT) });
export const folderDetectUploadRequest = z.object({ parentId: id.default(ROOT), name: z.string().max(1000) });
export const uploadFileTypeRequest = z.object({ type: z.coerce.number().optional() });
export const moveRequest = z.object({ fileIds: ids, folderIds: ids, moveToId: id, autoRename: flag });
export const deleteRequest = z.object({ deleteLevel: z.coerce.number().int().min(0).max(2).default(0), fileIds: ids, folderIds: ids, fontIds: ids, autorename: flag, ctoken: z.any().optional() });
export const restoreRequest = z.object({ fileIds: ids, folderIds: ids });
export const emptyRequest = z.object({ ctoken: z.any().optional() }).passthrough();
export const confParamsRequest = z.object({ type: z.coerce.number().optional() });
/** aiAssistant: the AI feedback assistant is enabled (operator config, off by default); its script's address then */
export const confParamsResult = z.object({ miniOpenFileSize: z.number(), miniUploadFileSize: z.number(), webOpenFileSize: z.number(), webUploadFileSize: z.number(), aiAssistant: z.boolean(), aiAssistantScriptUrl: z.string().optional() });
/** call style 4: the session's secret for call style 3 (base64url of 32 bytes); the same for the whole session */
export const rsaKeyResult = z.object({ aesSecretKey: z.string() });
/** the caller's address as the server sees it (X-Forwarded-For only from TRUSTED_PROXIES) */
export const ipAddressResult = z.object({ ip: z.string() });
export const customerInfoResult = z.object({ id: z.string(), name: z.string(), email: z.string(), avatar: z.string(), clientType: z.string(), createdAt: z.number() });
export const capacityResult = z.object({ used: z.number(), total: z.number(), freeze: z.number() }).passthrough();
