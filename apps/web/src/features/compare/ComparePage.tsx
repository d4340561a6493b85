import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Drawer, Result, Segmented, Spin } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Scene } from '@cadcloud/cad/scene';
import { Viewer, type ViewerHooks } from '../viewer/Viewer.tsx';
import { compareApi, COMPARE_LAYERS, type CompareChangesResult, type CompareQuery } from './api.ts';
import { ChangeList, CompareLegend } from './ChangeList.tsx';

type Show = 'both' | 'changes' | 'a' | 'b';
const HIDE: Record<Show, string[] | undefined> = {
  both: undefined,
  changes: [COMPARE_LAYERS.unchanged],
  a: [COMPARE_LAYERS.modified, COMPARE_LAYERS.added],
  b: [COMPARE_LAYERS.removed, COMPARE_LAYERS.before],
};

/**
 * The overlay's entity of a change, for the viewer's outline: the overlay lists B's entities, then A's; an added or
 * modified entity is found by its B handle from the start, a removed one by its A handle from the end.
 */
function sceneEntity(s: Scene | null, c: CompareChangesResult['changes'][number]): number | null {
  if (!s) return null;
  const list = s.meta.entities;
  if (c.kind !== 'removed') {
    const i = list.findIndex((e) => e.handle?.toUpperCase() === c.handleB && e.type === c.type);
    return i >= 0 ? i : null;
  }
  for (let i = list.length - 1; i >= 0; i--) if (list[i].handle?.toUpperCase() === c.handleA && list[i].type === c.type) return i;
  return null;
}

/**
 * Two versions of a drawing compared: the viewer draws the overlay scene (unchanged grey, added green, removed red,
 * modified orange over the old geometry in faint red), a legend counts each kind, and the change list (a side
 * drawer; a bottom drawer on a phone) zooms to the entity clicked. "Only A" / "only B" switch the overlay's layers.
 */
export function ComparePage({ query, phone, onBack }: { query: CompareQuery; phone: boolean; onBack: () => void }) {
  const { t } = useTranslation('compare');
  const [result, setResult] = useState<CompareChangesResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [show, setShow] = useState<Show>('both');
  const [open, setOpen] = useState(!phone);
  const [selected, setSelected] = useState<number | null>(null);
  const [focus, setFocus] = useState<ViewerHooks['focus']>(null);
  const [extent, setExtent] = useState(0);
  // the viewer's layout switch asks for that layout's overlay: the list follows it
  const [layout, setLayout] = useState('Model');
  const scene = useRef<Scene | null>(null);
  const [entity, setEntity] = useState<number | null>(null);
  // the desktop panel floats under the viewer's toolbar (which may wrap)
  const [barBottom, setBarBottom] = useState(44);
  useEffect(() => {
    const bar = () => document.querySelector('.viewer-bar');
    const measure = () => setBarBottom(bar()?.getBoundingClientRect().bottom ?? 44);
    const ro = new ResizeObserver(measure);
    const f = requestAnimationFrame(() => {
      measure();
      const el = bar();
      if (el) ro.observe(el);
    });
    return () => {
      cancelAnimationFrame(f);
      ro.disconnect();
    };
  }, [result]);

  useEffect(() => {
    let gone = false;
    setResult(null);
    setError(null);
    setSelected(null);
    setEntity(null);
    compareApi.changes(query, layout).then((r) => !gone && setResult(r), (e: Error) => !gone && setError(e.message || t('compare.failed')));
    return () => {
      gone = true;
    };
  }, [query.fileId, query.a, query.b, layout]); // eslint-disable-line react-hooks/exhaustive-deps

  const source = useCallback(async (layout: string, onProgress: (l: number, total: number) => void): Promise<Scene> => {
    const s = await compareApi.scene(query, layout, onProgress);
    setLayout(s.meta.layout);
    scene.current = s;
    const b = s.meta.bounds;
    setExtent(Math.hypot(b.maxX - b.minX, b.maxY - b.minY));
    return s;
  }, [query.fileId, query.a, query.b]); // eslint-disable-line react-hooks/exhaustive-deps

  const hooks = useMemo<ViewerHooks>(() => ({ source, focus, hiddenLayers: HIDE[show], select: entity, layerLabel: (n) => (n.startsWith('compare:') ? t(`compare.legend.${n.slice('compare:'.length)}`) : n) }), [source, focus, show, entity, t]);

  const pick = (i: number) => {
    const c = result!.changes[i];
    const b = c.bounds;
    // a margin around the entity, and never closer than a small part of the drawing (a point has no size)
    const size = Math.max(b.maxX - b.minX, b.maxY - b.minY, extent / 50, 1e-6);
    const cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2;
    setSelected(i);
    setEntity(sceneEntity(scene.current, c));
    setFocus({ minX: cx - size * 0.75, minY: cy - size * 0.75, maxX: cx + size * 0.75, maxY: cy + size * 0.75 });
    if (phone) setOpen(false);
  };

  const title = result ? t('compare.title', { a: result.a.number, b: result.b.number }) : t('compare.loading');
  useEffect(() => {
    document.title = title;
  }, [title]);
  const total = result ? result.changes.length : 0;
  const extra = (
    <>
      <Segmented size="small" value={show} onChange={(v) => setShow(v as Show)} data-testid="compare-show" options={[
        { value: 'both', label: t('compare.show.both') },
        { value: 'changes', label: t('compare.show.changes') },
        { value: 'a', label: t('compare.show.a', { n: result?.a.number ?? 'A' }) },
        { value: 'b', label: t('compare.show.b', { n: result?.b.number ?? 'B' }) },
      ]} />
      <Badge count={total} size="small" overflowCount={9999} color="#fa8c16">
        <Button size="small" type={open ? 'primary' : 'default'} icon={<UnorderedListOutlined />} onClick={() => setOpen(!open)} data-testid="compare-btn-list" aria-label={t('compare.changes')} />
      </Badge>
    </>
  );

  const body = error ? (
    <Result status="warning" title={<span data-testid="compare-error">{error}</span>} />
  ) : !result ? (
    <div style={{ textAlign: 'center', padding: 24 }}><Spin /></div>
  ) : (
    <>
      <CompareLegend counts={result.counts} />
      <div className="compare-count" data-testid="compare-total">{t('compare.changesCount', { n: total })}</div>
      <ChangeList changes={result.changes} selected={selected} onPick={pick} />
    </>
  );

  return (
    <>
      <Viewer fileId={query.fileId} name={title} phone={phone} onBack={onBack} extra={extra} hooks={hooks} />
      {phone ? (
        <Drawer title={t('compare.changes')} placement="bottom" open={open} mask={false} onClose={() => setOpen(false)} height="50%" styles={{ body: { padding: 8 } }}>
          {body}
        </Drawer>
      ) : open && (
        <div className="compare-panel" style={{ top: barBottom + 8 }} data-testid="compare-panel">
          <div className="compare-panel-title">{t('compare.changes')}</div>
          {body}
        </div>
      )}
    </>
  );
}
