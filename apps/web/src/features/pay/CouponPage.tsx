import { useCallback, useEffect, useState } from 'react';
import { isExchangeCodeEmpty } from '@cadcloud/contracts';
import { App, Button, Input, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/format.ts';
import { useUser } from '../auth/user.tsx';
import { payApi } from './api.ts';
import { CodeStatusTag } from './OrdersPage.tsx';

interface CodeRecord {
  key: string;
  code: string;
  status: number;
  planCode: string;
  at: number | null;
}

const PAGE_SIZE = 20;

/** /yun/coupon, /webH5/coupon: redeem an exchange code (not empty, spec section 5) and see the codes redeemed. */
export function CouponPage() {
  const { t, i18n } = useTranslation('pay');
  const { message } = App.useApp();
  const { refresh } = useUser();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [records, setRecords] = useState<{ total: number; list: CodeRecord[] } | null>(null);
  const [page, setPage] = useState(1);
  const reload = useCallback(
    () => payApi.exchangeList(page, PAGE_SIZE).then((r) => setRecords({ total: r.total, list: r.list.map((c, i) => ({ key: `${page}/${i}`, code: c.code, status: c.status, planCode: c.planCode, at: c.redeemedAt })) }), () => setRecords({ total: 0, list: [] })),
    [page],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  async function redeem() {
    if (isExchangeCodeEmpty(code)) {
      setError(t('coupon.empty'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const r = await payApi.exchange(code.trim());
      message.success(t('coupon.ok', { plan: t(`plan.${r.planCode}`, { defaultValue: r.planCode }), date: formatTime(r.endsAt, i18n.language) }));
      setCode('');
      void refresh().catch(() => undefined);
      await reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="pay-page" data-testid="coupon-page">
      <h2 className="page-title">{t('coupon.title')}</h2>
      <Space.Compact style={{ width: '100%', maxWidth: 480 }}>
        <Input value={code} onChange={(e) => setCode(e.target.value)} onPressEnter={() => void redeem()} placeholder={t('coupon.placeholder')} status={error ? 'error' : undefined} data-testid="coupon-input" />
        <Button type="primary" loading={busy} onClick={() => void redeem()} data-testid="coupon-redeem">{t('coupon.redeem')}</Button>
      </Space.Compact>
      {error && <div className="ant-form-item-explain-error" role="alert" data-testid="coupon-error">{error}</div>}
      <h3 style={{ marginTop: 24 }}>{t('coupon.records')}</h3>
      <Table size="small" rowKey="key" loading={!records} dataSource={records?.list ?? []} pagination={{ current: page, pageSize: PAGE_SIZE, total: records?.total ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }} locale={{ emptyText: t('coupon.none') }} scroll={{ x: 'max-content' }} data-testid="coupon-records"
        columns={[
          { title: t('code.code'), dataIndex: 'code' },
          { title: t('order.service'), key: 'plan', render: (_, r) => t(`plan.${r.planCode}`, { defaultValue: r.planCode }) },
          { title: t('code.status'), dataIndex: 'status', render: (s: number) => <CodeStatusTag status={s} /> },
          { title: t('coupon.redeemedAt'), key: 'at', render: (_, r) => (r.at ? formatTime(r.at, i18n.language) : '—') },
        ]} />
    </div>
  );
}
