import { useEffect, useState } from 'react';
import { typeGroupOf } from '@cadcloud/contracts';
import type { Item } from './api.ts';
import { ItemIcon } from './icons.tsx';

/** The server's thumbnail route (modules/thumbnails): signed in by the ticket cookie, cached by the browser for good. */
export const thumbUrl = (thumbkey: string) => `/cloud/v5/file/thumb/${encodeURIComponent(thumbkey)}`;

/** The spec's refresh timer: how often a list looks again for thumbnails still being made. */
export const THUMB_POLL_MS = 5000;
/** A drawing or picture uploaded longer ago than this without a thumbnail will not get one (skipped): stop asking. */
const RECENT_MS = 60_000;

/** Types the server makes thumbnails of (drawings it reads, and pictures). */
export function mayHaveThumbnail(item: Item): boolean {
  return item.fileType === 1 && (['dwg', 'dxf', 'dws', 'dwt'].includes(item.type) || typeGroupOf(item.type) === 'image');
}

/** Whether some listed file is probably waiting for its thumbnail job: thumbnailable, none yet, uploaded in the last minute. */
export function awaitingThumbnails(items: readonly Item[], now = Date.now()): boolean {
  return items.some((i) => mayHaveThumbnail(i) && !i.thumbkey && now - ((i as { createTimestamp?: number }).createTimestamp ?? i.modifyTimestamp) < RECENT_MS);
}

/** Reloads the list every 5 s while `active` and some fresh upload still has no thumbnail; stops by itself after a minute. */
export function useThumbnailRefresh(items: readonly Item[], reload: () => unknown, active = true) {
  const waiting = active && awaitingThumbnails(items);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => void reload(), THUMB_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, items, reload]);
}

/**
 * A file's thumbnail when it has one, its type icon otherwise — and while the image loads or when it fails,
 * so a cell is never empty. `box` gives the image a fixed square (phone rows); without it the parent's CSS sizes it.
 */
export function Thumb({ item, size = 48, box }: { item: Item; size?: number; box?: number }) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  useEffect(() => setState('loading'), [item.thumbkey]);
  const icon = <ItemIcon type={item.type} size={size} />;
  if (!item.thumbkey || state === 'failed') return icon;
  const img = (
    <img
      src={thumbUrl(item.thumbkey)}
      alt={item.name}
      loading="lazy"
      decoding="async"
      data-testid={`thumb-${item.name}`}
      onLoad={() => setState('loaded')}
      onError={() => setState('failed')}
      // until it has arrived the icon stands in; the image stays in the layout (not display:none) so lazy loading still fetches it
      style={state === 'loaded' ? (box ? { maxWidth: box, maxHeight: box, objectFit: 'contain' } : undefined) : { position: 'absolute', opacity: 0, width: 1, height: 1 }}
    />
  );
  const shown = (
    <>
      {state !== 'loaded' && icon}
      {img}
    </>
  );
  return box ? <span style={{ position: 'relative', display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: box, height: box }}>{shown}</span> : shown;
}
