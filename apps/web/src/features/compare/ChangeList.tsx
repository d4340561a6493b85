import { List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { COMPARE_COLOURS, type CompareChange, type CompareChangesResult } from './api.ts';

const SHOWN = 500;

const dot = (colour: string) => <span className="compare-dot" style={{ background: colour }} />;

/** Colours of the overlay with how many entities each has. */
export function CompareLegend({ counts }: { counts?: CompareChangesResult['counts'] }) {
  const { t } = useTranslation('compare');
  return (
    <div className="compare-legend" data-testid="compare-legend">
      {(['added', 'removed', 'modified', 'unchanged'] as const).map((k) => (
        <span key={k} className="compare-legend-item" data-testid={`compare-count-${k}`}>
          {dot(COMPARE_COLOURS[k])}
          {t(`compare.legend.${k}`)} <b>{counts ? counts[k] : '…'}</b>
        </span>
      ))}
    </div>
  );
}

/** The changed entities; a click zooms the view to one. */
export function ChangeList({ changes, selected, onPick }: { changes: CompareChange[]; selected: number | null; onPick: (i: number) => void }) {
  const { t } = useTranslation('compare');
  if (!changes.length) return <Typography.Text type="secondary" data-testid="compare-empty">{t('compare.empty')}</Typography.Text>;
  return (
    <>
      <List
        size="small"
        data-testid="compare-list"
        dataSource={changes.slice(0, SHOWN)}
        renderItem={(c, i) => (
          <List.Item className={`compare-item ${selected === i ? 'compare-item-selected' : ''}`} onClick={() => onPick(i)} data-testid="compare-item" style={{ cursor: 'pointer' }}>
            <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
              <Space size={6} wrap>
                {dot(COMPARE_COLOURS[c.kind])}
                <b>{t(`compare.legend.${c.kind}`)}</b>
                <span>{c.type}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{c.handleB ?? c.handleA ?? ''}</Typography.Text>
              </Space>
              <Space size={4} wrap>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('compare.item.layer', { layer: c.layer })}</Typography.Text>
                {c.what.map((w) => <Tag key={w} style={{ marginInlineEnd: 0 }}>{t(`compare.what.${w}`)}</Tag>)}
              </Space>
            </Space>
          </List.Item>
        )}
      />
      {changes.length > SHOWN && <Typography.Text type="secondary">{t('compare.more', { n: SHOWN })}</Typography.Text>}
    </>
  );
}
