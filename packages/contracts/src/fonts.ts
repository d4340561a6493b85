import { z } from 'zod';

/** The font library (spec sections 3, 5, 7, 9): code pages, accepted types and the call schemas. */

/** Section 9: code page values with what they stand for (labels are i18n keys `fonts.codepage.<value>`). */
export const FONT_CODEPAGES = [1, 38, 39, 40, 41, 42, 1200] as const;
export type FontCodepage = (typeof FONT_CODEPAGES)[number];
/** Section 5: only these may be uploaded. */
export const FONT_TYPES = ['ttf', 'ttc', 'shx'] as const;
/** Section 9: the font list's largest page. */
export const FONT_LIST_MAX = 100_000;
/** font/downloadBatch zips synchronously: at most this many fonts in one archive. */
export const FONT_BATCH_MAX = 500;

const id = z.string().min(1).max(64);
const flag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => v === true || v === 1 || v === '1' || v === 'true');
const optionalFlag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => (v === undefined ? undefined : v === true || v === 1 || v === '1' || v === 'true'));

export const fontSchema = z.object({
  id: z.string().describe('fileId'),
  fileId: z.string(),
  name: z.string().describe('fileName, with its extension'),
  fileName: z.string(),
  size: z.number(),
  fileSize: z.number(),
  createTime: z.number().describe('epoch ms'),
  modifyTime: z.number(),
  ispublic: z.number().describe('1 published: every user\'s drawings may use it'),
  issubfont: z.number().describe('1 for an SHX big font'),
  fileType: z.string().describe("'ttf' | 'ttc' | 'shx'"),
  isbold: z.number(),
  isitalic: z.number(),
  codepage: z.number(),
  fileMD5: z.string(),
  deleteTime: z.number().optional().describe('in the font recycle bin since'),
});
export type Font = z.infer<typeof fontSchema>;

export const fontListRequest = z.object({
  startIndex: z.coerce.number().int().min(0).default(0),
  maxCount: z.coerce.number().int().min(1).max(FONT_LIST_MAX).default(100),
  delete: flag.describe('1: the font recycle bin instead of the library'),
  q: z.string().max(255).optional(),
  ctoken: z.any().optional(),
});
export const fontListResult = z.object({ fontsList: z.array(fontSchema), list: z.array(fontSchema), total: z.number() });
export const fontIdRequest = z.object({ id, ctoken: z.any().optional() });
export const fontPublicRequest = z.object({ id, ispublic: optionalFlag.describe('omitted: toggles; 1 publishes, 0 unpublishes'), ctoken: z.any().optional() });
export const fontRenameRequest = z.object({ id, name: z.string().max(1000).default(''), ctoken: z.any().optional() });
export const fontEditRequest = z.object({
  id,
  name: z.string().max(1000).default(''),
  codepage: z.coerce.number().int().refine((v) => (FONT_CODEPAGES as readonly number[]).includes(v), 'unknown code page').optional(),
  bold: optionalFlag,
  italic: optionalFlag,
  ctoken: z.any().optional(),
});
export const fontIdsRequest = z.object({ ids: z.array(id).min(1).max(10_000), ctoken: z.any().optional() });
export const fontDownloadResult = z.object({ signedUrl: z.string(), downloadUrl: z.string(), name: z.string(), size: z.number() });
