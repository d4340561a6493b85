import { useCallback, useEffect, useState } from 'react';
import { App, Button, Empty, Input, Pagination, Segmented, Space, Spin } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PUBLIC_SORTS } from '@cadcloud/contracts';
import { libraryApi, type LibraryKind, type PublicItem, type PublicSort } from './api.ts';
import { PublicCard } from './PublicCard.tsx';

const PAGE_SIZE = 60;

/**
 * A grid of public drawings: everyone's (with sort), or the user's public / collected / liked ones. Keyword search
 * on names; a card opens the drawing's detail page (`onOpen`).
 */
export function LibraryList({ kind, onOpen }: { kind: LibraryKind; onOpen: (item: PublicItem) => void }) {
  const { t } = useTranslation('library');
  const { message } = App.useApp();
  const [items, setItems] = useState<PublicItem[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [keywords, setKeywords] = useState('');
  const [text, setText] = useState('');
  const [sort, setSort] = useState<PublicSort>('newest');
  const [pageNo, setPageNo] = useState(1);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await libraryApi.list(kind, { pageNo, pageSize: PAGE_SIZE, keywords, sort });
      setItems(r.list);
      setTotal(r.total);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, [kind, pageNo, keywords, sort]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="file-list" data-testid={`library-${kind}`}>
      <h2 style={{ marginTop: 0 }}>{t(`library.nav.${kind}`)}</h2>
      <div className="toolbar">
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('library.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onSearch={(v) => {
              setPageNo(1);
              setKeywords(v.trim());
            }}
            style={{ width: 240, maxWidth: '100%' }}
            data-testid="library-search"
          />
          {kind === 'public' && (
            <Segmented
              value={sort}
              onChange={(v) => {
                setPageNo(1);
                setSort(v as PublicSort);
              }}
              options={PUBLIC_SORTS.map((s) => ({ value: s, label: t(`library.sort.${s}`) }))}
              data-testid="library-sort"
            />
          )}
        </Space>
        <Space className="toolbar-right">
          <small>{t('library.total', { count: total })}</small>
          <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label="refresh" data-testid="library-refresh" />
        </Space>
      </div>
      <Spin spinning={loading}>
        {items.length ? (
          <div className="grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))' }}>
            {items.map((item) => (
              <PublicCard key={item.id} item={item} onOpen={onOpen} />
            ))}
          </div>
        ) : (
          <Empty description={t(`library.empty.${kind}`)} />
        )}
      </Spin>
      {total > PAGE_SIZE && <Pagination style={{ marginTop: 16, textAlign: 'center' }} current={pageNo} pageSize={PAGE_SIZE} total={total} onChange={setPageNo} showSizeChanger={false} />}
    </div>
  );
}
