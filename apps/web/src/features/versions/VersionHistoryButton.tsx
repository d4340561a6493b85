import { Button } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Item } from '../files/api.ts';

/** "Version history" for exactly one selected file: opens /yun/version/{fileId} (/webH5/version/{fileId} on a phone). */
export function VersionHistoryButton({ items, block, phone }: { items: Item[]; block?: boolean; phone?: boolean }) {
  const { t } = useTranslation('versions');
  const navigate = useNavigate();
  const one = items.length === 1 && items[0].fileType === 1 ? items[0] : null;
  return (
    <Button block={block} icon={<HistoryOutlined />} disabled={!one} onClick={() => one && navigate(`/${phone ? 'webH5' : 'yun'}/version/${encodeURIComponent(one.id)}`)} data-testid="btn-versions">
      {t('versions.entry')}
    </Button>
  );
}
