import { MAX_FOLDER_DEPTH } from '@cadcloud/contracts';

interface TreeRow {
  id: string;
  parent_id: string;
  kind: number;
}

/**
 * Levels of folders in the deepest branch of `rows` under `topIds`, the tops counted as level 1 (0: no
 * folder). Rows not under a top (a parent loop, a missing parent) do not count. Each climb stops after
 * MAX_FOLDER_DEPTH + 1 steps, so a loop in the rows cannot keep it going.
 */
export function folderLevels(topIds: ReadonlySet<string>, rows: readonly TreeRow[]): number {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let deepest = 0;
  for (const r of rows) {
    if (r.kind !== 0) continue;
    let at: TreeRow | undefined = r;
    let level = 1;
    while (at && !topIds.has(at.id) && level <= MAX_FOLDER_DEPTH) {
      at = byId.get(at.parent_id);
      level++;
    }
    if (at && topIds.has(at.id)) deepest = Math.max(deepest, level);
  }
  return deepest;
}
