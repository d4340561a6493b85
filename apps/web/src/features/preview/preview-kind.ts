import { TYPE_GROUPS } from '@cadcloud/contracts';
import type { Item } from '../files/api.ts';

/** How a click opens a file that is not a drawing: pictures and PDFs in the browser; archives not yet (spec: decompression first). */
export type PreviewKind = 'image' | 'pdf' | 'archive';

const extOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';

export function previewKind(item: Pick<Item, 'name' | 'fileType'>): PreviewKind | null {
  if (item.fileType !== 1) return null;
  const ext = extOf(item.name);
  if ((TYPE_GROUPS.image as readonly string[]).includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if ((TYPE_GROUPS.archive as readonly string[]).includes(ext)) return 'archive';
  return null;
}

/**
 * The file's bytes, through the same signed link a download uses, streamed by our server (`through=server`): on S3
 * storage the link would otherwise redirect to the bucket's host, which the page's CSP (connect-src 'self') and
 * the bucket's CORS refuse to fetch().
 */
export async function fileBytes(fileId: string, download: (id: string) => Promise<{ signedUrl: string }>): Promise<Blob> {
  const { signedUrl } = await download(fileId);
  const url = new URL(signedUrl, location.href);
  url.searchParams.set('through', 'server');
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(String(res.status));
  return res.blob();
}
