import type { ItemRow } from './items.repository.ts';

const tzOffsetMs = new Date().getTimezoneOffset() * -60_000;

function formatTime(ms: number): string {
  // the spec's lists show server-local "YYYY-MM-DD HH:mm:ss"; clients localize with modifyTimestamp.
  // One ISO slice instead of six Date getters: this runs for every row of every list.
  return new Date(ms + tzOffsetMs).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * What a viewer who is not the owner sees instead of the thumbkey: it names the item and when its content last
 * changed (so a public thumbnail's address changes with the drawing), never the content hash the real key holds.
 */
function foreignThumbkey(row: ItemRow): string {
  return row.thumbkey ? `i-${row.id}-${row.modified_at}` : '';
}

/**
 * An item as the spec's clients read it (section 3 fields that apply to the drive), as seen by `viewer` (the
 * signed-in caller's uid; null for an anonymous share visitor). Fields that reveal the stored content are the
 * owner's alone:
 * - fileMD5: the owner's own (their client compares it with local files); '' for anyone else — an MD5 once let
 *   share recipients and library readers place the whole file in their drive through instant upload, and it
 *   still tells whether someone holds a file one has.
 * - thumbkey: the real one holds the MD5 (`v1-<md5>.png`) and only the owner's thumbnail route reads it; others get
 *   `foreignThumbkey` (presence, and a cache key for /cloud/v5/public/thumb/<fileId>).
 * - size, name, type, times: what a share page and the library show; size without the bytes proves nothing now
 *   (instant upload asks for a proof of possession), so it stays.
 */
export function presentItem(row: ItemRow, viewer: string | null | undefined, extra: { count?: number; userName?: string } = {}) {
  const own = !!viewer && viewer === row.uid;
  return {
    id: row.id,
    name: row.name,
    type: row.kind === 0 ? 'folder' : row.type,
    fileType: row.kind,
    size: Number(row.size),
    version: row.version,
    versionalias: `V${row.version}`,
    descp: row.descp,
    modifytime: formatTime(row.modified_at),
    createtime: formatTime(row.created_at),
    modifyTimestamp: row.modified_at,
    createTimestamp: row.created_at,
    parentId: row.parent_id,
    refid: row.id,
    uid: row.uid,
    attribute: 0,
    mcounter: 0,
    fileMD5: own ? (row.blob_md5 ?? '') : '',
    privateType: row.private_type,
    browseCount: row.browse_count,
    likeCount: row.like_count,
    collectionCount: row.collection_count,
    leaveMessageCount: row.leave_message_count,
    totalMessageCount: row.leave_message_count,
    clienttype: 'Web_PC',
    isRecommend: 0,
    isTrade: 0,
    isCollected: 0,
    isLiked: 0,
    publishTimestamp: 0,
    isTradeRecommend: 0,
    orderNum: 0,
    freeze: row.freeze,
    thumbkey: own ? (row.thumbkey ?? '') : foreignThumbkey(row),
    noteChangeCount: 0,
    noteCount: 0,
    noteSize: 0,
    drawType: 0,
    url: '',
    transformStatus: row.transform_status,
    deleteTimestamp: row.deleted_at ?? undefined,
    ...(row.kind === 0 ? { count: extra.count ?? 0 } : {}),
  };
}

export type PresentedItem = ReturnType<typeof presentItem>;
