import { useEffect, useState } from 'react';
import { App, Button, Card, Tag, Tooltip } from 'antd';
import { EyeOutlined, HeartFilled, HeartOutlined, MessageOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ItemIcon } from '../files/icons.tsx';
import { libraryApi, publicThumbUrl, type PublicItem } from './api.ts';

/** The thumbnail of a public drawing (through the library's own route), its type icon until then or without one. */
export function PublicThumb({ item, size = 48 }: { item: PublicItem; size?: number }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [item.thumbkey]);
  if (!item.thumbkey || failed) return <ItemIcon type={item.type} size={size} />;
  return <img src={publicThumbUrl(item)} alt={item.name} loading="lazy" decoding="async" onError={() => setFailed(true)} data-testid={`public-thumb-${item.name}`} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />;
}

/** Like and collect buttons with their counts; the server's answer is the truth shown afterwards. */
export function useMarks(item: PublicItem, onChange?: (next: PublicItem) => void) {
  const { message } = App.useApp();
  const [state, setState] = useState(item);
  useEffect(() => setState(item), [item]);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<Partial<PublicItem>>) => {
    if (busy) return;
    setBusy(true);
    try {
      const patch = await fn();
      setState((s) => {
        const next = { ...s, ...patch };
        onChange?.(next);
        return next;
      });
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return {
    state,
    busy,
    like: () => run(() => libraryApi.like(state.id, !state.isLiked)),
    collect: () => run(() => libraryApi.collect(state.id, !state.isCollected)),
  };
}

export function MarkButtons({ marks, size = 'small' }: { marks: ReturnType<typeof useMarks>; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('library');
  const { state } = marks;
  return (
    <>
      <Tooltip title={state.isLiked ? t('library.unlike') : t('library.like')}>
        <Button size={size} type={state.isLiked ? 'primary' : 'default'} ghost={!!state.isLiked} icon={state.isLiked ? <HeartFilled /> : <HeartOutlined />} onClick={(e) => { e.stopPropagation(); void marks.like(); }} data-testid={`like-${state.name}`} aria-pressed={!!state.isLiked} aria-label={t('library.like')}>
          <span data-testid={`like-count-${state.name}`}>{state.likeCount}</span>
        </Button>
      </Tooltip>
      <Tooltip title={state.isCollected ? t('library.uncollect') : t('library.collect')}>
        <Button size={size} type={state.isCollected ? 'primary' : 'default'} ghost={!!state.isCollected} icon={state.isCollected ? <StarFilled /> : <StarOutlined />} onClick={(e) => { e.stopPropagation(); void marks.collect(); }} data-testid={`collect-${state.name}`} aria-pressed={!!state.isCollected} aria-label={t('library.collect')}>
          <span data-testid={`collect-count-${state.name}`}>{state.collectionCount}</span>
        </Button>
      </Tooltip>
    </>
  );
}

/** One public drawing in a library list: thumbnail, name, publisher, counts, like and collect. */
export function PublicCard({ item, onOpen }: { item: PublicItem; onOpen: (item: PublicItem) => void }) {
  const { t } = useTranslation('library');
  const marks = useMarks(item);
  const s = marks.state;
  return (
    <Card size="small" hoverable className="grid-card public-card" data-testid={`public-card-${item.name}`} onClick={() => onOpen(item)}>
      <div className="grid-thumb">
        <PublicThumb item={item} />
      </div>
      <div className="grid-name ellipsis" title={item.name}>{item.name}</div>
      <small className="ellipsis" style={{ display: 'block', color: '#888' }}>{s.isOwner ? <Tag color="blue">{t('library.mine')}</Tag> : t('library.by', { name: s.ownerName })}</small>
      <div style={{ display: 'flex', justifyContent: 'center', gap: 12, color: '#888', fontSize: 12, margin: '4px 0' }}>
        <Tooltip title={t('library.count.browse')}><span><EyeOutlined /> {s.browseCount}</span></Tooltip>
        <Tooltip title={t('library.count.message')}><span><MessageOutlined /> {s.totalMessageCount}</span></Tooltip>
      </div>
      <div style={{ display: 'flex', justifyContent: 'center', gap: 6 }}>
        <MarkButtons marks={marks} />
      </div>
    </Card>
  );
}
