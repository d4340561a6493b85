import type { ItemRow } from './items.repository.ts';

const tzOffsetMs = new Date().getTimezoneOffset() * -60_000;

function formatTime(ms: number): string {
  // the spec's lists show server-local "YYYY-MM-DD HH:mm:ss"; clients localize with modifyTimestamp.
  // One ISO slice instead of six Date getters: this runs for every row of every list.
  return new Date(ms + tzOffsetMs).toISOString().slice(0, 19).replace('T', ' ');
}

/** An item as the spec's clients read it (section 3 fields that apply to the drive). */
export function presentItem(row: ItemRow, extra: { count?: number; userName?: string } = {}) {
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
    fileMD5: row.blob_md5 ?? '',
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
    thumbkey: row.thumbkey ?? '',
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
