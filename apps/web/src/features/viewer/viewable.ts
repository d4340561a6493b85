import type { Item } from '@cadcloud/contracts';

/** Files the viewer opens: DWG-family and DXF drawings (dwf and ocf are other formats). */
const VIEWABLE = new Set(['dwg', 'dxf', 'dwt', 'dws']);

export function isViewable(item: Pick<Item, 'name' | 'fileType'>): boolean {
  return item.fileType === 1 && VIEWABLE.has(item.name.toLowerCase().split('.').pop() ?? '');
}
