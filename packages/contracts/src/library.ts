import { z } from 'zod';
import { itemSchema } from './cloud.ts';
import { TYPE_GROUPS, extensionOf } from './rules.ts';

/**
 * The public library (spec sections 2–5, 7). The first four paths are the spec's; the `/cloud/v5/public/...` ones are
 * not shown by the spec and are ours:
 *
 *   POST /cloud/v5/file/setFilePrivateType          setPrivateTypeRequest → setPrivateTypeResult  (own files; '0' publish, '1' unpublish)
 *   POST /cloud/v5/file/queryMyPublicList            myPublicListRequest → publicListResult        (/yun/myPublic)
 *   POST /cloud/v5/file/queryMyLikePublicList        myPublicListRequest → publicListResult        (/yun/myLike)
 *   POST /cloud/v5/file/queryMyCollectionrecordList  myPublicListRequest → publicListResult        (/yun/myCollection)
 *   POST /cloud/v5/public/list                       publicListRequest → publicListResult          (everyone's public drawings)
 *   POST /cloud/v5/public/detail                     publicFileRequest → publicItemSchema          (counts one browse)
 *   POST /cloud/v5/public/like                       publicLikeRequest → publicLikeResult          (like: true/false, omitted toggles)
 *   POST /cloud/v5/public/collect                    publicCollectRequest → publicCollectResult
 *   POST /cloud/v5/public/message/add                publicMessageAddRequest → publicMessageSchema
 *   POST /cloud/v5/public/message/list               publicMessageListRequest → publicMessageListResult
 *   POST /cloud/v5/public/message/delete             publicMessageDeleteRequest → { deleted }      (own messages only)
 *   GET  /cloud/v5/public/thumb/{fileId}             thumbnail of a public drawing, for any signed-in user
 *
 * Rules (section 4): only a private, live, non-folder drawing (TYPE_GROUPS.drawing) of the caller can be published;
 * a public drawing does not count toward the owner's storage, unpublishing counts it again (allowed even past the
 * quota: the account is then frozen, as section 4 freezes any account over its space). Unpublished drawings leave
 * every list; their likes, collections and messages are kept (hidden) and come back if published again.
 */

export const PUBLIC_SORTS = ['newest', 'likes', 'browses'] as const;
export type PublicSort = (typeof PUBLIC_SORTS)[number];
/** Longest message left on a public drawing. */
export const PUBLIC_MESSAGE_MAX = 500;

/** Section 5: public sharing only for drawing formats. */
export function isPublishableName(name: string): boolean {
  return (TYPE_GROUPS.drawing as readonly string[]).includes(extensionOf(name));
}

const id = z.string().min(1).max(64);
const page = z.coerce.number().int().min(1).default(1);
const pageSize = z.coerce.number().int().min(1).max(1000).default(30);
const optionalFlag = z.union([z.boolean(), z.number(), z.string()]).optional().transform((v) => (v === undefined ? undefined : v === true || v === 1 || v === '1' || v === 'true'));

export const publicItemSchema = itemSchema.extend({
  browseCount: z.number(),
  likeCount: z.number(),
  collectionCount: z.number(),
  leaveMessageCount: z.number(),
  totalMessageCount: z.number(),
  isLiked: z.number().describe('1 when the caller likes it'),
  isCollected: z.number().describe('1 when the caller collected it'),
  publishTimestamp: z.number().describe('epoch ms of publication, 0 while private'),
  ownerName: z.string().describe('name of the user who published it'),
  isOwner: z.number().describe('1 when it is the caller\'s own drawing'),
});
export type PublicItem = z.infer<typeof publicItemSchema>;

export const setPrivateTypeRequest = z.object({
  fileIds: z.array(id).min(1).max(1000),
  privateType: z.union([z.literal('0'), z.literal('1'), z.literal(0), z.literal(1)]).transform((v) => String(v) as '0' | '1').describe("'0' publish (Open), '1' make private"),
  userName: z.string().max(255).optional(),
});
export const setPrivateTypeResult = z.object({ list: z.array(itemSchema), count: z.number() });

export const myPublicListRequest = z.object({ pageNo: page, pageSize, keywords: z.string().max(255).optional() });
export const publicListRequest = myPublicListRequest.extend({ sort: z.enum(PUBLIC_SORTS).default('newest') });
export const publicListResult = z.object({ list: z.array(publicItemSchema), total: z.number() });

export const publicFileRequest = z.object({ fileId: id });
export const publicLikeRequest = z.object({ fileId: id, like: optionalFlag.describe('true like, false unlike, omitted toggles') });
export const publicLikeResult = z.object({ isLiked: z.number(), likeCount: z.number() });
export const publicCollectRequest = z.object({ fileId: id, collect: optionalFlag.describe('true collect, false remove, omitted toggles') });
export const publicCollectResult = z.object({ isCollected: z.number(), collectionCount: z.number() });

export const publicMessageSchema = z.object({
  id: z.string(),
  fileId: z.string(),
  uid: z.string(),
  userName: z.string(),
  content: z.string(),
  createTimestamp: z.number(),
  isMine: z.number().describe('1 when the caller wrote it (may delete it)'),
});
export type PublicMessage = z.infer<typeof publicMessageSchema>;
export const publicMessageAddRequest = z.object({ fileId: id, content: z.string().max(PUBLIC_MESSAGE_MAX * 4) });
export const publicMessageListRequest = z.object({ fileId: id, pageNo: page, pageSize });
export const publicMessageListResult = z.object({ list: z.array(publicMessageSchema), total: z.number() });
export const publicMessageDeleteRequest = z.object({ messageId: id });
